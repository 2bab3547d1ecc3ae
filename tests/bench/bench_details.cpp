// SPDX-License-Identifier: GPL-3.0-or-later
// What a model pays on the GUI thread to show one record: Snapshot::readTrace and readExecution
// (read, check the CRCs, decode, count the health, keep a few values) by record size, from a
// FULL_HEALTH summary up to a 16 MiB FULL_TENSOR tensor. The architecture document's rule for
// GUI-thread reads quotes these figures.
//
// Usage: nanscope_bench_details [--reads N]   (default 41 reads of each record)
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace nanscope;
using Clock = std::chrono::steady_clock;

namespace {

// One frame at 60 Hz: what a GUI-thread read must stay well under.
constexpr double kFrameMs = 1000.0 / 60.0;

struct Case
{
    const char* name;
    TensorDebugMode mode;
    std::int64_t elements; // float32
};

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[i];
}

// Writes one trace and one execution of `elements` float32 values (some NaN) in `mode`.
bool writeLogdir(const fs::path& dir, const Case& c)
{
    auto recorder = Recorder::open({.dumpRoot = dir, .mode = c.mode, .circularBufferSize = -1});
    if (!recorder)
        return false;
    std::vector<float> values(static_cast<std::size_t>(c.elements));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = i % 97 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                : static_cast<float>(i % 13) - 6.0F;
    const std::int64_t shape[] = {c.elements};
    const TensorView tensor{.data = values.data(), .dtype = DType::Float32, .shape = shape};
    auto graph = (*recorder)->declareGraph("g");
    auto op = (*recorder)->declareOp({.graph = *graph, .type = "Log", .name = "Log"});
    if (!graph || !op || !(*recorder)->recordTrace(*op, 0, tensor).ok())
        return false;
    const std::int64_t out = (*recorder)->newTensorId();
    return (*recorder)
               ->recordExecution({.opType = "Exp", .outputIds = {out}, .outputs = {tensor}})
               .ok() &&
           (*recorder)->close().ok();
}

fs::path fileEndingWith(const fs::path& dir, const std::string& suffix)
{
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == suffix)
            return entry.path();
    return {};
}

template <typename Read>
std::vector<double> timeReads(int reads, Read&& read)
{
    std::vector<double> ms;
    for (int i = 0; i < reads; ++i) {
        const auto start = Clock::now();
        if (!read())
            return {};
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    int reads = 41;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--reads") == 0 && i + 1 < argc) {
            reads = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--reads N]\n", argv[0]);
            return 2;
        }
    }
    const Case cases[] = {
        {"FULL_HEALTH summary", TensorDebugMode::FullHealth, 1000},
        {"FULL_TENSOR 4 KiB", TensorDebugMode::FullTensor, 1 << 10},
        {"FULL_TENSOR 256 KiB", TensorDebugMode::FullTensor, 1 << 16},
        {"FULL_TENSOR 1 MiB", TensorDebugMode::FullTensor, 1 << 18},
        {"FULL_TENSOR 4 MiB", TensorDebugMode::FullTensor, 1 << 20},
        {"FULL_TENSOR 16 MiB", TensorDebugMode::FullTensor, 1 << 22},
    };
    const fs::path root =
        fs::temp_directory_path() / ("nanscope-bench-details-" + std::to_string(::getpid()));
    std::printf("One record's details on the GUI thread, %d reads each (warm page cache)\n", reads);
    std::printf("%-30s %10s %10s %10s %10s %8s\n", "record", "bytes", "median ms", "p99 ms", "MB/s",
                "frames");
    int status = 0;
    int n = 0;
    for (const Case& c : cases) {
        const fs::path dir = root / std::to_string(n++);
        if (!writeLogdir(dir, c)) {
            std::fprintf(stderr, "cannot write the logdir of %s\n", c.name);
            status = 1;
            continue;
        }
        core::LogdirReader reader(dir);
        const auto snapshot = reader.update();
        if (snapshot->traceCount() != 1 || snapshot->executionCount() != 1) {
            std::fprintf(stderr, "%s: the logdir does not read back\n", c.name);
            status = 1;
            continue;
        }
        for (const bool trace : {true, false}) {
            // The file holds this one record: its size is what a read reads.
            const double bytes = static_cast<double>(fs::file_size(
                fileEndingWith(dir, trace ? ".graph_execution_traces" : ".execution")));
            const auto ms = timeReads(reads, [&] {
                return trace ? static_cast<bool>(snapshot->readTrace(0))
                             : static_cast<bool>(snapshot->readExecution(0));
            });
            if (ms.empty()) {
                std::fprintf(stderr, "%s: a read failed\n", c.name);
                status = 1;
                break;
            }
            const double median = percentile(ms, 0.5);
            const std::string name = std::string(c.name) + (trace ? " (trace)" : " (exec)");
            std::printf("%-30s %10.0f %10.3f %10.3f %10.0f %8.2f\n", name.c_str(), bytes, median,
                        percentile(ms, 0.99), bytes / 1e6 / (median / 1e3), median / kFrameMs);
        }
    }
    std::error_code ignored;
    fs::remove_all(root, ignored);
    return status;
}
