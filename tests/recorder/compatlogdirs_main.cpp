// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-compat-logdirs OUTDIR [MODE]: writes one logdir per way of using the recorder that the
// demo does not cover, for checking each against TensorFlow's own reader by hand
// (scripts/tf-compat.sh): threads, a circular buffer, two hosts, eager executions only, and the C
// interface. Each holds one NaN.
#include "nanscope/recorder.hpp"

#include <atomic>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <thread>
#include <vector>

extern "C" int nanscope_c_client(const char* dumpRoot);

namespace {

using namespace nanscope;
namespace fs = std::filesystem;

const std::int64_t kShape[1] = {8};

TensorView view(const std::vector<float>& values)
{
    return {.data = values.data(), .dtype = DType::Float32, .shape = kShape};
}

bool ok(const Status& s, const char* what)
{
    if (!s.ok())
        std::cerr << what << ": " << s.message() << "\n";
    return s.ok();
}

// A small loss graph: probs (Placeholder) → Log → Neg.
struct LossGraph
{
    GraphHandle graph;
    OpHandle probs, log, neg;
};

bool declareLoss(Recorder& rec, LossGraph& out)
{
    auto g = rec.declareGraph("loss");
    if (!g)
        return ok(g.status(), "declareGraph");
    out.graph = *g;
    auto probs = rec.declareOp({.graph = *g, .type = "Placeholder", .name = "probs"});
    auto log = rec.declareOp({.graph = *g, .type = "Log", .name = "Log", .inputs = {"probs"}});
    auto neg = rec.declareOp({.graph = *g, .type = "Neg", .name = "Neg", .inputs = {"Log:0"}});
    if (!probs || !log || !neg)
        return ok(!probs ? probs.status() : !log ? log.status() : neg.status(), "declareOp");
    out.probs = *probs;
    out.log = *log;
    out.neg = *neg;
    return true;
}

// One step of the loss graph on `rec` (which may be another host's recorder); `zero` puts an
// exact zero into probs, so Log makes -inf.
bool step(Recorder& rec, const LossGraph& g, bool zero)
{
    std::vector<float> p(8, 0.125f);
    if (zero)
        p[3] = 0.0f;
    std::vector<float> l(8), n(8);
    for (int i = 0; i < 8; ++i) {
        l[i] = std::log(p[i]);
        n[i] = -l[i];
    }
    return ok(rec.recordTrace(g.probs, 0, view(p)), "recordTrace") &&
           ok(rec.recordTrace(g.log, 0, view(l)), "recordTrace") &&
           ok(rec.recordTrace(g.neg, 0, view(n)), "recordTrace");
}

bool execution(Recorder& rec, const LossGraph& g, bool zero)
{
    std::vector<float> out(8, zero ? INFINITY : 1.0f);
    const std::int64_t in = rec.newTensorId();
    const std::int64_t id = rec.newTensorId();
    return ok(rec.recordExecution({.opType = "__inference_loss_1",
                                   .graph = &g.graph,
                                   .inputIds = {in},
                                   .outputIds = {id},
                                   .outputs = {view(out)}}),
              "recordExecution");
}

std::unique_ptr<Recorder> open(const fs::path& dir, TensorDebugMode mode, int circular,
                               const std::string& host = {})
{
    auto r = Recorder::open({.dumpRoot = dir,
                             .mode = mode,
                             .circularBufferSize = circular,
                             .runId = "compat-" + dir.filename().string(),
                             .hostName = host,
                             .closeAtExit = false});
    if (!r) {
        std::cerr << dir << ": " << r.status().message() << "\n";
        return nullptr;
    }
    return std::move(*r);
}

bool writeThreads(const fs::path& dir, TensorDebugMode mode)
{
    auto rec = open(dir, mode, -1);
    LossGraph g;
    if (!rec || !declareLoss(*rec, g))
        return false;
    std::vector<std::thread> threads;
    std::atomic<bool> good{true};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 50; ++i)
                if (!step(*rec, g, t == 2 && i == 30) || !execution(*rec, g, false))
                    good = false;
        });
    for (auto& t : threads)
        t.join();
    return good && ok(rec->close(), "close");
}

bool writeCircular(const fs::path& dir, TensorDebugMode mode)
{
    auto rec = open(dir, mode, 100);
    LossGraph g;
    if (!rec || !declareLoss(*rec, g))
        return false;
    for (int i = 0; i < 500; ++i)
        if (!step(*rec, g, i == 480) || !execution(*rec, g, i == 490))
            return false;
    return ok(rec->close(), "close");
}

// TensorFlow's layout of a run on several hosts: the first host (earliest metadata) declares the
// graphs and records the executions; every host records its own graph execution traces, naming
// the first host's graphs. TensorFlow's reader reads only the first host's other files.
bool writeHosts(const fs::path& dir, TensorDebugMode mode)
{
    auto main = open(dir, mode, -1, "host-a");
    if (!main)
        return false;
    // The worker's metadata must come later than the main host's.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto worker = open(dir, mode, -1, "host-b");
    LossGraph g;
    if (!worker || !declareLoss(*main, g))
        return false;
    for (int i = 0; i < 20; ++i)
        if (!step(*main, g, false) || !step(*worker, g, i == 12) || !execution(*main, g, false))
            return false;
    return ok(worker->close(), "close") && ok(main->close(), "close");
}

bool writeEager(const fs::path& dir, TensorDebugMode mode)
{
    auto rec = open(dir, mode, -1);
    if (!rec)
        return false;
    for (int i = 0; i < 30; ++i) {
        std::vector<float> out(8, i == 20 ? NAN : 0.5f);
        const std::int64_t in = rec->newTensorId();
        const std::int64_t id = rec->newTensorId();
        if (!ok(rec->recordExecution({.opType = i % 2 ? "Log" : "Exp",
                                      .inputIds = {in},
                                      .outputIds = {id},
                                      .outputs = {view(out)}}),
                "recordExecution"))
            return false;
    }
    return ok(rec->close(), "close");
}

} // namespace

int main(int argc, char** argv)
{
    const auto mode = argc >= 3 ? parseTensorDebugMode(argv[2]) : TensorDebugMode::FullHealth;
    if (argc < 2 || argc > 3 || !mode) {
        std::cerr << "usage: nanscope-compat-logdirs OUTDIR [TENSOR_DEBUG_MODE]\n";
        return 2;
    }
    const fs::path out = argv[1];
    struct Layout
    {
        const char* name;
        bool (*write)(const fs::path&, TensorDebugMode);
    };
    const Layout layouts[] = {{"threads", writeThreads},
                              {"circular", writeCircular},
                              {"hosts", writeHosts},
                              {"eager", writeEager}};
    int failures = 0;
    for (const Layout& l : layouts) {
        const fs::path dir = out / l.name;
        fs::create_directories(dir);
        const bool good = l.write(dir, *mode);
        failures += good ? 0 : 1;
        std::cout << dir.string() << (good ? "" : "  FAILED") << "\n";
    }
    const fs::path c = out / "c-api";
    fs::create_directories(c);
    const int code = nanscope_c_client(c.c_str());
    failures += code == 0 ? 0 : 1;
    std::cout << c.string() << (code == 0 ? "" : "  FAILED at step " + std::to_string(code))
              << "\n";
    return failures == 0 ? 0 : 1;
}
