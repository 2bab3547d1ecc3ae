// SPDX-License-Identifier: GPL-3.0-or-later
// Which tensors each mode and filter records, and how eager values are encoded (format §6.4, §7).
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using test::readEvents;

namespace {

struct Typed
{
    DType dtype;
    const void* data;
};

const float kF32[2] = {1.5f, -2.0f};
const double kF64[2] = {1.0, 0.0};
const std::uint16_t kF16[2] = {0x3c00, 0x7c00}; // 1.0, +inf
const std::int32_t kI32[2] = {1, -1};
const std::uint8_t kBool[2] = {1, 0};
const std::int64_t kTwo[1] = {2};

// Records one trace per dtype and returns the dtypes whose traces reached the file, in order.
std::vector<int> tracedTypes(RecorderOptions options, const std::vector<Typed>& inputs,
                             const std::string& opType = "Op")
{
    test::TempDir dir;
    options.dumpRoot = dir.path();
    options.circularBufferSize = -1;
    auto rec = Recorder::open(options);
    REQUIRE(rec.ok());
    auto graph = (*rec)->declareGraph("g");
    std::vector<int> slots;
    auto op = (*rec)->declareOp({.graph = *graph,
                                 .type = opType,
                                 .name = "op",
                                 .numOutputs = static_cast<int>(inputs.size())});
    REQUIRE(op.ok());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        REQUIRE((*rec)
                    ->recordTrace(*op, static_cast<int>(i),
                                  {.data = inputs[i].data, .dtype = inputs[i].dtype, .shape = kTwo})
                    .ok());
    REQUIRE((*rec)->close().ok());
    std::vector<int> dtypes;
    for (const auto& e : readEvents(dir.path(), "graph_execution_traces"))
        dtypes.push_back(static_cast<int>(inputs[e.graph_execution_trace().output_slot()].dtype));
    return dtypes;
}

const std::vector<Typed> kAllTypes = {{DType::Float32, kF32}, {DType::Float64, kF64},
                                      {DType::Float16, kF16}, {DType::Int32, kI32},
                                      {DType::Bool, kBool},   {DType::Resource, nullptr}};

} // namespace

TEST_CASE("each mode traces the dtypes TensorFlow instruments", "[modes]")
{
    const std::vector<int> floats = {1, 2, 19};
    CHECK(tracedTypes({.mode = TensorDebugMode::CurtHealth}, kAllTypes) == floats);
    CHECK(tracedTypes({.mode = TensorDebugMode::ConciseHealth}, kAllTypes) == floats);
    CHECK(tracedTypes({.mode = TensorDebugMode::FullHealth}, kAllTypes) == floats);
    CHECK(tracedTypes({.mode = TensorDebugMode::Shape}, kAllTypes) ==
          std::vector<int>{1, 2, 19, 3, 10});
    CHECK(tracedTypes({.mode = TensorDebugMode::NoTensor}, kAllTypes) ==
          std::vector<int>{1, 2, 19, 3, 10});
    CHECK(tracedTypes({.mode = TensorDebugMode::FullTensor}, kAllTypes) ==
          std::vector<int>{1, 2, 19, 3, 10});
}

TEST_CASE("the op type filter matches from the start of the type, like re.match", "[modes]")
{
    const std::vector<Typed> one = {{DType::Float32, kF32}};
    RecorderOptions o{.mode = TensorDebugMode::FullHealth, .opTypeRegex = "Mat"};
    CHECK(tracedTypes(o, one, "MatMul").size() == 1);
    CHECK(tracedTypes(o, one, "BatchMatMul").empty());
    o.opTypeRegex = "(Log|Softmax)$";
    CHECK(tracedTypes(o, one, "Log").size() == 1);
    CHECK(tracedTypes(o, one, "LogSoftmax").empty());
}

TEST_CASE("ops that allocate without writing have no values summarised, whatever the filter",
          "[modes]")
{
    // Their bits are whatever was in memory: no value the program computed.
    const std::vector<Typed> one = {{DType::Float32, kF32}};
    for (const auto mode : {TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
                            TensorDebugMode::FullHealth, TensorDebugMode::FullTensor}) {
        CHECK(tracedTypes({.mode = mode}, one, "Empty").empty());
        CHECK(tracedTypes({.mode = mode, .opTypeRegex = "Emp"}, one, "Empty").empty());
        CHECK(tracedTypes({.mode = mode}, one, "EmptyTensorList").size() == 1);
    }
    // Modes that read no value record them as any op: a shape is real.
    for (const auto mode : {TensorDebugMode::Shape, TensorDebugMode::NoTensor})
        CHECK(tracedTypes({.mode = mode}, one, "Empty").size() == 1);
    for (const std::string type :
         {"aten::empty", "aten::empty_like", "aten::empty_strided", "aten::empty_permuted",
          "aten::new_empty", "aten::new_empty_strided", "aten::resize_", "aten::resize_as_",
          "aten::resize", "aten::resize_as"}) {
        for (const std::string regex : {"", "aten::"}) {
            test::TempDir dir;
            auto rec = Recorder::open({.dumpRoot = dir.path(),
                                       .mode = TensorDebugMode::FullHealth,
                                       .opTypeRegex = regex});
            REQUIRE(rec.ok());
            REQUIRE((*rec)
                        ->recordExecution(
                            {.opType = type,
                             .inputIds = {1},
                             .outputIds = {2},
                             .outputs = {{.data = kF16, .dtype = DType::Float16, .shape = kTwo}}})
                        .ok());
            REQUIRE((*rec)->close().ok());
            const auto events = readEvents(dir.path(), "execution");
            REQUIRE(events.size() == 1);
            const auto& e = events[0].execution();
            CHECK(e.op_type() == type);
            CHECK(e.tensor_protos_size() == 0);
            CHECK(e.output_tensor_ids_size() == 1);
            CHECK(e.input_tensor_ids_size() == 1);
            CHECK(e.code_location().stack_frame_ids_size() > 0);
        }
    }
}

TEST_CASE("the dtype filter narrows what the mode would trace", "[modes]")
{
    RecorderOptions o{.mode = TensorDebugMode::Shape,
                      .tensorDtypes = {DType::Int32, DType::Float64}};
    CHECK(tracedTypes(o, kAllTypes) == std::vector<int>{2, 3});
}

TEST_CASE("skipped traces are counted, recorded ones too", "[modes]")
{
    test::TempDir dir;
    auto rec = Recorder::open({.dumpRoot = dir.path(), .mode = TensorDebugMode::FullHealth});
    auto graph = (*rec)->declareGraph("g");
    auto op = (*rec)->declareOp({.graph = *graph, .type = "T", .name = "t"});
    REQUIRE((*rec)->recordTrace(*op, 0, {.data = kI32, .dtype = DType::Int32, .shape = kTwo}).ok());
    REQUIRE((*rec)->recordTrace(*op, 0, {.data = kF32, .shape = kTwo}).ok());
    CHECK((*rec)->stats().tracesSkipped == 1);
    CHECK((*rec)->stats().tracesRecorded == 1);
}

TEST_CASE("eager outputs: placeholders, SHAPE of integers and the filters", "[modes]")
{
    auto record = [](RecorderOptions o) {
        test::TempDir dir;
        o.dumpRoot = dir.path();
        auto rec = Recorder::open(o);
        REQUIRE(rec.ok());
        REQUIRE(
            (*rec)
                ->recordExecution({.opType = "Op",
                                   .outputIds = {1, 2, 3},
                                   .outputs = {{.data = kF32, .shape = kTwo},
                                               {.data = kI32, .dtype = DType::Int32, .shape = kTwo},
                                               {.dtype = DType::Resource}}})
                .ok());
        REQUIRE((*rec)->close().ok());
        auto events = readEvents(dir.path(), "execution");
        REQUIRE(events.size() == 1);
        return events[0].execution();
    };
    SECTION("health: a summary for the float, an empty placeholder for the int, nothing for "
            "the resource")
    {
        const auto e = record({.mode = TensorDebugMode::CurtHealth});
        REQUIRE(e.tensor_protos_size() == 2);
        CHECK(test::doubles(e.tensor_protos(0)) == std::vector<double>{-1, 0});
        CHECK(e.tensor_protos(1).ByteSizeLong() == 0);
        CHECK(e.num_outputs() == 3);
        CHECK(e.output_tensor_device_ids_size() == 3);
    }
    SECTION("SHAPE summarises integers too")
    {
        const auto e = record({.mode = TensorDebugMode::Shape});
        REQUIRE(e.tensor_protos_size() == 2);
        CHECK(test::doubles(e.tensor_protos(1)) ==
              std::vector<double>{-1, 3, 1, 2, 2, 0, 0, 0, 0, 0});
    }
    SECTION("NO_TENSOR writes no payload at all")
    {
        CHECK(record({.mode = TensorDebugMode::NoTensor}).tensor_protos_size() == 0);
    }
    SECTION("a dtype filter drops outputs without a placeholder")
    {
        const auto e =
            record({.mode = TensorDebugMode::FullHealth, .tensorDtypes = {DType::Int32}});
        REQUIRE(e.tensor_protos_size() == 1);
        CHECK(e.tensor_protos(0).ByteSizeLong() == 0); // int32 in a health mode
    }
    SECTION("an op type filter that does not match leaves the execution without payloads")
    {
        const auto e = record({.mode = TensorDebugMode::FullHealth, .opTypeRegex = "MatMul"});
        CHECK(e.tensor_protos_size() == 0);
        CHECK(e.op_type() == "Op");
    }
}

TEST_CASE("eager FULL_TENSOR follows make_tensor_proto's encoding rules", "[modes]")
{
    test::TempDir dir;
    auto rec = Recorder::open({.dumpRoot = dir.path(), .mode = TensorDebugMode::FullTensor});
    REQUIRE(rec.ok());
    const float scalar = 2.5f;
    REQUIRE(
        (*rec)
            ->recordExecution({.opType = "Op",
                               .outputIds = {1, 2, 3, 4},
                               .outputs = {{.data = kF32, .shape = kTwo},
                                           {.data = &scalar},
                                           {.data = kBool, .dtype = DType::Bool, .shape = kTwo},
                                           {.data = kF16, .dtype = DType::Float16, .shape = kTwo}}})
            .ok());
    REQUIRE((*rec)->close().ok());
    const auto e = readEvents(dir.path(), "execution")[0].execution();
    REQUIRE(e.tensor_protos_size() == 4);
    // More than one element of a common numeric type: raw content.
    CHECK(e.tensor_protos(0).tensor_content() ==
          std::string(reinterpret_cast<const char*>(kF32), 8));
    // A scalar: the typed field, and an empty shape.
    CHECK(e.tensor_protos(1).tensor_content().empty());
    REQUIRE(e.tensor_protos(1).float_val_size() == 1);
    CHECK(e.tensor_protos(1).float_val(0) == 2.5f);
    CHECK(e.tensor_protos(1).tensor_shape().dim_size() == 0);
    // bool always uses bool_val.
    REQUIRE(e.tensor_protos(2).bool_val_size() == 2);
    CHECK(e.tensor_protos(2).bool_val(0));
    CHECK_FALSE(e.tensor_protos(2).bool_val(1));
    // float16 with two elements: raw content of the 16-bit patterns.
    CHECK(e.tensor_protos(3).dtype() == tfdbg::DT_HALF);
    CHECK(e.tensor_protos(3).tensor_content() ==
          std::string(reinterpret_cast<const char*>(kF16), 4));
}

TEST_CASE("NO_TENSOR traces carry TensorFlow's placeholder, each tensor still checked", "[modes]")
{
    test::TempDir dir;
    auto rec = Recorder::open({.dumpRoot = dir.path(), .mode = TensorDebugMode::NoTensor});
    REQUIRE(rec.ok());
    auto graph = (*rec)->declareGraph("g");
    auto a = (*rec)->declareOp({.graph = *graph, .type = "Relu", .name = "a"});
    auto b = (*rec)->declareOp({.graph = *graph, .type = "Log", .name = "b", .numOutputs = 2});
    REQUIRE((a.ok() && b.ok()));
    const std::int64_t negative[1] = {-1};
    const std::vector<TraceSpec> bad = {
        {*a, 0, {.data = kF32, .shape = kTwo}},
        {*b, 1, {.data = kF32, .shape = negative}},
    };
    CHECK((*rec)->recordTraces(bad).code() == ErrorCode::InvalidArgument);
    const std::vector<TraceSpec> good = {
        {*a, 0, {.data = kF32, .shape = kTwo}},
        {*b, 1, {.data = kF64, .dtype = DType::Float64, .shape = kTwo}},
        {*b, 0, {.data = nullptr, .shape = kTwo}}, // no values are read
    };
    REQUIRE((*rec)->recordTraces(good).ok());
    REQUIRE((*rec)->close().ok());

    const auto events = readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(events.size() == 3); // nothing of the refused call
    const std::vector<std::pair<std::string, int>> expected = {{"a", 0}, {"b", 1}, {"b", 0}};
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& trace = events[i].graph_execution_trace();
        INFO("trace " << i);
        CHECK(trace.op_name() == expected[i].first);
        CHECK(trace.output_slot() == expected[i].second);
        // TensorFlow's NO_TENSOR payload: float32, one dimension of size 0, no content.
        CHECK(trace.tensor_proto().dtype() == tfdbg::DT_FLOAT);
        REQUIRE(trace.tensor_proto().tensor_shape().dim_size() == 1);
        CHECK(trace.tensor_proto().tensor_shape().dim(0).size() == 0);
        CHECK(trace.tensor_proto().tensor_content().empty());
    }
}
