// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchlogdir.hpp"

#include "nanscope/recorder.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace nanscope::bench {

namespace fs = std::filesystem;
namespace {

constexpr int kElements = 16;

struct StepOps
{
    std::vector<OpHandle> model, loss, update;
    OpHandle log;
};

int generate(const fs::path& dir, std::uint64_t traces)
{
    auto opened = Recorder::open({.dumpRoot = dir,
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1,
                                  .runId = "bench",
                                  .hostName = "bench",
                                  .closeAtExit = false});
    if (!opened.ok()) {
        std::fprintf(stderr, "cannot open the recorder: %s\n", opened.status().message().c_str());
        return 1;
    }
    auto& rec = **opened;
    auto outer = rec.declareGraph("");
    auto model = rec.declareGraph("model", &*outer);
    auto loss = rec.declareGraph("loss", &*outer);
    auto update = rec.declareGraph("train_step", &*outer);
    StepOps ops;
    auto chain = [&](const GraphHandle& g, const char* prefix, const char* const* types, int n,
                     std::vector<OpHandle>& out) {
        std::string previous;
        for (int i = 0; i < n; ++i) {
            const std::string name =
                std::string(prefix) + "/" + types[i % 6] + "_" + std::to_string(i);
            std::vector<std::string> inputs;
            if (!previous.empty())
                inputs.push_back(previous + ":0");
            auto op =
                rec.declareOp({.graph = g, .type = types[i % 6], .name = name, .inputs = inputs});
            out.push_back(*op);
            previous = name;
        }
    };
    const char* modelTypes[] = {"ReadVariableOp", "MatMul", "AddV2", "Relu", "Tanh", "Mul"};
    const char* updateTypes[] = {"ReadVariableOp", "Mul", "Sub", "Sqrt", "RealDiv", "AddV2"};
    chain(*model, "dense", modelTypes, 24, ops.model);
    // The loss: probs → Log → Mul → Neg → Mean … (the tutorial's pattern).
    ops.loss.push_back(*rec.declareOp({.graph = *loss, .type = "Placeholder", .name = "probs"}));
    ops.log = *rec.declareOp({.graph = *loss, .type = "Log", .name = "Log", .inputs = {"probs"}});
    ops.loss.push_back(ops.log);
    const char* lossTypes[] = {"Mul", "Neg", "Mean", "AddV2", "Tanh", "Square"};
    std::string previous = "Log";
    for (int i = 0; i < 10; ++i) {
        const std::string name = std::string("loss/") + lossTypes[i % 6] + "_" + std::to_string(i);
        ops.loss.push_back(*rec.declareOp(
            {.graph = *loss, .type = lossTypes[i % 6], .name = name, .inputs = {previous + ":0"}}));
        previous = name;
    }
    chain(*update, "adam", updateTypes, 24, ops.update);

    std::vector<std::int64_t> shape{4, 4};
    std::vector<float> healthy(kElements), withZero(kElements), negInf(kElements), nan(kElements);
    for (int i = 0; i < kElements; ++i)
        healthy[i] = withZero[i] = 0.01f * static_cast<float>(i + 1);
    withZero[5] = 0.0f;
    negInf = healthy;
    negInf[5] = -INFINITY;
    std::fill(nan.begin(), nan.end(), NAN);
    auto view = [&](const std::vector<float>& v) {
        return TensorView{.data = v.data(), .dtype = DType::Float32, .shape = shape};
    };
    const std::uint64_t injectAt = traces / 10 * 9;
    std::uint64_t written = 0;
    bool broken = false;
    auto record = [&](const OpHandle& op, const std::vector<float>& v) {
        if (written >= traces)
            return;
        (void)rec.recordTrace(op, 0, view(v));
        ++written;
    };
    while (written < traces) {
        for (const auto& op : ops.model)
            record(op, broken ? nan : healthy);
        const bool injectNow = !broken && written + ops.loss.size() >= injectAt;
        record(ops.loss[0], injectNow ? withZero : (broken ? nan : healthy));
        record(ops.log, injectNow ? negInf : (broken ? nan : healthy));
        for (std::size_t i = 2; i < ops.loss.size(); ++i)
            record(ops.loss[i], injectNow || broken ? nan : healthy);
        broken = broken || injectNow;
        for (const auto& op : ops.update)
            record(op, broken ? nan : healthy);
    }
    const Status closed = rec.close();
    if (!closed.ok()) {
        std::fprintf(stderr, "recorder: %s\n", closed.message().c_str());
        return 1;
    }
    return 0;
}

} // namespace

bool writeBenchLogdir(const fs::path& dir, std::uint64_t traces)
{
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(generate(dir, traces));
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::uint64_t statusKb(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::size_t length = std::strlen(field);
    while (std::getline(status, line))
        if (line.compare(0, length, field) == 0 && line.size() > length && line[length] == ':')
            return std::strtoull(line.c_str() + length + 1, nullptr, 10);
    return 0;
}

std::uint64_t residentKb()
{
    return statusKb("VmRSS");
}

} // namespace nanscope::bench
