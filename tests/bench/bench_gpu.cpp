// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope_bench_gpu: what NaNscope's GPU summaries cost.
//
//   1. Bandwidth: the health kernel on one large tensor of each dtype, beside a device-to-device
//      copy of the same buffer in the same run (goal: the kernel reads at >= 85 % of the copy's
//      memory throughput).
//   2. Batches of small tensors: one launch and one copy back per batch.
//   3. Training-step overhead: an MLP trained with cuBLAS (bench_gpu.cu), recorded per mode
//      with one recordTraces call and one recordExecution per step, against the same step
//      unrecorded; median step times, at the tutorial's size (goals: NO_TENSOR <= 10 %,
//      FULL_HEALTH <= 20 % of a 0.1 ms step) and for a 4096-wide MLP with batch 1024 (goals:
//      NO_TENSOR <= 3 %, FULL_HEALTH <= 5 %).
//
// Without a usable device it says so and exits with status 0: there is nothing to measure.
#include "bench_gpu.hpp"

#include "nanscope/gpu/device.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "nanscope/recorder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda_runtime_api.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace nanscope;
using bench::check;

constexpr int kRepeats = 20;

void check(const Status& s, const char* what)
{
    if (!s.ok()) {
        std::fprintf(stderr, "nanscope_bench_gpu: %s: %s\n", what, s.message().c_str());
        std::exit(1);
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Buffer
{
    void* data = nullptr;
    std::size_t bytes = 0;
    explicit Buffer(std::size_t size) : bytes(size)
    {
        check(cudaMalloc(&data, size), "cudaMalloc");
    }
    ~Buffer() { (void)cudaFree(data); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

struct Stream
{
    cudaStream_t stream = nullptr;
    Stream() { check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream"); }
    ~Stream() { (void)cudaStreamDestroy(stream); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
};

struct Timer
{
    cudaEvent_t start = nullptr, stop = nullptr;
    Timer()
    {
        check(cudaEventCreate(&start), "cudaEventCreate");
        check(cudaEventCreate(&stop), "cudaEventCreate");
    }
    ~Timer()
    {
        (void)cudaEventDestroy(start);
        (void)cudaEventDestroy(stop);
    }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    double milliseconds() const
    {
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        return ms;
    }
};

double copyMilliseconds(const Buffer& from, const Buffer& to, cudaStream_t stream)
{
    Timer t;
    std::vector<double> times;
    for (int i = 0; i < kRepeats + 2; ++i) {
        check(cudaEventRecord(t.start, stream), "cudaEventRecord");
        check(cudaMemcpyAsync(to.data, from.data, from.bytes, cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpyAsync");
        check(cudaEventRecord(t.stop, stream), "cudaEventRecord");
        if (i >= 2)
            times.push_back(t.milliseconds());
        else
            (void)t.milliseconds();
    }
    return median(times);
}

// A whole batch as the recorder uses it: descriptors up, one kernel, counts down. GPU time from
// events on the stream; the host time of submit() beside it.
double batchMilliseconds(gpu::SummaryBatch& batch, const std::vector<gpu::DeviceTensor>& tensors,
                         cudaStream_t stream, double* submitMicroseconds = nullptr)
{
    Timer t;
    std::vector<double> times;
    std::vector<double> host;
    for (int i = 0; i < kRepeats + 2; ++i) {
        batch.clear();
        for (const auto& tensor : tensors)
            check(batch.add(tensor).status(), "SummaryBatch::add");
        check(cudaEventRecord(t.start, stream), "cudaEventRecord");
        const auto before = std::chrono::steady_clock::now();
        check(batch.submit(), "SummaryBatch::submit");
        const auto after = std::chrono::steady_clock::now();
        check(cudaEventRecord(t.stop, stream), "cudaEventRecord");
        check(batch.wait(), "SummaryBatch::wait");
        const double ms = t.milliseconds();
        if (i >= 2) {
            times.push_back(ms);
            host.push_back(std::chrono::duration<double, std::micro>(after - before).count());
        }
    }
    if (submitMicroseconds)
        *submitMicroseconds = median(host);
    return median(times);
}

void benchBandwidth(std::size_t bytes)
{
    Stream s;
    Buffer source(bytes), target(bytes);
    const double gb = static_cast<double>(bytes) / 1e9;
    std::printf("\n== Health kernel bandwidth: one %.2f GB tensor, median of %d ==\n", gb,
                kRepeats);
    bench::fill(source.data, DType::Float32, bytes / 4, bench::FillKind::Realistic);
    const double copyMs = copyMilliseconds(source, target, s.stream);
    // A copy reads and writes every byte: its memory throughput is twice the buffer per second.
    const double copyGBs = 2 * gb / (copyMs / 1e3);
    std::printf("device-to-device copy: %.3f ms, %.0f GB/s of memory traffic (read + write)\n",
                copyMs, copyGBs);
    std::printf("%-10s %-12s %10s %10s %12s  %s\n", "dtype", "data", "ms", "GB/s read", "vs copy",
                "goal >= 85 %");
    gpu::SummaryBatch batch;
    const DType dtypes[] = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64,
                            DType::Int8,    DType::Int32,    DType::Int64,   DType::Bool};
    for (const auto kind : {bench::FillKind::Realistic, bench::FillKind::RandomBits}) {
        for (const DType dtype : dtypes) {
            if (kind == bench::FillKind::RandomBits && !isFloating(dtype))
                continue;
            const std::uint64_t count = bytes / elementSize(dtype);
            bench::fill(source.data, dtype, count, kind);
            const double ms = batchMilliseconds(
                batch, {{.data = source.data, .dtype = dtype, .count = count, .stream = s.stream}},
                s.stream);
            const double gbs = gb / (ms / 1e3);
            const double share = 100.0 * gbs / copyGBs;
            std::printf("%-10s %-12s %10.3f %10.0f %11.1f%%  %s\n",
                        std::string(dtypeName(dtype)).c_str(),
                        kind == bench::FillKind::RandomBits ? "random bits" : "realistic", ms, gbs,
                        share, share >= 85.0 ? "met" : "MISSED");
        }
    }
}

void benchSmallTensors()
{
    Stream s;
    std::printf("\n== Batches of small float32 tensors: one launch, one copy back ==\n");
    std::printf("%8s %12s %12s %12s %14s %12s\n", "tensors", "bytes each", "GPU us", "GB/s",
                "GPU us/tensor", "submit us");
    gpu::SummaryBatch batch;
    struct Case
    {
        std::size_t tensors;
        std::size_t bytesEach;
    };
    for (const Case c : {Case{1, 4096}, Case{30, 200'000}, Case{1000, 1024}, Case{1000, 65536},
                         Case{10000, 4096}}) {
        Buffer memory(c.tensors * c.bytesEach);
        bench::fill(memory.data, DType::Float32, memory.bytes / 4, bench::FillKind::Realistic);
        std::vector<gpu::DeviceTensor> tensors;
        for (std::size_t i = 0; i < c.tensors; ++i)
            tensors.push_back({.data = static_cast<unsigned char*>(memory.data) + i * c.bytesEach,
                               .count = c.bytesEach / 4,
                               .stream = s.stream});
        double submitUs = 0;
        const double ms = batchMilliseconds(batch, tensors, s.stream, &submitUs);
        std::printf("%8zu %12zu %12.1f %12.0f %14.3f %12.1f\n", c.tensors, c.bytesEach, ms * 1e3,
                    static_cast<double>(memory.bytes) / 1e9 / (ms / 1e3),
                    ms * 1e3 / static_cast<double>(c.tensors), submitUs);
    }
}

void benchCallCosts()
{
    Stream s;
    Buffer memory(4096);
    std::printf("\n== Host time of the CUDA calls a device summary makes, each alone (median of "
                "2048) ==\n");
    for (const bench::CallCost& c : bench::measureCallCosts(s.stream, memory.data))
        std::printf("%-44s %8.2f us\n", c.call.c_str(), c.microseconds);
}

// The recording of one step: a graph with an op per traced tensor, all recorded by one
// recordTraces call, and the step function's call as an execution whose output is the loss.
class StepRecording
{
public:
    StepRecording(Recorder& recorder, const std::vector<bench::StepTensor>& tensors,
                  const bench::StepTensor& loss, cudaStream_t stream)
        : m_recorder(recorder), m_lossTensor(loss)
    {
        auto graph = recorder.declareGraph("train_step");
        check(graph.status(), "declareGraph");
        m_graph = *graph;
        auto view = [stream](const bench::StepTensor& t) {
            return TensorView{.data = t.data,
                              .dtype = DType::Float32,
                              .shape = t.shape,
                              .space = MemorySpace::Device,
                              .stream = stream};
        };
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            auto op = recorder.declareOp(
                {.graph = m_graph, .type = "Op", .name = "tensor_" + std::to_string(i)});
            check(op.status(), "declareOp");
            m_traces.push_back({*op, 0, view(tensors[i])});
        }
        m_loss = view(m_lossTensor); // its shape must outlive the call
    }

    // Records the step; `tracesUs` gets the host time of the recordTraces call alone.
    void record(double& tracesUs)
    {
        const auto before = std::chrono::steady_clock::now();
        check(m_recorder.recordTraces(m_traces), "recordTraces");
        tracesUs =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - before)
                .count();
        check(
            m_recorder.recordExecution({.opType = "__inference_train_step_1",
                                        .graph = &m_graph,
                                        .outputIds = {m_recorder.newTensorId()},
                                        .outputs = {m_loss},
                                        .device = "/job:localhost/replica:0/task:0/device:GPU:0"}),
            "recordExecution");
    }

private:
    Recorder& m_recorder;
    GraphHandle m_graph;
    std::vector<TraceSpec> m_traces;
    bench::StepTensor m_lossTensor;
    TensorView m_loss;
};

struct Model
{
    const char* name;
    std::vector<int> widths;
    int batch;
    int steps;
    // The most each mode may add to a step, in percent.
    double noTensorGoal;
    double healthGoal; // FULL_HEALTH's
};

// "met" or "MISSED" against the model's goal for `mode`, or nothing where it has none.
std::string verdict(const Model& model, TensorDebugMode mode, double overheadPercent)
{
    double goal = -1;
    if (mode == TensorDebugMode::NoTensor)
        goal = model.noTensorGoal;
    else if (mode == TensorDebugMode::FullHealth)
        goal = model.healthGoal;
    if (goal < 0)
        return {};
    char text[48];
    std::snprintf(text, sizeof text, "<= %.0f %%: %s", goal,
                  overheadPercent <= goal ? "met" : "MISSED");
    return text;
}

void benchTraining(const Model& model, bool tf32)
{
    bench::TrainingStep step(model.widths, model.batch, tf32);
    const auto tensors = step.tracedTensors();
    std::size_t bytes = 0;
    for (const auto& t : tensors)
        bytes += static_cast<std::size_t>(*elementCount(t.shape)) * 4;

    std::string widths;
    for (const int w : model.widths)
        widths += (widths.empty() ? "" : "-") + std::to_string(w);
    std::printf("\n== Training step, %s MLP %s, batch %d (%s GEMMs): %zu traced tensors, "
                "%.1f MB; median of %d steps x 3 rounds ==\n",
                model.name, widths.c_str(), model.batch, tf32 ? "TF32" : "FP32", tensors.size(),
                static_cast<double>(bytes) / 1e6, model.steps);
    // "record us": the record calls alone, on the host; the rest of a mode's overhead is what
    // the GPU and the writer thread add to the next step.
    // "traces us": the recordTraces call's share of it; the rest is recordExecution's.
    std::printf("%-16s %12s %10s %11s %11s  %s\n", "mode", "ms/step", "overhead", "record us",
                "traces us", "goal");

    const auto logRoot = std::filesystem::temp_directory_path() /
                         ("nanscope-bench-gpu-" + std::to_string(std::random_device{}()));
    const std::vector<std::optional<TensorDebugMode>> modes = {
        std::nullopt,
        TensorDebugMode::NoTensor,
        TensorDebugMode::CurtHealth,
        TensorDebugMode::ConciseHealth,
        TensorDebugMode::FullHealth,
        TensorDebugMode::Shape,
        TensorDebugMode::FullTensor,
    };
    // Rounds over the modes, so that clock and thermal drift affect them alike.
    constexpr int kRounds = 3;
    std::vector<std::vector<double>> times(modes.size());
    std::vector<std::vector<double>> recordTimes(modes.size());
    std::vector<std::vector<double>> tracesTimes(modes.size());
    for (int i = 0; i < 5; ++i)
        (void)step.run();
    for (int round = 0; round < kRounds; ++round) {
        for (std::size_t m = 0; m < modes.size(); ++m) {
            // FULL_TENSOR copies every tensor to the host at each step; beyond the tutorial's
            // size that measures PCIe and memory, not NaNscope.
            if (modes[m] == TensorDebugMode::FullTensor && bytes > 64'000'000)
                continue;
            std::unique_ptr<Recorder> recorder;
            std::unique_ptr<StepRecording> recording;
            if (modes[m]) {
                // TensorFlow's defaults: a circular buffer of 1000 events.
                auto opened = Recorder::open(
                    {.dumpRoot = logRoot / std::to_string(round * 10 + static_cast<int>(m)),
                     .mode = *modes[m],
                     .closeAtExit = false});
                check(opened.status(), "Recorder::open");
                recorder = std::move(*opened);
                recording =
                    std::make_unique<StepRecording>(*recorder, tensors, step.loss(), step.stream());
            }
            for (int s = 0; s < model.steps + 2; ++s) {
                const auto before = std::chrono::steady_clock::now();
                (void)step.run();
                const auto stepped = std::chrono::steady_clock::now();
                double tracesUs = 0;
                if (recording)
                    recording->record(tracesUs);
                const auto after = std::chrono::steady_clock::now();
                if (s >= 2) {
                    times[m].push_back(
                        std::chrono::duration<double, std::milli>(after - before).count());
                    recordTimes[m].push_back(
                        std::chrono::duration<double, std::micro>(after - stepped).count());
                    tracesTimes[m].push_back(tracesUs);
                }
            }
            if (recorder)
                check(recorder->close(), "Recorder::close");
        }
    }
    const double base = median(times[0]);
    for (std::size_t m = 0; m < modes.size(); ++m) {
        if (times[m].empty())
            continue;
        const double t = median(times[m]);
        const std::string name = modes[m] ? std::string(toString(*modes[m])) : "uninstrumented";
        if (m == 0)
            std::printf("%-16s %12.3f %10s\n", name.c_str(), t, "");
        else {
            const double overhead = 100.0 * (t / base - 1.0);
            std::printf("%-16s %12.3f %9.1f%% %11.1f %11.1f  %s\n", name.c_str(), t, overhead,
                        median(recordTimes[m]), median(tracesTimes[m]),
                        verdict(model, *modes[m], overhead).c_str());
        }
    }
    std::error_code ignored;
    std::filesystem::remove_all(logRoot, ignored);
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false;
    bool tf32 = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") {
            quick = true;
        } else if (arg == "--tf32") {
            tf32 = true;
        } else {
            std::fprintf(stderr, "usage: nanscope_bench_gpu [--quick] [--tf32]\n");
            return 2;
        }
    }
    if (!gpu::available()) {
        std::printf("nanscope_bench_gpu: cannot run: %s\n"
                    "No GPU figures were measured; run it on a machine with a CUDA device.\n",
                    gpu::deviceStatus().message().c_str());
        return 0;
    }
    int runtime = 0, driver = 0, device = 0, memoryClockKHz = 0, busWidth = 0;
    (void)cudaRuntimeGetVersion(&runtime);
    (void)cudaDriverGetVersion(&driver);
    check(cudaGetDevice(&device), "cudaGetDevice");
    (void)cudaDeviceGetAttribute(&memoryClockKHz, cudaDevAttrMemoryClockRate, device);
    (void)cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, device);
    std::printf("Device: %s\nCUDA runtime %d, driver %d; nominal memory bandwidth %.0f GB/s\n",
                gpu::deviceDescription().c_str(), runtime, driver,
                2.0 * memoryClockKHz * 1e3 * (busWidth / 8.0) / 1e9);
    std::printf("Command:");
    for (int i = 0; i < argc; ++i)
        std::printf(" %s", argv[i]);
    std::printf("\n");

    std::size_t freeBytes = 0, totalBytes = 0;
    check(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
    const std::size_t wanted = quick ? (std::size_t{256} << 20) : (std::size_t{2} << 30);
    benchBandwidth(std::min(wanted, freeBytes / 4) / 4096 * 4096);
    benchSmallTensors();
    benchCallCosts();
    benchTraining({"tutorial", {784, 500, 10}, 100, quick ? 10 : 30, 10, 20}, tf32);
    benchTraining({"large", {4096, 4096, 4096, 4096}, 1024, quick ? 5 : 20, 3, 5}, tf32);
    return 0;
}
