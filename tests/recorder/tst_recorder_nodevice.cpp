// SPDX-License-Identifier: GPL-3.0-or-later
// The recorder without a usable device (a build without CUDA, or no GPU): device tensors are
// refused with the reason, in every mode, and nothing of the refused calls reaches the files.
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"
#include "requiredevice.hpp"

#include <array>
#include <catch2/catch.hpp>

using namespace nanscope;

TEST_CASE("without a usable device the recorder refuses device tensors and writes nothing",
          "[nodevice][recorder]")
{
    NANSCOPE_REQUIRE_NO_DEVICE();
    CHECK_FALSE(deviceTensorsSupported());
    for (const TensorDebugMode mode :
         {TensorDebugMode::NoTensor, TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
          TensorDebugMode::FullHealth, TensorDebugMode::Shape, TensorDebugMode::FullTensor}) {
        INFO(toString(mode));
        test::TempDir dir;
        auto rec = Recorder::open({.dumpRoot = dir.path(), .mode = mode, .circularBufferSize = -1});
        REQUIRE(rec.ok());
        auto graph = (*rec)->declareGraph("g");
        auto op = (*rec)->declareOp({.graph = *graph, .type = "Relu", .name = "relu"});
        REQUIRE(op.ok());

        const float values[4] = {1, 2, 3, 4};
        const std::int64_t shape[1] = {4};
        const TensorView host{.data = values, .shape = shape};
        const TensorView device{.data = values, .shape = shape, .space = MemorySpace::Device};

        const Status single = (*rec)->recordTrace(*op, 0, device);
        CHECK(single.code() == ErrorCode::Unsupported);
        CHECK(single.message().find("device memory") != std::string::npos);
        CHECK(single.message().find(gpu::builtWithCuda() ? "no usable CUDA device"
                                                         : "no CUDA support") != std::string::npos);

        // All or nothing: the host tensor before the device one is not recorded either.
        const std::array<TraceSpec, 2> both = {TraceSpec{*op, 0, host}, TraceSpec{*op, 0, device}};
        CHECK((*rec)->recordTraces(both).code() == ErrorCode::Unsupported);
        CHECK((*rec)
                  ->recordExecution({.opType = "Relu", .outputIds = {1}, .outputs = {device}})
                  .code() == ErrorCode::Unsupported);
        CHECK((*rec)->stats().tracesRecorded == 0);

        REQUIRE((*rec)->close().ok());
        CHECK(test::readEvents(dir.path(), "graph_execution_traces").empty());
        CHECK(test::readEvents(dir.path(), "execution").empty());
    }
}

TEST_CASE("recordTraces records host tensors as recordTrace does", "[recorder]")
{
    // Runs everywhere: the batch call without device tensors.
    test::TempDir single;
    test::TempDir batched;
    const float a[3] = {1.0f, -0.0f, 3.0f};
    const double b[2] = {-1.0, 2.0};
    const std::int64_t shapeA[1] = {3};
    const std::int64_t shapeB[2] = {1, 2};
    const TensorView va{.data = a, .shape = shapeA};
    const TensorView vb{.data = b, .dtype = DType::Float64, .shape = shapeB};
    const TensorView vi{.data = a, .dtype = DType::Int32, .shape = shapeA}; // skipped by mode

    std::vector<std::vector<tfdbg::DebugEvent>> results;
    for (int variant = 0; variant < 2; ++variant) {
        const auto& dir = variant == 0 ? single.path() : batched.path();
        auto rec = Recorder::open({.dumpRoot = dir,
                                   .mode = TensorDebugMode::FullHealth,
                                   .circularBufferSize = -1,
                                   .runId = "run",
                                   .hostName = "host"});
        REQUIRE(rec.ok());
        auto graph = (*rec)->declareGraph("g");
        auto op =
            (*rec)->declareOp({.graph = *graph, .type = "Split", .name = "s", .numOutputs = 3});
        REQUIRE(op.ok());
        if (variant == 0) {
            REQUIRE((*rec)->recordTrace(*op, 0, va).ok());
            REQUIRE((*rec)->recordTrace(*op, 1, vb).ok());
            REQUIRE((*rec)->recordTrace(*op, 2, vi).ok());
        } else {
            const std::array<TraceSpec, 3> traces = {TraceSpec{*op, 0, va}, TraceSpec{*op, 1, vb},
                                                     TraceSpec{*op, 2, vi}};
            REQUIRE((*rec)->recordTraces(traces).ok());
            // A bad slot anywhere refuses the whole call.
            const std::array<TraceSpec, 2> bad = {TraceSpec{*op, 0, va}, TraceSpec{*op, 3, va}};
            CHECK((*rec)->recordTraces(bad).code() == ErrorCode::InvalidArgument);
            CHECK((*rec)->recordTraces({}).ok());
        }
        CHECK((*rec)->stats().tracesRecorded == 2);
        CHECK((*rec)->stats().tracesSkipped == 1);
        REQUIRE((*rec)->close().ok());
        results.push_back(test::readEvents(dir, "graph_execution_traces"));
    }
    REQUIRE(results[0].size() == 2);
    REQUIRE(results[1].size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        auto x = results[0][i].graph_execution_trace();
        auto y = results[1][i].graph_execution_trace();
        // Graph ids are random UUIDs; everything else is the same.
        x.clear_tfdbg_context_id();
        y.clear_tfdbg_context_id();
        CHECK(x.SerializeAsString() == y.SerializeAsString());
    }
}
