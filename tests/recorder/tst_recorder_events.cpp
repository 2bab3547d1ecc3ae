// SPDX-License-Identifier: GPL-3.0-or-later
// What declareGraph, declareOp, recordTrace and recordExecution write, field by field.
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>

using namespace nanscope;
using test::readEvents;

namespace {

const std::regex kUuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

std::unique_ptr<Recorder> openRecorder(const std::filesystem::path& root, TensorDebugMode mode,
                                       int buffer = -1)
{
    auto r = Recorder::open({.dumpRoot = root, .mode = mode, .circularBufferSize = buffer});
    INFO(r.status().message());
    REQUIRE(r.ok());
    return std::move(*r);
}

// The source text of this file as the recorder should have captured it.
std::vector<std::string> thisFileLines()
{
    std::ifstream in(__FILE__, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> lines;
    std::size_t begin = 0;
    for (auto nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', begin)) {
        lines.push_back(text.substr(begin, nl - begin));
        begin = nl + 1;
    }
    lines.push_back(text.substr(begin));
    return lines;
}

} // namespace

TEST_CASE("graphs nest through their outer context id", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
    auto outermost = rec->declareGraph("");
    REQUIRE(outermost.ok());
    auto model = rec->declareGraph("model", &*outermost);
    REQUIRE(model.ok());
    auto dense = rec->declareGraph("dense_layer", &*model);
    REQUIRE(dense.ok());
    REQUIRE(rec->close().ok());

    const auto events = readEvents(dir.path(), "graphs");
    REQUIRE(events.size() == 3);
    const auto& g0 = events[0].debugged_graph();
    const auto& g1 = events[1].debugged_graph();
    const auto& g2 = events[2].debugged_graph();
    CHECK(std::regex_match(g0.graph_id(), kUuid));
    CHECK(g0.graph_name().empty());
    CHECK(g0.outer_context_id().empty());
    CHECK(g1.graph_name() == "model");
    CHECK(g1.outer_context_id() == g0.graph_id());
    CHECK(g2.graph_name() == "dense_layer");
    CHECK(g2.outer_context_id() == g1.graph_id());
    CHECK(g2.graph_id() == dense->id);
    CHECK(std::set<std::string>{g0.graph_id(), g1.graph_id(), g2.graph_id()}.size() == 3);
}

TEST_CASE("an op creation carries its inputs, output ids and creation stack", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::FullHealth);
    auto graph = rec->declareGraph("loss");
    REQUIRE(graph.ok());
    auto probs = rec->declareOp({.graph = *graph, .type = "Placeholder", .name = "probs"});
    const OpSpec logSpec{.graph = *graph, .type = "Log", .name = "Log", .inputs = {"probs:0"}};
    const int logLine = __LINE__ + 1;
    auto log = rec->declareOp(logSpec);
    auto split = rec->declareOp(
        {.graph = *graph, .type = "Split", .name = "split", .inputs = {"Log"}, .numOutputs = 3});
    REQUIRE(probs.ok());
    REQUIRE(log.ok());
    REQUIRE(split.ok());
    // Symbolic ids: one per output, from 1, in creation order, across graphs.
    CHECK(probs->outputTensorIds() == std::vector<std::int32_t>{1});
    CHECK(log->outputTensorIds() == std::vector<std::int32_t>{2});
    CHECK(split->outputTensorIds() == std::vector<std::int32_t>{3, 4, 5});
    REQUIRE(rec->close().ok());

    const auto graphs = readEvents(dir.path(), "graphs");
    REQUIRE(graphs.size() == 4);
    REQUIRE(graphs[2].has_graph_op_creation());
    const auto& op = graphs[2].graph_op_creation();
    CHECK(op.op_type() == "Log");
    CHECK(op.op_name() == "Log");
    CHECK(op.graph_name() == "loss");
    CHECK(op.graph_id() == graph->id);
    CHECK(op.input_names().size() == 1);
    CHECK(op.input_names(0) == "probs:0");
    CHECK(op.num_outputs() == 1);
    CHECK(op.output_tensor_ids().size() == 1);
    CHECK(op.output_tensor_ids(0) == 2);
    CHECK(op.device_name().empty()); // TensorFlow never sets it
    CHECK_FALSE(op.code_location().host_name().empty());
    REQUIRE(op.code_location().stack_frame_ids_size() == 1);

    // The frame is this test's line, and its file was captured with its text, before it.
    const auto frames = readEvents(dir.path(), "stack_frames");
    const auto sources = readEvents(dir.path(), "source_files");
    REQUIRE(sources.size() == 1);
    const auto& source = sources[0].source_file();
    CHECK(std::filesystem::path(source.file_path()).is_absolute());
    CHECK(std::filesystem::equivalent(source.file_path(), __FILE__));
    CHECK(std::vector<std::string>(source.lines().begin(), source.lines().end()) ==
          thisFileLines());
    CHECK(source.host_name() == op.code_location().host_name());

    const auto frameId = op.code_location().stack_frame_ids(0);
    const tfdbg::StackFrameWithId* frame = nullptr;
    for (const auto& e : frames)
        if (e.stack_frame_with_id().id() == frameId)
            frame = &e.stack_frame_with_id();
    REQUIRE(frame != nullptr);
    CHECK(std::regex_match(frame->id(), kUuid));
    CHECK(frame->file_line_col().has_file_index()); // proto2: present even when 0
    CHECK(frame->file_line_col().file_index() == 0);
    CHECK(frame->file_line_col().line() == logLine);
    CHECK(frame->file_line_col().func().find("C_A_T_C_H") != std::string::npos);
    CHECK_FALSE(frame->file_line_col().has_col());
    // One frame per distinct line: three ops on three lines.
    CHECK(frames.size() == 3);
}

TEST_CASE("a repeated call site reuses its stack frame", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
    auto graph = rec->declareGraph("g");
    for (int i = 0; i < 5; ++i)
        REQUIRE(rec->declareOp({.graph = *graph, .type = "Const", .name = "c" + std::to_string(i)})
                    .ok());
    REQUIRE(rec->close().ok());
    CHECK(readEvents(dir.path(), "stack_frames").size() == 1);
    CHECK(readEvents(dir.path(), "source_files").size() == 1);
}

TEST_CASE("native stacks reach from main to the caller", "[events]")
{
    test::TempDir dir;
    auto r = Recorder::open({.dumpRoot = dir.path(), .captureNativeStacks = true});
    REQUIRE(r.ok());
    auto& rec = **r;
    auto graph = rec.declareGraph("g");
    const int line = __LINE__ + 1;
    auto op = rec.declareOp({.graph = *graph, .type = "Const", .name = "c"});
    REQUIRE(op.ok());
    REQUIRE(rec.close().ok());

    const auto graphs = readEvents(dir.path(), "graphs");
    const auto& ids = graphs[1].graph_op_creation().code_location().stack_frame_ids();
    REQUIRE(ids.size() >= 3); // at least main, Catch2's runner and this test
    std::map<std::string, tfdbg::StackFrameWithId> frames;
    for (const auto& e : readEvents(dir.path(), "stack_frames"))
        frames[e.stack_frame_with_id().id()] = e.stack_frame_with_id();
    std::vector<std::string> paths;
    for (const auto& e : readEvents(dir.path(), "source_files"))
        paths.push_back(e.source_file().file_path());

    // Innermost last: this test's own line. No frame of the recorder itself.
    const auto& innermost = frames.at(ids[ids.size() - 1]).file_line_col();
    CHECK(innermost.line() == line);
    CHECK(std::filesystem::equivalent(paths.at(innermost.file_index()), __FILE__));
    bool sawMain = false;
    for (const auto& id : ids) {
        const auto& f = frames.at(id).file_line_col();
        INFO(f.func());
        CHECK(f.func().find("nanscope::Recorder::") == std::string::npos);
        CHECK(f.func().find("nanscope::detail::") == std::string::npos);
        sawMain = sawMain || f.func() == "main";
    }
    CHECK(sawMain);
}

TEST_CASE("a graph trace in each summarising mode holds TensorFlow's vector", "[events]")
{
    const float values[6] = {1.0f, -2.0f, 0.0f, -INFINITY, NAN, 3.0f};
    const std::int64_t shape[2] = {2, 3};
    struct Case
    {
        TensorDebugMode mode;
        std::vector<double> expected; // with symbolic id 1
    };
    const std::vector<Case> cases = {
        {TensorDebugMode::CurtHealth, {1, 1}},
        {TensorDebugMode::ConciseHealth, {1, 6, 1, 0, 1}},
        {TensorDebugMode::FullHealth, {1, -1, 1, 2, 6, 1, 0, 1, 1, 1, 2}},
        {TensorDebugMode::Shape, {1, 1, 2, 6, 2, 3, 0, 0, 0, 0}},
    };
    for (const auto& c : cases) {
        DYNAMIC_SECTION(toString(c.mode))
        {
            test::TempDir dir;
            auto rec = openRecorder(dir.path(), c.mode);
            auto graph = rec->declareGraph("g");
            auto op = rec->declareOp({.graph = *graph,
                                      .type = "Log",
                                      .name = "Log",
                                      .device = "/job:localhost/replica:0/task:0/device:GPU:0"});
            REQUIRE(
                rec->recordTrace(*op, 0, {.data = values, .dtype = DType::Float32, .shape = shape})
                    .ok());
            REQUIRE(rec->close().ok());
            const auto traces = readEvents(dir.path(), "graph_execution_traces");
            REQUIRE(traces.size() == 1);
            const auto& t = traces[0].graph_execution_trace();
            CHECK(t.tfdbg_context_id() == graph->id);
            CHECK(t.op_name() == "Log");
            CHECK(t.output_slot() == 0);
            CHECK(static_cast<int>(t.tensor_debug_mode()) == static_cast<int>(c.mode));
            CHECK(t.device_name() == "/job:localhost/replica:0/task:0/device:GPU:0");
            CHECK(t.tensor_proto().dtype() == tfdbg::DT_DOUBLE);
            REQUIRE(t.tensor_proto().tensor_shape().dim_size() == 1);
            CHECK(t.tensor_proto().tensor_shape().dim(0).size() ==
                  static_cast<std::int64_t>(c.expected.size()));
            CHECK(test::doubles(t.tensor_proto()) == c.expected);
            CHECK(traces[0].wall_time() > 1.6e9);
        }
    }
}

TEST_CASE("NO_TENSOR and FULL_TENSOR trace payloads", "[events]")
{
    const std::int32_t values[3] = {7, -1, 42};
    const std::int64_t shape[1] = {3};
    SECTION("NO_TENSOR writes the empty float32 placeholder, for any dtype")
    {
        test::TempDir dir;
        auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
        auto graph = rec->declareGraph("g");
        auto op = rec->declareOp({.graph = *graph, .type = "Const", .name = "c", .numOutputs = 2});
        REQUIRE(
            rec->recordTrace(*op, 1, {.data = values, .dtype = DType::Int32, .shape = shape}).ok());
        REQUIRE(rec->close().ok());
        const auto traces = readEvents(dir.path(), "graph_execution_traces");
        REQUIRE(traces.size() == 1);
        const auto& t = traces[0].graph_execution_trace();
        CHECK(t.output_slot() == 1);
        std::string bytes;
        REQUIRE(t.tensor_proto().SerializeToString(&bytes));
        CHECK(bytes == std::string("\x08\x01\x12\x02\x12\x00", 6));
    }
    SECTION("FULL_TENSOR writes dtype, shape and raw content")
    {
        test::TempDir dir;
        auto rec = openRecorder(dir.path(), TensorDebugMode::FullTensor);
        auto graph = rec->declareGraph("g");
        auto op = rec->declareOp({.graph = *graph, .type = "Const", .name = "c"});
        REQUIRE(
            rec->recordTrace(*op, 0, {.data = values, .dtype = DType::Int32, .shape = shape}).ok());
        REQUIRE(rec->close().ok());
        const auto traces = readEvents(dir.path(), "graph_execution_traces");
        REQUIRE(traces.size() == 1);
        const auto& p = traces[0].graph_execution_trace().tensor_proto();
        CHECK(p.dtype() == tfdbg::DT_INT32);
        CHECK(p.tensor_shape().dim(0).size() == 3);
        CHECK(p.tensor_content() == std::string(reinterpret_cast<const char*>(values), 12));
        CHECK(p.int_val_size() == 0);
    }
}

TEST_CASE("an execution records ids, devices, graph and per-output summaries", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::ConciseHealth);
    auto graph = rec->declareGraph("model");
    const float probs[4] = {0.5f, 0.0f, 0.25f, 0.25f};
    const float logs[4] = {-0.69f, -INFINITY, -1.38f, -1.38f};
    const std::int64_t argmax[1] = {0};
    const std::int64_t four[1] = {4};
    const std::int64_t x = rec->newTensorId();
    const std::int64_t y = rec->newTensorId();
    const std::int64_t z = rec->newTensorId();
    CHECK(x < y);
    CHECK(y < z);
    REQUIRE(rec->recordExecution({.opType = "__inference_model_12",
                                  .graph = &*graph,
                                  .inputIds = {x},
                                  .outputIds = {y},
                                  .outputs = {{.data = probs, .shape = four}}})
                .ok());
    const ExecutionSpec logSpec{
        .opType = "Log",
        .inputIds = {y},
        .outputIds = {z, rec->newTensorId()},
        .outputs = {{.data = logs, .shape = four}, {.data = argmax, .dtype = DType::Int64}}};
    // One line, because compilers differ on which line of a multi-line call is its location.
    const int line = __LINE__ + 1;
    REQUIRE(rec->recordExecution(logSpec).ok());
    REQUIRE(rec->close().ok());

    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 2);
    const auto& call = executions[0].execution();
    CHECK(call.op_type() == "__inference_model_12");
    CHECK(call.graph_id() == graph->id);
    CHECK(call.num_outputs() == 1);
    CHECK(call.input_tensor_ids(0) == x);
    CHECK(call.output_tensor_ids(0) == y);
    REQUIRE(call.tensor_protos_size() == 1);
    CHECK(test::doubles(call.tensor_protos(0)) == std::vector<double>{-1, 4, 0, 0, 0});

    const auto& log = executions[1].execution();
    CHECK(log.graph_id().empty());
    CHECK(log.num_outputs() == 2);
    CHECK(static_cast<int>(log.tensor_debug_mode()) == 3);
    REQUIRE(log.tensor_protos_size() == 2);
    CHECK(test::doubles(log.tensor_protos(0)) == std::vector<double>{-1, 4, 1, 0, 0});
    // The int64 output gets TensorFlow's empty placeholder in a health mode.
    CHECK(log.tensor_protos(1).ByteSizeLong() == 0);
    CHECK(log.output_tensor_device_ids_size() == 2);
    CHECK(log.output_tensor_device_ids(0) == 1);

    const auto graphs = readEvents(dir.path(), "graphs");
    REQUIRE(graphs.size() == 2); // the graph, then the device first seen on an output
    CHECK(graphs[1].debugged_device().device_id() == 1);
    CHECK(graphs[1].debugged_device().device_name() ==
          "/job:localhost/replica:0/task:0/device:CPU:0");

    std::map<std::string, int> lineOf;
    for (const auto& e : readEvents(dir.path(), "stack_frames"))
        lineOf[e.stack_frame_with_id().id()] = e.stack_frame_with_id().file_line_col().line();
    CHECK(lineOf.at(log.code_location().stack_frame_ids(0)) == line);
}

TEST_CASE("an execution with an interpreter's stack and a framework context", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
    const std::filesystem::path script = dir.path() / "train.py";
    {
        std::ofstream out(script);
        out << "import torch\nloss = torch.log(p)\n";
    }
    const std::vector<CodeLocation> stack{{script.string(), 2, "<module>"},
                                          {"<frozen runpy>", 88, "_run_code"},
                                          {script.string(), 2, "<module>"}};
    ExecutionSpec backward{.opType = "aten::mul", .inputIds = {1}, .outputIds = {}};
    backward.context = {.modulePath = "MLP.head",
                        .forwardOpType = "aten::log",
                        .forwardModulePath = "MLP.head",
                        .forwardStack = {stack.front()}};
    REQUIRE(rec->recordExecution(backward, std::span<const CodeLocation>(stack)).ok());
    REQUIRE(rec->recordExecution({.opType = "aten::add"}, std::span<const CodeLocation>()).ok());
    REQUIRE(rec->close().ok());

    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 2);
    const auto& e = executions[0].execution();
    REQUIRE(e.code_location().stack_frame_ids_size() == 3);
    // The same frame twice is one stack frame record.
    CHECK(e.code_location().stack_frame_ids(0) == e.code_location().stack_frame_ids(2));
    REQUIRE(e.has_framework_context());
    CHECK(e.framework_context().module_path() == "MLP.head");
    CHECK(e.framework_context().forward_op_type() == "aten::log");
    CHECK(e.framework_context().forward_module_path() == "MLP.head");
    REQUIRE(e.framework_context().forward_code_location().stack_frame_ids_size() == 1);
    CHECK(e.framework_context().forward_code_location().stack_frame_ids(0) ==
          e.code_location().stack_frame_ids(0));
    // Without a context nothing is written: TensorFlow-shaped records stay as they were.
    CHECK_FALSE(executions[1].execution().has_framework_context());
    CHECK(executions[1].execution().code_location().stack_frame_ids_size() == 0);

    const auto files = readEvents(dir.path(), "source_files");
    REQUIRE(files.size() == 2);
    CHECK(files[0].source_file().file_path() == script.string());
    REQUIRE(files[0].source_file().lines_size() == 3);
    CHECK(files[0].source_file().lines(1) == "loss = torch.log(p)");
    // A name in angle brackets is the interpreter's, not a file: kept as is, without text.
    CHECK(files[1].source_file().file_path() == "<frozen runpy>");
    CHECK(files[1].source_file().lines_size() == 0);
}

TEST_CASE("devices get ids from 1 in first-seen order", "[events]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
    CHECK(*rec->registerDevice("/device:CPU:0") == 1);
    CHECK(*rec->registerDevice("/device:GPU:0") == 2);
    CHECK(*rec->registerDevice("/device:CPU:0") == 1);
    CHECK_FALSE(rec->registerDevice("").ok());
    REQUIRE(rec->close().ok());
    CHECK(readEvents(dir.path(), "graphs").size() == 2);
}

TEST_CASE("op declaration errors", "[events][errors]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::FullHealth);
    auto graph = rec->declareGraph("g");
    REQUIRE(rec->declareOp({.graph = *graph, .type = "Const", .name = "c"}).ok());

    auto duplicate = rec->declareOp({.graph = *graph, .type = "Const", .name = "c"});
    CHECK(duplicate.status().code() == ErrorCode::AlreadyExists);
    CHECK(duplicate.status().message().find("c") != std::string::npos);

    GraphHandle unknown{"no-such-graph", "x"};
    CHECK(rec->declareOp({.graph = unknown, .type = "Const", .name = "c"}).status().code() ==
          ErrorCode::NotFound);
    CHECK(rec->declareGraph("inner", &unknown).status().code() == ErrorCode::NotFound);
    CHECK(rec->declareOp({.graph = *graph, .type = "", .name = "n"}).status().code() ==
          ErrorCode::InvalidArgument);
    CHECK(rec->declareOp({.graph = *graph, .type = "T", .name = "n", .numOutputs = -1})
              .status()
              .code() == ErrorCode::InvalidArgument);
    CHECK(rec->declareOp({.graph = *graph, .type = "T", .name = "n2", .inputs = {""}})
              .status()
              .code() == ErrorCode::InvalidArgument);

    // The same name in another graph is fine.
    auto other = rec->declareGraph("h");
    CHECK(rec->declareOp({.graph = *other, .type = "Const", .name = "c"}).ok());

    auto op = rec->declareOp({.graph = *graph, .type = "Log", .name = "Log", .numOutputs = 1});
    const float v = 1.0f;
    CHECK(rec->recordTrace(*op, 1, {.data = &v}).code() == ErrorCode::InvalidArgument);
    CHECK(rec->recordTrace(*op, -1, {.data = &v}).code() == ErrorCode::InvalidArgument);
    CHECK(rec->recordTrace(OpHandle{}, 0, {.data = &v}).code() == ErrorCode::InvalidArgument);
    const std::int64_t negative[1] = {-3};
    CHECK(rec->recordTrace(*op, 0, {.data = &v, .shape = negative}).code() ==
          ErrorCode::InvalidArgument);
    const std::int64_t four[1] = {4};
    CHECK(rec->recordTrace(*op, 0, {.data = nullptr, .shape = four}).code() ==
          ErrorCode::InvalidArgument);
    // Host memory that claims to be device memory: without CUDA or a device the recorder cannot
    // read device memory at all; with them, it finds that the pointer is not device memory.
    CHECK(rec->recordTrace(*op, 0, {.data = &v, .space = MemorySpace::Device}).code() ==
          (deviceTensorsSupported() ? ErrorCode::InvalidArgument : ErrorCode::Unsupported));

    CHECK(rec->recordExecution({.opType = "Log", .outputIds = {1}}).code() ==
          ErrorCode::InvalidArgument);
    CHECK(rec->recordExecution({.opType = ""}).code() == ErrorCode::InvalidArgument);
    CHECK(rec->recordExecution({.opType = "f", .graph = &unknown}).code() == ErrorCode::NotFound);

    REQUIRE(rec->close().ok());
    // Nothing that was refused reached the files.
    CHECK(readEvents(dir.path(), "graph_execution_traces").empty());
    CHECK(readEvents(dir.path(), "execution").empty());
    CHECK(readEvents(dir.path(), "graphs").size() == 5);
}

TEST_CASE("a closed recorder refuses work", "[events][errors]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::NoTensor);
    auto graph = rec->declareGraph("g");
    REQUIRE(rec->close().ok());
    CHECK(rec->close().ok()); // idempotent
    CHECK(rec->declareGraph("h").status().code() == ErrorCode::Closed);
    CHECK(rec->declareOp({.graph = *graph, .type = "C", .name = "c"}).status().code() ==
          ErrorCode::Closed);
    CHECK(rec->recordExecution({.opType = "Log"}).code() == ErrorCode::Closed);
    CHECK(rec->flush().code() == ErrorCode::Closed);
}

// TensorFlow's reader splits every input name with input_name.split(":") into exactly two
// parts and int()s the slot (debug_events_reader.py, _load_graphs); TensorBoard's op view then
// indexes the producer's consumers by that slot. The recorder writes only names that survive
// both, or refuses the op.
TEST_CASE("input names are written as TensorFlow's reader splits them", "[events][tensorflow]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path(), TensorDebugMode::FullHealth);
    auto graph = rec->declareGraph("g");
    REQUIRE(graph.ok());
    REQUIRE(rec->declareOp({.graph = *graph, .type = "Placeholder", .name = "x"}).ok());
    REQUIRE(rec->declareOp({.graph = *graph, .type = "Split", .name = "s", .numOutputs = 3}).ok());
    auto add = rec->declareOp(
        {.graph = *graph, .type = "AddN", .name = "sum", .inputs = {"x", "s:2", "s:01", "x:0"}});
    REQUIRE(add.ok());

    const auto refused = [&](std::vector<std::string> inputs, ErrorCode code) {
        static int n = 0;
        auto op = rec->declareOp({.graph = *graph,
                                  .type = "Identity",
                                  .name = "bad" + std::to_string(n++),
                                  .inputs = std::move(inputs)});
        CHECK(op.status().code() == code);
        return op.status().message();
    };
    CHECK(refused({"^x"}, ErrorCode::InvalidArgument).find("control input") != std::string::npos);
    refused({"x:0:1"}, ErrorCode::InvalidArgument);
    refused({"x:"}, ErrorCode::InvalidArgument);
    refused({":0"}, ErrorCode::InvalidArgument);
    refused({"x:-1"}, ErrorCode::InvalidArgument);
    refused({"x:+1"}, ErrorCode::InvalidArgument);
    refused({"x:1e1"}, ErrorCode::InvalidArgument);
    refused({"x:99999999999999999999"}, ErrorCode::InvalidArgument);
    // TensorBoard would index past the producer's outputs.
    CHECK(refused({"s:3"}, ErrorCode::InvalidArgument).find("3 outputs") != std::string::npos);
    // Ops come in topological order: an input names an op already declared in the same graph.
    CHECK(refused({"later:0"}, ErrorCode::NotFound).find("later") != std::string::npos);
    auto other = rec->declareGraph("h");
    CHECK(rec->declareOp({.graph = *other, .type = "Neg", .name = "n", .inputs = {"x:0"}})
              .status()
              .code() == ErrorCode::NotFound);
    // A ':' in an op name would split an input that names it.
    CHECK(rec->declareOp({.graph = *graph, .type = "Const", .name = "a:b"}).status().code() ==
          ErrorCode::InvalidArgument);
    REQUIRE(rec->close().ok());

    std::vector<std::string> written;
    for (const auto& e : readEvents(dir.path(), "graphs"))
        if (e.has_graph_op_creation() && e.graph_op_creation().op_name() == "sum")
            written.assign(e.graph_op_creation().input_names().begin(),
                           e.graph_op_creation().input_names().end());
    CHECK(written == std::vector<std::string>{"x:0", "s:2", "s:1", "x:0"});
    // Nothing refused reached the file: two graphs and three ops.
    CHECK(readEvents(dir.path(), "graphs").size() == 5);
}

// TensorFlow's reader raises "Found multiple tfdbg2 runs" for a directory holding two runs, and
// TensorBoard then shows nothing: the recorder refuses to start a second run there.
TEST_CASE("a dump root that holds another run is refused", "[files][tensorflow]")
{
    test::TempDir dir;
    auto first = Recorder::open({.dumpRoot = dir.path(), .runId = "first", .hostName = "a"});
    REQUIRE(first.ok());
    REQUIRE((*first)->close().ok());

    auto second = Recorder::open({.dumpRoot = dir.path(), .hostName = "b"});
    CHECK(second.status().code() == ErrorCode::AlreadyExists);
    CHECK_THAT(second.status().message(), Catch::Contains("\"first\"") &&
                                              Catch::Contains("two runs") &&
                                              Catch::Contains(".metadata"));
    // Another host of the same run is welcome.
    auto host = Recorder::open({.dumpRoot = dir.path(), .runId = "first", .hostName = "b"});
    CHECK(host.ok());
    // A metadata file whose record is not whole yet (a writer opening now) is not a run.
    test::TempDir other;
    std::ofstream(other.path() / "tfdbg_events.1700000000.x.metadata").put('\0');
    CHECK(Recorder::open({.dumpRoot = other.path()}).ok());
}
