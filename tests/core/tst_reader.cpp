// SPDX-License-Identifier: GPL-3.0-or-later
// Incremental reading and the index: counts and order as TensorFlow's DebugDataReader gives
// them, graphs and ops, frames, and what NaNscope does where TensorFlow gives up.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/recorder.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

bool hasDiagnostic(const Snapshot& s, Severity severity, const std::string& fragment)
{
    const auto& d = s.diagnostics();
    return std::any_of(d.begin(), d.end(), [&](const Diagnostic& x) {
        return x.severity == severity && x.message.find(fragment) != std::string::npos;
    });
}

const OpInfo& traceOp(const Snapshot& s, std::uint64_t i)
{
    return s.graphs().op(s.trace(i).op);
}

} // namespace

TEST_CASE("the small logdir: counts, digests, graphs and frames", "[reader]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    LogdirReader reader(dir.path());
    CHECK(reader.latest()->generation() == 0);
    const auto s = reader.update();
    REQUIRE(s->readable());
    CHECK(s->complete());
    CHECK(s->layout().runId == "run1");
    CHECK(s->traceCount() == 4);
    CHECK(s->executionCount() == 2);
    CHECK(s->graphs().declaredGraphCount() == 1);
    CHECK(s->graphs().declaredOpCount() == 4);
    CHECK(s->code().files().size() == 1);
    CHECK(s->code().frames().size() == 3);
    CHECK(s->graphs().deviceName(1) == "/job:localhost/replica:0/task:0/device:CPU:0");
    CHECK(s->traceModes() == modeBit(DebugMode::FullHealth));
    CHECK(s->executionModes() == modeBit(DebugMode::ConciseHealth));
    INFO(s->diagnostics().size());
    CHECK(s->diagnostics().empty());

    const TraceDigest log = s->trace(2);
    CHECK(log.wallTime == 10.2);
    CHECK(log.fileIndex == 0);
    CHECK(log.mode == DebugMode::FullHealth);
    CHECK(log.health.nonFinite());
    CHECK(log.health.has(health::NegInf));
    CHECK(traceOp(*s, 2).type == "Log");
    CHECK(traceOp(*s, 2).name == "Log");
    CHECK(s->trace(0).health.has(health::Zero));
    CHECK(s->trace(0).health.finite());

    const ExecutionDigest e = s->execution(1);
    CHECK(e.opType == "__inference_loss_7");
    CHECK(e.graphId == "g");
    CHECK(e.health.nonFinite());
    CHECK(s->executionInputIds(1) == std::vector<std::int64_t>{2});
    CHECK(s->executionOutputIds(1) == std::vector<std::int64_t>{3});

    // Inputs resolved to producing ops and slots; consumers.
    const GraphTable& g = s->graphs();
    const OpId mul = g.findOp("g", "Mul");
    REQUIRE(mul != kNoOp);
    const OpInfo& m = g.op(mul);
    REQUIRE(m.inputs.size() == 2);
    CHECK(m.inputs[0].op == g.findOp("g", "Log"));
    CHECK(m.inputs[0].slot == 0);
    CHECK(m.inputs[1].op == g.findOp("g", "y"));
    const OpInfo& log0 = g.op(g.findOp("g", "Log"));
    REQUIRE(log0.consumers.size() == 1);
    REQUIRE(log0.consumers[0].size() == 1);
    CHECK(log0.consumers[0][0].op == mul);
    CHECK(g.findOp("g", "nope") == kNoOp);
    CHECK(g.findOp("nograph", "Mul") == kNoOp);

    // Full details on demand.
    const auto details = s->readTrace(2);
    REQUIRE(details);
    CHECK(details->opType == "Log");
    CHECK(details->graphIds == std::vector<std::string>{"g"});
    REQUIRE(details->debugTensorValue);
    CHECK(details->debugTensorValue->size() == 11);
    CHECK(details->health.negativeInfinity == 1);
    CHECK(details->deviceName == "/job:localhost/replica:0/task:0/device:CPU:0");
    const auto x = s->readExecution(1);
    REQUIRE(x);
    CHECK(x->opType == "__inference_loss_7");
    REQUIRE(x->debugTensorValues);
    CHECK(x->outputHealth.at(0).nan == 1);
    CHECK_FALSE(s->readTrace(99));

    const auto lines = s->readSourceLines(0);
    REQUIRE(lines);
    CHECK(lines->at(2) == "y = tf.math.log(x)");
    const auto frames = s->resolveStack(log0.stackFrameIds);
    REQUIRE(frames.size() == 2);
    CHECK(frames[1].filePath == "/home/user/train.py");
    CHECK(frames[1].line == 3);

    // Nothing new: the same snapshot comes back.
    CHECK(reader.update() == s);
}

TEST_CASE("reading while a writer appends, half a record at a time", "[reader][incremental]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "loss"));
    set.append("graphs", ev::op("g", "Exp", "Exp", {}, {1}));
    LogdirReader reader(dir.path());
    REQUIRE(reader.update()->traceCount() == 0);

    const std::string record =
        test::framed(ev::trace(5.0, "g", "Exp", 0, 3, ev::conciseHealth(1, 4, 0, 0, 0)));
    for (std::size_t split : {std::size_t{5}, std::size_t{12}, record.size() - 1}) {
        INFO("split at " << split);
        const std::uint64_t before = reader.latest()->traceCount();
        set.appendBytes("graph_execution_traces", record.substr(0, split));
        auto s = reader.update();
        CHECK(s->traceCount() == before);
        CHECK(hasDiagnostic(*s, Severity::Info, "incomplete record"));
        set.appendBytes("graph_execution_traces", record.substr(split));
        s = reader.update();
        CHECK(s->traceCount() == before + 1);
        CHECK_FALSE(hasDiagnostic(*s, Severity::Info, "incomplete record"));
    }
    // Snapshots stay valid and unchanged while the reader goes on.
    const auto old = reader.latest();
    set.append("graph_execution_traces",
               ev::trace(6.0, "g", "Exp", 0, 3, ev::conciseHealth(1, 4, 0, 1, 0)));
    const auto now = reader.update();
    CHECK(old->traceCount() == 3);
    CHECK(now->traceCount() == 4);
    CHECK(now->generation() > old->generation());
    CHECK(old->alertCount() == 0);
    CHECK(now->alertCount() == 1);
    CHECK(old->trace(2).wallTime == 5.0);
}

TEST_CASE("reading while the recorder writes from another thread", "[reader][incremental]")
{
    test::TempDir dir;
    auto opened = Recorder::open({.dumpRoot = dir.path(),
                                  .mode = TensorDebugMode::ConciseHealth,
                                  .circularBufferSize = -1,
                                  .flushInterval = std::chrono::milliseconds(1),
                                  .closeAtExit = false});
    REQUIRE(opened.ok());
    auto& rec = **opened;
    auto graph = rec.declareGraph("step");
    REQUIRE(graph.ok());
    auto op = rec.declareOp({.graph = *graph, .type = "Relu", .name = "r"});
    REQUIRE(op.ok());
    REQUIRE(rec.flush().ok());
    constexpr int kTraces = 20000;
    std::atomic<bool> done{false};
    std::thread writer([&] {
        const std::vector<float> values{1, 2, 3, 4};
        const std::vector<std::int64_t> shape{4};
        for (int i = 0; i < kTraces; ++i)
            (void)rec.recordTrace(*op, 0,
                                  {.data = values.data(), .dtype = DType::Float32, .shape = shape});
        done = true;
    });
    LogdirReader reader(dir.path());
    std::uint64_t seen = 0;
    int updates = 0;
    bool sawError = false;
    while (!done || updates < 3) {
        const auto s = reader.update();
        CHECK(s->traceCount() >= seen);
        seen = s->traceCount();
        for (const auto& d : s->diagnostics())
            sawError = sawError || d.severity == Severity::Error;
        ++updates;
    }
    writer.join();
    REQUIRE(rec.close().ok());
    const auto s = reader.update();
    CHECK(s->traceCount() == kTraces);
    CHECK_FALSE(sawError);
    CHECK(s->diagnostics().empty());
}

TEST_CASE("a file that shrinks under the reader is diagnosed", "[reader][incremental]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    LogdirReader reader(dir.path());
    REQUIRE(reader.update()->traceCount() == 4);
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        if (e.path().extension() == ".graph_execution_traces")
            std::filesystem::resize_file(e.path(), 10);
    const auto s = reader.update();
    CHECK(s->traceCount() == 4); // what was read stays
    CHECK(hasDiagnostic(*s, Severity::Warning, "truncated or replaced"));
}

TEST_CASE("trace indices count across hosts in TensorFlow's order", "[reader][multihost]")
{
    test::TempDir dir;
    FileSetWriter main(dir.path(), "client", 1700000001);
    FileSetWriter worker(dir.path(), "worker", 1700000000);
    main.createAll();
    worker.createAll();
    main.writeMetadata(100.0, "run");
    worker.writeMetadata(200.0, "run"); // later metadata: second, although its name sorts first
    main.append("graphs", ev::graph("g", "step"));
    main.append("graphs", ev::op("g", "MatMul", "a", {}, {1}));
    main.append("graphs", ev::op("g", "MatMul", "b", {}, {2}));
    auto trace = [](double t, const char* op) {
        return ev::trace(t, "g", op, 0, 2, ev::curtHealth(1, false));
    };
    main.append("graph_execution_traces", trace(1.0, "a"));
    worker.append("graph_execution_traces", trace(2.0, "b"));
    main.append("graph_execution_traces", trace(3.0, "a"));

    LogdirReader reader(dir.path());
    auto s = reader.update();
    REQUIRE(s->traceCount() == 3);
    // File by file: all of the main host's new traces, then the worker's.
    CHECK(s->trace(0).wallTime == 1.0);
    CHECK(s->trace(1).wallTime == 3.0);
    CHECK(s->trace(2).wallTime == 2.0);
    CHECK(s->trace(2).fileIndex == 1);
    CHECK(s->layout().fileSets[1].hostName == "worker");

    // A second update appends per file again.
    worker.append("graph_execution_traces", trace(4.0, "b"));
    main.append("graph_execution_traces", trace(5.0, "a"));
    s = reader.update();
    REQUIRE(s->traceCount() == 5);
    CHECK(s->trace(3).wallTime == 5.0);
    CHECK(s->trace(3).fileIndex == 0);
    CHECK(s->trace(4).wallTime == 4.0);
    CHECK(s->trace(4).fileIndex == 1);
    const auto details = s->readTrace(4);
    REQUIRE(details);
    CHECK(details->opName == "b");
}

TEST_CASE("a host that appears later is read after the known ones", "[reader][multihost]")
{
    test::TempDir dir;
    FileSetWriter main(dir.path(), "client", 1700000000);
    main.createAll();
    main.writeMetadata(100.0, "run");
    main.append("graphs", ev::graph("g", "step"));
    main.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
    LogdirReader reader(dir.path());
    REQUIRE(reader.update()->layout().fileSets.size() == 1);
    FileSetWriter late(dir.path(), "late", 1700000005);
    late.createAll();
    late.writeMetadata(105.0, "run");
    late.append("graph_execution_traces", ev::trace(1.0, "g", "r", 0, 2, ev::curtHealth(1, true)));
    const auto s = reader.update();
    REQUIRE(s->layout().fileSets.size() == 2);
    CHECK(s->traceCount() == 1);
    CHECK(s->trace(0).fileIndex == 1);
    CHECK(s->alertCount() == 1);
}

TEST_CASE("where TensorFlow's reader gives up, NaNscope keeps going", "[reader][quirks]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());

    SECTION("a trace of an unknown graph and op is kept, with a warning")
    {
        set.append("graphs", ev::graph("g", "known"));
        set.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
        set.append("graph_execution_traces",
                   ev::trace(1.0, "nograph", "ghost", 0, 2, ev::curtHealth(1, true)));
        set.append("graph_execution_traces",
                   ev::trace(2.0, "g", "r", 0, 2, ev::curtHealth(2, false)));
        LogdirReader reader(dir.path());
        auto s = reader.update();
        REQUIRE(s->traceCount() == 2);
        const OpInfo& ghost = traceOp(*s, 0);
        CHECK_FALSE(ghost.declared);
        CHECK(ghost.name == "ghost");
        CHECK(ghost.type.empty());
        CHECK_FALSE(s->graphs().graph(ghost.graph).declared);
        CHECK(traceOp(*s, 1).name == "r");
        CHECK(hasDiagnostic(*s, Severity::Warning, "1 traces name op \"ghost\""));
        CHECK(hasDiagnostic(*s, Severity::Warning, "graph id \"nograph\""));
        CHECK(s->alertCount() == 1);

        // The declarations arrive later: the same op entry becomes known.
        set.append("graphs", ev::graph("nograph", "late"));
        set.append("graphs", ev::op("nograph", "Log", "ghost", {}, {9}));
        s = reader.update();
        CHECK(traceOp(*s, 0).declared);
        CHECK(traceOp(*s, 0).type == "Log");
        CHECK_FALSE(hasDiagnostic(*s, Severity::Warning, "ghost"));
        CHECK(s->graphs().declaredOpCount() == 2);
    }
    SECTION("a duplicate op name keeps the first op")
    {
        set.append("graphs", ev::graph("g", "dup"));
        set.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
        set.append("graphs", ev::op("g", "Sigmoid", "r", {}, {2}));
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(s->graphs().declaredOpCount() == 1);
        CHECK(s->graphs().op(s->graphs().findOp("g", "r")).type == "Relu");
        CHECK(hasDiagnostic(*s, Severity::Warning, "op name \"r\" is used twice"));
    }
    SECTION("a frame read before its source file is kept until the file arrives")
    {
        set.append("stack_frames", ev::stackFrame("early", 1, 7, "f"));
        set.append("source_files", ev::sourceFile("/a.py", "h", {"a"}));
        LogdirReader reader(dir.path());
        auto s = reader.update();
        CHECK(s->code().frames().size() == 1);
        CHECK(s->resolveStack({"early"})[0].filePath.empty());
        CHECK(hasDiagnostic(*s, Severity::Warning, "1 stack frames name a source file index"));
        set.append("source_files", ev::sourceFile("/b.py", "h", {"b"}));
        s = reader.update();
        CHECK(s->resolveStack({"early"})[0].filePath == "/b.py");
        CHECK(s->resolveStack({"early"})[0].line == 7);
        CHECK_FALSE(hasDiagnostic(*s, Severity::Warning, "stack frames name"));
    }
    SECTION("a cycle of outer context ids is diagnosed and never looped")
    {
        set.append("graphs", ev::graph("a", "A", "c"));
        set.append("graphs", ev::graph("b", "B", "a"));
        set.append("graphs", ev::graph("c", "C", "b"));
        set.append("graphs", ev::op("c", "Relu", "r", {}, {1}));
        set.append("graph_execution_traces",
                   ev::trace(1.0, "c", "r", 0, 2, ev::curtHealth(1, false)));
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(hasDiagnostic(*s, Severity::Warning, "form a cycle"));
        bool cycle = false;
        const auto chain = s->graphs().chain(*s->graphs().findGraph("c"), &cycle);
        CHECK(cycle);
        CHECK(chain.size() == 3);
        const auto details = s->readTrace(0);
        REQUIRE(details);
        CHECK(details->graphIds.size() == 3);
        CHECK(details->graphIds.back() == "c");
    }
    SECTION("an outer graph that is never declared")
    {
        set.append("graphs", ev::graph("inner", "in", "missing-outer"));
        LogdirReader reader(dir.path());
        CHECK(hasDiagnostic(*reader.update(), Severity::Warning, "names outer graph"));
    }
    SECTION("a record of the wrong kind in a file is skipped with a warning")
    {
        set.append("graphs", ev::graph("g", "x"));
        set.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
        set.append("graph_execution_traces", ev::graph("h", "not a trace"));
        set.append("graph_execution_traces",
                   ev::trace(1.0, "g", "r", 0, 2, ev::curtHealth(1, false)));
        set.append("execution", ev::stackFrame("x", 0, 1, "f"));
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(s->traceCount() == 1);
        CHECK(traceOp(*s, 0).name == "r");
        CHECK(s->executionCount() == 0);
        CHECK(hasDiagnostic(*s, Severity::Warning, "not a GraphExecutionTrace record"));
        CHECK(hasDiagnostic(*s, Severity::Warning, "not an Execution record"));
    }
}

TEST_CASE("TensorFlow-written records that our recorder never writes", "[reader][compat]")
{
    test::TempDir dir;
    FileSetWriter set(dir.path());
    set.createAll();
    set.writeMetadata(1.0, ""); // early tfdbg2: no run id
    // An older proto3 FileLineCol: file_index 0 is not on the wire.
    tfdbg::DebugEvent frame = ev::stackFrame("f", 0, 12, "fn");
    frame.mutable_stack_frame_with_id()->mutable_file_line_col()->clear_file_index();
    REQUIRE_FALSE(frame.stack_frame_with_id().file_line_col().has_file_index());
    set.append("source_files", ev::sourceFile("/x.py", "h", {"l1"}));
    set.append("stack_frames", frame);
    set.append("graphs", ev::graph("g", ""));
    set.append("graphs", ev::op("g", "Exp", "e", {}, {1}));
    // An eager FULL_TENSOR scalar written with float_val (make_tensor_proto), and a trace.
    set.append("execution", ev::execution(1.0, "Exp", {}, {5}, 7, {ev::floatTyped({INFINITY}, 1)}));
    set.append("graph_execution_traces", ev::trace(0.5, "g", "e", 0, 7, ev::floatContent({1, 2})));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    CHECK(s->layout().runId.empty());
    CHECK(s->resolveStack({"f"})[0].filePath == "/x.py");
    REQUIRE(s->alertCount() == 1);
    const Alert a = s->alert(0);
    CHECK(a.event == EventRef{EventSource::Eager, 0});
    CHECK(a.counts == Alert::Counts::Integer);
    CHECK(a.size == 1);
    CHECK(a.positiveInfinity == 1);
    const auto details = s->readTrace(0);
    REQUIRE(details);
    CHECK_FALSE(details->debugTensorValue);
    REQUIRE(details->fullTensor);
    CHECK(details->fullTensor->values == std::vector<double>{1, 2});
}

TEST_CASE("a recorder-written logdir reads back in the order it was written", "[reader]")
{
    // Covered with the recorder in tst_origin.cpp; here the update budget.
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "x"));
    set.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
    for (int i = 0; i < 2000; ++i)
        set.append("graph_execution_traces",
                   ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, i == 1500)));
    set.append("execution", ev::execution(3000, "Relu", {}, {1}, 2, {ev::curtHealth(-1, false)}));
    LogdirReader reader(dir.path());
    auto s = reader.update({.maxTraceBytes = 1000});
    CHECK_FALSE(s->complete());
    CHECK(s->traceCount() > 0);
    CHECK(s->traceCount() < 2000);
    CHECK(s->executionCount() == 0);
    int updates = 1;
    while (!s->complete()) {
        s = reader.update({.maxTraceBytes = 1u << 16});
        ++updates;
    }
    CHECK(updates > 2);
    CHECK(s->traceCount() == 2000);
    CHECK(s->executionCount() == 1);
    REQUIRE(s->alertCount() == 1);
    CHECK(s->alert(0).event.index == 1500);
    for (std::uint64_t i = 0; i < 2000; i += 97)
        CHECK(s->trace(i).wallTime == static_cast<double>(i));
}

TEST_CASE("each trace names its own op when the order of ops changes between steps", "[reader]")
{
    // The index guesses each trace's op from the one before it (a training loop repeats its ops
    // in order) and checks the guess by graph and name: a guess that is wrong, or right by name in
    // another graph, must never stick.
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g1", "first"));
    set.append("graphs", ev::graph("g2", "second"));
    set.append("graphs", ev::op("g1", "MatMul", "a", {}, {1}));
    set.append("graphs", ev::op("g1", "Relu", "b", {}, {2}));
    set.append("graphs", ev::op("g2", "Tanh", "b", {}, {3}));
    set.append("graphs", ev::op("g2", "Sigmoid", "c", {}, {4}));
    const std::vector<std::pair<std::string, std::string>> order = {
        {"g1", "a"}, {"g1", "b"}, {"g1", "a"}, {"g2", "b"}, {"g1", "a"}, {"g1", "b"},
        {"g2", "c"}, {"g2", "b"}, {"g2", "c"}, {"g1", "b"}, {"g1", "a"}, {"g2", "b"},
        {"g1", "a"}, {"g1", "b"}, {"g1", "a"}, {"g1", "a"}};
    for (std::size_t i = 0; i < order.size(); ++i)
        set.append("graph_execution_traces",
                   ev::trace(static_cast<double>(i), order[i].first, order[i].second, 0, 2,
                             ev::curtHealth(1, false)));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->traceCount() == order.size());
    for (std::uint64_t i = 0; i < order.size(); ++i) {
        const OpInfo& op = traceOp(*s, i);
        CHECK(s->graphs().graph(op.graph).id == order[i].first);
        CHECK(op.name == order[i].second);
        CHECK(op.declared);
    }
}

TEST_CASE("each trace keeps its device when later reads meet the devices in another order",
          "[reader]")
{
    // Each read numbers the devices it meets in its own order, and joining it maps them to the
    // index's numbers: here the second read meets the GPU first, the CPU the index met first.
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "x"));
    set.append("graphs", ev::op("g", "Relu", "r", {}, {1}));
    const std::vector<std::string> names = {"/device:CPU:0", "/device:GPU:0", ""};
    auto deviceOf = [&](int i) {
        return i < 40 ? names[0] : names[(i / 3) % 3 == 0 ? 1 : i % 3];
    };
    for (int i = 0; i < 200; ++i) {
        auto event = ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false));
        event.mutable_graph_execution_trace()->set_device_name(deviceOf(i));
        set.append("graph_execution_traces", event);
    }
    LogdirReader reader(dir.path());
    auto s = reader.update({.maxTraceBytes = 40 * 60});
    while (!s->complete())
        s = reader.update({.maxTraceBytes = 1000});
    REQUIRE(s->traceCount() == 200);
    for (std::uint64_t i = 0; i < 200; ++i)
        CHECK(s->traceDevices().at(s->traceDevice(i)) == deviceOf(static_cast<int>(i)));
}

// TensorFlow's reader takes graphs, executions, frames and source files from the first host
// only, and traces from every host: the recorder's multi-host layout (README) must read back
// whole, with every worker trace naming an op the first host declared.
TEST_CASE("two recorders of one run write TensorFlow's multi-host layout", "[reader][multihost]")
{
    test::TempDir dir;
    auto open = [&](const char* host) {
        auto r = Recorder::open({.dumpRoot = dir.path(),
                                 .mode = TensorDebugMode::ConciseHealth,
                                 .circularBufferSize = -1,
                                 .runId = "two-hosts",
                                 .hostName = host,
                                 .closeAtExit = false});
        REQUIRE(r.ok());
        return std::move(*r);
    };
    auto main = open("host-a");
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a later metadata record
    auto worker = open("host-b");
    auto graph = main->declareGraph("step");
    REQUIRE(graph.ok());
    auto x = main->declareOp({.graph = *graph, .type = "Placeholder", .name = "x"});
    auto log = main->declareOp({.graph = *graph, .type = "Log", .name = "Log", .inputs = {"x"}});
    REQUIRE(log.ok());
    const std::int64_t shape[1] = {2};
    const float good[2] = {1.0f, 2.0f};
    const float bad[2] = {-INFINITY, 2.0f};
    REQUIRE(main->recordTrace(*log, 0, {.data = good, .shape = shape}).ok());
    REQUIRE(worker->recordTrace(*log, 0, {.data = bad, .shape = shape}).ok());
    REQUIRE(worker->close().ok());
    REQUIRE(main->close().ok());

    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->diagnostics().empty());
    REQUIRE(s->layout().fileSets.size() == 2);
    CHECK(s->layout().fileSets[0].hostName == "host-a");
    REQUIRE(s->traceCount() == 2);
    CHECK(s->trace(1).fileIndex == 1);
    CHECK(traceOp(*s, 1).name == "Log");
    CHECK(traceOp(*s, 1).declared);
    REQUIRE(s->alertCount() == 1);
    CHECK(s->alert(0).event.index == 1);
    // A filter by host: the traces of one file set.
    CHECK(matchingRows(*s, TraceMatcher(*s, {.host = 1u}), 0, 2) == std::vector<int>{1});
    CHECK(matchingRows(*s, TraceMatcher(*s, {.host = 0u}), 0, 2) == std::vector<int>{0});
    CHECK(matchingRows(*s, TraceMatcher(*s, {.nonFiniteOnly = true, .host = 0u}), 0, 2).empty());
}
