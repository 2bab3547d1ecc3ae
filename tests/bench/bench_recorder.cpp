// SPDX-License-Identifier: GPL-3.0-or-later
// How many graph execution traces per second the recorder writes on one thread, per mode.
//
// Usage: nanscope_bench_recorder [events-per-run] [elements-per-tensor]
// Each mode is run several times into a fresh temporary logdir; the table shows medians.
// Then a training step's record calls (the host side of nanscope_bench_gpu's small steps), the
// share of them that queues device events (bench_pending.cpp), and the memory that recording one
// large tensor in FULL_TENSOR adds, against its size.
#include "bench_pending.hpp"
#include "nanscope/recorder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace nanscope;

namespace {

constexpr int kRepeats = 5;
constexpr int kOps = 60; // like one training step of the tutorial

struct Run
{
    double eventsPerSecond = 0;
    double megabytesPerSecond = 0;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

Run runOnce(TensorDebugMode mode, int circularBuffer, long events, const std::vector<float>& data)
{
    const auto root = std::filesystem::temp_directory_path() /
                      ("nanscope-bench-" + std::to_string(std::random_device{}()));
    auto opened = Recorder::open({.dumpRoot = root,
                                  .mode = mode,
                                  .circularBufferSize = circularBuffer,
                                  .closeAtExit = false});
    if (!opened) {
        std::fprintf(stderr, "cannot open a recorder: %s\n", opened.status().message().c_str());
        std::exit(2);
    }
    auto& rec = **opened;
    auto graph = rec.declareGraph("step");
    std::vector<OpHandle> ops;
    for (int i = 0; i < kOps; ++i)
        ops.push_back(*rec.declareOp(
            {.graph = *graph, .type = "MatMul", .name = "dense_" + std::to_string(i) + "/MatMul"}));
    const std::int64_t shape[1] = {static_cast<std::int64_t>(data.size())};
    const TensorView view{.data = data.data(), .dtype = DType::Float32, .shape = shape};

    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < events; ++i) {
        if (!rec.recordTrace(ops[static_cast<std::size_t>(i % kOps)], 0, view).ok()) {
            std::fprintf(stderr, "recordTrace failed\n");
            std::exit(2);
        }
    }
    if (!rec.close().ok()) {
        std::fprintf(stderr, "close failed: %s\n", rec.firstError().message().c_str());
        std::exit(2);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double bytes = static_cast<double>(rec.stats().bytesWritten);
    std::filesystem::remove_all(root);
    return {static_cast<double>(events) / seconds, bytes / seconds / 1e6};
}

// Between two steps a GPU program's host runs the step (the framework, cuBLAS, the driver), which
// leaves little of the recorder's memory in the caches: touching this much between steps
// reproduces the record calls' time that nanscope_bench_gpu measures on a GPU machine.
constexpr std::size_t kEvictedBytes = std::size_t{32} << 20;

// The host time of one training step's record calls as nanscope_bench_gpu's tutorial MLP makes
// them (22 traces in one recordTraces, then the step's execution), in microseconds, median of
// `steps`; host tensors of 1,000 float32, TensorFlow's circular buffer of 1,000. With `evict`,
// kEvictedBytes are touched before each step.
double stepMicroseconds(TensorDebugMode mode, int steps, bool evict)
{
    std::vector<unsigned char> other(evict ? kEvictedBytes : 0);
    constexpr int kTraces = 22;
    const auto root = std::filesystem::temp_directory_path() /
                      ("nanscope-bench-step-" + std::to_string(std::random_device{}()));
    auto opened = Recorder::open({.dumpRoot = root, .mode = mode, .closeAtExit = false});
    if (!opened) {
        std::fprintf(stderr, "cannot open a recorder: %s\n", opened.status().message().c_str());
        std::exit(2);
    }
    auto& rec = **opened;
    auto graph = rec.declareGraph("train_step");
    const std::vector<float> values(1000, 0.5f);
    static const std::int64_t shape[2] = {10, 100};
    static const std::int64_t scalar[1] = {1};
    std::vector<TraceSpec> traces;
    for (int i = 0; i < kTraces; ++i) {
        auto op = rec.declareOp(
            {.graph = *graph, .type = "MatMul", .name = "dense_" + std::to_string(i) + "/MatMul"});
        traces.push_back(
            {*op, 0, {.data = values.data(), .dtype = DType::Float32, .shape = shape}});
    }
    const TensorView loss{.data = values.data(), .dtype = DType::Float32, .shape = scalar};
    std::vector<double> times;
    for (int s = 0; s < steps; ++s) {
        for (std::size_t i = 0; i < other.size(); i += 64)
            ++other[i];
        const auto start = std::chrono::steady_clock::now();
        const bool ok = rec.recordTraces(traces).ok() &&
                        rec.recordExecution({.opType = "__inference_train_step_1",
                                             .graph = &*graph,
                                             .outputIds = {rec.newTensorId()},
                                             .outputs = {loss}})
                            .ok();
        times.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count());
        if (!ok) {
            std::fprintf(stderr, "a step's record call failed\n");
            std::exit(2);
        }
    }
    (void)rec.close();
    std::filesystem::remove_all(root);
    return median(times);
}

long peakKilobytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// In a child process, so that its peak is its own: the peak resident memory that recording one
// float32 tensor of `elements` in FULL_TENSOR adds, in MB; negative on failure.
double fullTensorPeakMegabytes(long elements, int buffer)
{
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
        return -1;
    const pid_t child = fork();
    if (child == 0) {
        std::vector<float> tensor(static_cast<std::size_t>(elements), 1.5f);
        const std::int64_t shape[1] = {elements};
        const auto dir = std::filesystem::temp_directory_path() /
                         ("nanscope-bench-full-" + std::to_string(getpid()));
        const long before = peakKilobytes();
        double added = -1;
        if (auto rec = Recorder::open({.dumpRoot = dir,
                                       .mode = TensorDebugMode::FullTensor,
                                       .circularBufferSize = buffer})) {
            ExecutionSpec spec{.opType = "Add", .outputIds = {1}};
            spec.outputs = {{.data = tensor.data(), .dtype = DType::Float32, .shape = shape}};
            if ((*rec)->recordExecution(spec).ok() && (*rec)->close().ok())
                added = static_cast<double>(peakKilobytes() - before) / 1024.0;
        }
        std::filesystem::remove_all(dir);
        (void)!write(pipeFds[1], &added, sizeof added);
        _exit(0);
    }
    close(pipeFds[1]);
    double added = -1;
    if (child < 0 || read(pipeFds[0], &added, sizeof added) != sizeof added)
        added = -1;
    close(pipeFds[0]);
    if (child > 0)
        waitpid(child, nullptr, 0);
    return added;
}

} // namespace

int main(int argc, char** argv)
{
    const long events = argc > 1 ? std::atol(argv[1]) : 500'000;
    const long elements = argc > 2 ? std::atol(argv[2]) : 16;
    if (events <= 0 || elements <= 0) {
        std::fprintf(stderr, "usage: %s [events-per-run > 0] [elements-per-tensor > 0]\n", argv[0]);
        return 2;
    }
    std::vector<float> data(static_cast<std::size_t>(elements));
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    for (auto& v : data)
        v = normal(rng);

    std::printf("Recorder write throughput, one thread, %ld traces per run, float32[%ld], "
                "median of %d runs\n\n",
                events, elements, kRepeats);
    std::printf("%-16s %-14s %14s %10s %12s\n", "mode", "buffer", "traces/s", "MB/s",
                "vs 1M/s goal");
    struct Config
    {
        TensorDebugMode mode;
        int buffer;
    };
    const std::vector<Config> configs = {
        {TensorDebugMode::NoTensor, -1},      {TensorDebugMode::CurtHealth, -1},
        {TensorDebugMode::ConciseHealth, -1}, {TensorDebugMode::FullHealth, -1},
        {TensorDebugMode::Shape, -1},         {TensorDebugMode::FullTensor, -1},
        {TensorDebugMode::FullHealth, 1000},
    };
    for (const auto& c : configs) {
        std::vector<double> rates, throughput;
        for (int r = 0; r < kRepeats; ++r) {
            const Run run = runOnce(c.mode, c.buffer, events, data);
            rates.push_back(run.eventsPerSecond);
            throughput.push_back(run.megabytesPerSecond);
        }
        const double rate = median(rates);
        std::printf("%-16s %-14s %14.0f %10.1f %11.2fx\n", std::string(toString(c.mode)).c_str(),
                    c.buffer > 0 ? "circular 1000" : "write-through", rate, median(throughput),
                    rate / 1e6);
    }

    std::printf("\nOne training step's record calls (22 traces, 1 execution), host tensors, "
                "circular buffer of 1000: median of 20000 steps; cold: %zu MiB touched before "
                "each step, as a GPU step's host work does\n",
                kEvictedBytes >> 20);
    std::printf("%-16s %12s %14s %14s\n", "mode", "us/step", "us/event", "cold us/step");
    for (const TensorDebugMode mode :
         {TensorDebugMode::NoTensor, TensorDebugMode::CurtHealth, TensorDebugMode::FullHealth}) {
        const double us = stepMicroseconds(mode, 20'000, false);
        const double cold = stepMicroseconds(mode, 20'000, true);
        std::printf("%-16s %12.2f %14.3f %14.2f\n", std::string(toString(mode)).c_str(), us,
                    us / 23, cold);
    }
    const bench::QueueTimes queued = bench::queuedStepMicroseconds(20'000);
    std::printf("\nThe same step's events with device tensors, as the record calls queue them for "
                "the recorder's thread\n(host batches stand in for the GPU's; steps 100 us "
                "apart): %.2f us/step median, %.2f us 90th percentile\n",
                queued.median, queued.p90);

    constexpr long kLarge = 100'000'000;
    const double tensorMegabytes = kLarge * 4.0 / (1 << 20);
    std::printf("\nOne float32[%ld] tensor (%.0f MB) in FULL_TENSOR: peak memory the recorder "
                "adds (goal: one copy, <= 1.1x the tensor)\n",
                kLarge, tensorMegabytes);
    for (const int buffer : {-1, 1000}) {
        const double added = fullTensorPeakMegabytes(kLarge, buffer);
        std::printf("%-14s %10.0f MB %8.2fx the tensor\n",
                    buffer > 0 ? "circular 1000" : "write-through", added, added / tensorMegabytes);
    }
    return 0;
}
