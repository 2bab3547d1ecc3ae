// SPDX-License-Identifier: GPL-3.0-or-later
// The recorder with tensors in device memory: the same files as for the same tensors in host
// memory, bit for bit, in every mode; the order of the calls; values as they were at the call.
// [gpu]: skipped without a device.
#include "devicememory.hpp"
#include "healthdata.hpp"
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"
#include "requiredevice.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace nanscope;
using test::DeviceMemory;

namespace {

struct Sample
{
    DType dtype;
    std::vector<std::int64_t> shape;
    std::vector<unsigned char> host;
    std::unique_ptr<DeviceMemory> device;

    TensorView view(MemorySpace space, void* stream = nullptr) const
    {
        return {.data = space == MemorySpace::Host ? static_cast<const void*>(host.data())
                                                   : static_cast<const void*>(device->data()),
                .dtype = dtype,
                .shape = shape,
                .space = space,
                .stream = space == MemorySpace::Host ? nullptr : stream};
    }
};

std::vector<Sample> makeSamples()
{
    struct Spec
    {
        DType dtype;
        std::vector<std::int64_t> shape;
    };
    const std::vector<Spec> specs = {
        {DType::Float32, {100, 10}},
        {DType::Float16, {3, 5, 7}},
        {DType::BFloat16, {1025}},
        {DType::Float64, {}},
        {DType::Int32, {4, 4}},
        {DType::Bool, {9}},
        {DType::UInt8, {2, 3, 4, 5, 6, 7, 8}},
        {DType::Float32, {0, 3}},
        {DType::Int64, {1}},
    };
    std::vector<Sample> samples;
    std::uint64_t seed = 1;
    for (const auto& s : specs) {
        std::int64_t count = 1;
        for (const auto d : s.shape)
            count *= d;
        Sample sample{s.dtype, s.shape, test::healthData(s.dtype, count, seed++), nullptr};
        sample.device = std::make_unique<DeviceMemory>(sample.host.size());
        sample.device->upload(0, sample.host.data(), sample.host.size());
        samples.push_back(std::move(sample));
    }
    return samples;
}

// A trace without its graph id, a random UUID that differs between logdirs.
std::string withoutGraphId(tfdbg::GraphExecutionTrace trace)
{
    trace.clear_tfdbg_context_id();
    return trace.SerializeAsString();
}

RecorderOptions options(const std::filesystem::path& dir, TensorDebugMode mode)
{
    return {.dumpRoot = dir,
            .mode = mode,
            .circularBufferSize = -1,
            .runId = "run",
            .hostName = "host"};
}

// Records every sample as a trace (half one by one, half in one call) and as the outputs of
// one execution, from host or device memory.
void record(Recorder& rec, const std::vector<Sample>& samples, MemorySpace space)
{
    auto graph = rec.declareGraph("g");
    REQUIRE(graph.ok());
    std::vector<OpHandle> ops;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        auto op = rec.declareOp({.graph = *graph, .type = "Op", .name = "op" + std::to_string(i)});
        REQUIRE(op.ok());
        ops.push_back(*op);
    }
    std::vector<TraceSpec> batch;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (i % 2 == 0)
            REQUIRE(rec.recordTrace(ops[i], 0, samples[i].view(space)).ok());
        else
            batch.push_back({ops[i], 0, samples[i].view(space)});
    }
    REQUIRE(rec.recordTraces(batch).ok());
    ExecutionSpec execution{.opType = "Everything"};
    for (const Sample& s : samples) {
        execution.outputIds.push_back(rec.newTensorId());
        execution.outputs.push_back(s.view(space));
    }
    REQUIRE(rec.recordExecution(execution).ok());
}

} // namespace

TEST_CASE("device tensors are recorded as the same tensors in host memory, in every mode",
          "[gpu][recorder]")
{
    NANSCOPE_REQUIRE_DEVICE();
    CHECK(deviceTensorsSupported());
    const auto samples = makeSamples();
    for (const TensorDebugMode mode :
         {TensorDebugMode::NoTensor, TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
          TensorDebugMode::FullHealth, TensorDebugMode::Shape, TensorDebugMode::FullTensor}) {
        INFO(toString(mode));
        test::TempDir hostDir;
        test::TempDir deviceDir;
        for (const auto space : {MemorySpace::Host, MemorySpace::Device}) {
            const auto& dir = space == MemorySpace::Host ? hostDir.path() : deviceDir.path();
            auto rec = Recorder::open(options(dir, mode));
            REQUIRE(rec.ok());
            record(**rec, samples, space);
            REQUIRE((*rec)->close().ok());
        }
        const auto hostTraces = test::readEvents(hostDir.path(), "graph_execution_traces");
        const auto deviceTraces = test::readEvents(deviceDir.path(), "graph_execution_traces");
        REQUIRE(hostTraces.size() == deviceTraces.size());
        for (std::size_t i = 0; i < hostTraces.size(); ++i)
            CHECK(withoutGraphId(hostTraces[i].graph_execution_trace()) ==
                  withoutGraphId(deviceTraces[i].graph_execution_trace()));
        const auto hostExecutions = test::readEvents(hostDir.path(), "execution");
        const auto deviceExecutions = test::readEvents(deviceDir.path(), "execution");
        REQUIRE(hostExecutions.size() == 1);
        REQUIRE(deviceExecutions.size() == 1);
        const auto& x = hostExecutions[0].execution();
        const auto& y = deviceExecutions[0].execution();
        REQUIRE(x.tensor_protos_size() == y.tensor_protos_size());
        for (int i = 0; i < x.tensor_protos_size(); ++i)
            CHECK(x.tensor_protos(i).SerializeAsString() == y.tensor_protos(i).SerializeAsString());
    }
}

TEST_CASE("device and host traces are written in the order of the calls", "[gpu][recorder]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const auto samples = makeSamples();
    test::TempDir dir;
    auto rec = Recorder::open(options(dir.path(), TensorDebugMode::FullHealth));
    REQUIRE(rec.ok());
    auto graph = (*rec)->declareGraph("g");
    auto op = (*rec)->declareOp({.graph = *graph, .type = "Op", .name = "op", .numOutputs = 64});
    REQUIRE(op.ok());
    test::Stream stream;
    std::vector<int> expectedSlots;
    for (int slot = 0; slot < 64; ++slot) {
        const Sample& s = samples[0]; // float32: covered by FULL_HEALTH
        const auto space = (slot / 3) % 2 == 0 ? MemorySpace::Device : MemorySpace::Host;
        REQUIRE((*rec)->recordTrace(*op, slot, s.view(space, stream.handle())).ok());
        expectedSlots.push_back(slot);
        if (slot == 40)
            REQUIRE((*rec)->flush().ok()); // a flush in the middle waits for the device
    }
    REQUIRE((*rec)->flush().ok());
    std::vector<int> slots;
    for (const auto& e : test::readEvents(dir.path(), "graph_execution_traces"))
        slots.push_back(e.graph_execution_trace().output_slot());
    CHECK(slots == expectedSlots);
    REQUIRE((*rec)->close().ok());
}

TEST_CASE("a device summary sees the tensor as it was at the call", "[gpu][recorder]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const std::vector<float> values(1 << 20, 1.5f);
    DeviceMemory memory(values.size() * sizeof(float));
    memory.upload(0, values.data(), values.size() * sizeof(float));
    const std::int64_t shape[1] = {static_cast<std::int64_t>(values.size())};
    test::Stream stream;
    test::TempDir dir;
    auto rec = Recorder::open(options(dir.path(), TensorDebugMode::FullHealth));
    REQUIRE(rec.ok());
    auto graph = (*rec)->declareGraph("g");
    auto op = (*rec)->declareOp({.graph = *graph, .type = "Op", .name = "op"});
    REQUIRE((*rec)
                ->recordTrace(*op, 0,
                              {.data = memory.data(),
                               .shape = shape,
                               .space = MemorySpace::Device,
                               .stream = stream.handle()})
                .ok());
    // Every element becomes a NaN right after the call, on the same stream.
    NANSCOPE_CUDA_REQUIRE(
        cudaMemsetAsync(memory.data(), 0xff, values.size() * sizeof(float), stream.get()));
    REQUIRE((*rec)->close().ok());
    const auto traces = test::readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() == 1);
    const auto v = test::doubles(traces[0].graph_execution_trace().tensor_proto());
    REQUIRE(v.size() == 11);
    CHECK(v[4] == static_cast<double>(values.size()));
    CHECK(v[7] == 0.0);                                 // no NaN
    CHECK(v[10] == static_cast<double>(values.size())); // all positive
}

TEST_CASE("a call with a tensor the GPU cannot read records nothing", "[gpu][recorder]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const auto samples = makeSamples();
    test::TempDir dir;
    auto rec = Recorder::open(options(dir.path(), TensorDebugMode::ConciseHealth));
    REQUIRE(rec.ok());
    auto graph = (*rec)->declareGraph("g");
    auto op = (*rec)->declareOp({.graph = *graph, .type = "Op", .name = "op", .numOutputs = 2});
    REQUIRE(op.ok());
    // Host memory claimed to be device memory.
    TensorView wrong = samples[0].view(MemorySpace::Host);
    wrong.space = MemorySpace::Device;
    const std::array<TraceSpec, 2> traces = {
        TraceSpec{*op, 0, samples[0].view(MemorySpace::Device)}, TraceSpec{*op, 1, wrong}};
    const Status refused = (*rec)->recordTraces(traces);
    CHECK(refused.code() == ErrorCode::InvalidArgument);
    CHECK(refused.message().find("not in device memory") != std::string::npos);
    CHECK((*rec)->recordExecution({.opType = "Op", .outputIds = {1}, .outputs = {wrong}}).code() ==
          ErrorCode::InvalidArgument);
    // The recorder and the program's CUDA context still work.
    REQUIRE((*rec)->recordTrace(*op, 0, samples[0].view(MemorySpace::Device)).ok());
    REQUIRE((*rec)->close().ok());
    CHECK(test::readEvents(dir.path(), "graph_execution_traces").size() == 1);
    CHECK(test::readEvents(dir.path(), "execution").empty());
    NANSCOPE_CUDA_REQUIRE(cudaDeviceSynchronize());
}
