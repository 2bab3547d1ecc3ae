// SPDX-License-Identifier: GPL-3.0-or-later
// Trace filters and the scans over the digests that answer them: rows that match, and find
// next/previous with wrap-around.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

constexpr int kCurtHealth = 2;
constexpr int kFullHealth = 4;

tfdbg::TensorProto finite()
{
    return ev::fullHealth(-1, 4, 0, 0, 0, 0, 1, 3);
}

tfdbg::TensorProto withNaN()
{
    return ev::fullHealth(-1, 4, 0, 0, 1, 0, 1, 2);
}

// Graph "loss" (g): x, LogSoftmax "probs" (x), Log (probs), Mul (Log, x). Graph "train" (h):
// Relu "Act". Traces 0..5: x, probs, Log (NaN), Mul (NaN), Act, x.
std::shared_ptr<const Snapshot> queryLogdir(const test::TempDir& dir)
{
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "loss"));
    set.append("graphs", ev::op("g", "Placeholder", "x", {}, {1}));
    set.append("graphs", ev::op("g", "LogSoftmax", "probs", {"x:0"}, {2}));
    set.append("graphs", ev::op("g", "Log", "Log", {"probs:0"}, {3}));
    set.append("graphs", ev::op("g", "Mul", "Mul", {"Log:0", "x:0"}, {4}));
    set.append("graphs", ev::graph("h", "train"));
    set.append("graphs", ev::op("h", "Relu", "Act", {}, {5}));
    const auto trace = [&](const char* graph, const char* op, const tfdbg::TensorProto& tensor) {
        set.append("graph_execution_traces", ev::trace(10.0, graph, op, 0, kFullHealth, tensor));
    };
    trace("g", "x", finite());
    trace("g", "probs", finite());
    trace("g", "Log", withNaN());
    trace("g", "Mul", withNaN());
    trace("h", "Act", finite());
    trace("g", "x", finite());
    LogdirReader reader(dir.path());
    auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == 6);
    return snapshot;
}

std::vector<int> rows(const Snapshot& s, const TraceFilter& filter)
{
    return matchingRows(s, TraceMatcher(s, filter), 0, s.traceCount());
}

} // namespace

TEST_CASE("a filter is active when any criterion is set", "[tracequery]")
{
    CHECK_FALSE(TraceFilter{}.active());
    CHECK(TraceFilter{.nonFiniteOnly = true}.active());
    CHECK(TraceFilter{.graph = GraphIndex{0}}.active());
    CHECK(TraceFilter{.opType = "Log"}.active());
    CHECK(TraceFilter{.text = "lo"}.active());

    CHECK(TraceFilter{} == TraceFilter{});
    CHECK(TraceFilter{.opType = "Log"} == TraceFilter{.opType = "Log"});
    CHECK_FALSE(TraceFilter{.opType = "Log"} == TraceFilter{.opType = "Mul"});
    CHECK_FALSE(TraceFilter{.graph = GraphIndex{0}} == TraceFilter{.graph = GraphIndex{1}});
    CHECK_FALSE(TraceFilter{.text = "a"} == TraceFilter{.text = "b"});
    CHECK_FALSE(TraceFilter{} == TraceFilter{.nonFiniteOnly = true});
}

TEST_CASE("the matcher: health, graph, exact type and a piece of name or type", "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const GraphIndex loss = *s->graphs().findGraph("g");
    const GraphIndex train = *s->graphs().findGraph("h");

    CHECK(rows(*s, {}) == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(rows(*s, {.nonFiniteOnly = true}) == std::vector<int>{2, 3});
    CHECK(rows(*s, {.graph = loss}) == std::vector<int>{0, 1, 2, 3, 5});
    CHECK(rows(*s, {.graph = train}) == std::vector<int>{4});
    // The type is matched exactly: "Log" is not "LogSoftmax".
    CHECK(rows(*s, {.opType = "Log"}) == std::vector<int>{2});
    CHECK(rows(*s, {.opType = "Lo"}).empty());
    // The text is a case-insensitive piece of the name or of the type.
    CHECK(rows(*s, {.text = "LOG"}) == std::vector<int>{1, 2});
    CHECK(rows(*s, {.text = "softmax"}) == std::vector<int>{1}); // the type of "probs"
    CHECK(rows(*s, {.text = "act"}) == std::vector<int>{4});     // the name of the Relu
    CHECK(rows(*s, {.text = "ACT"}) == std::vector<int>{4});
    CHECK(rows(*s, {.text = "RELU"}) == std::vector<int>{4});
    CHECK(rows(*s, {.text = "nothing"}).empty());
    // Criteria combine.
    CHECK(rows(*s, {.nonFiniteOnly = true, .text = "log"}) == std::vector<int>{2});
    CHECK(rows(*s, {.graph = train, .text = "log"}).empty());
    CHECK(rows(*s, {.nonFiniteOnly = true, .graph = loss, .opType = "Mul"}) == std::vector<int>{3});

    SECTION("digests whose op is unknown pass only when no op criterion is set")
    {
        TraceDigest orphan;
        orphan.op = kNoOp;
        CHECK(TraceMatcher(*s, {}).matches(orphan));
        CHECK_FALSE(TraceMatcher(*s, {.text = "x"}).matches(orphan));
        orphan.op = static_cast<OpId>(s->graphs().ops().size());
        CHECK_FALSE(TraceMatcher(*s, {.graph = loss}).matches(orphan));
        orphan.health.bits = health::Known | health::NonFinite;
        CHECK(TraceMatcher(*s, {.nonFiniteOnly = true}).matches(orphan));
        orphan.health.bits = health::Known;
        CHECK_FALSE(TraceMatcher(*s, {.nonFiniteOnly = true}).matches(orphan));
    }
}

TEST_CASE("matching rows: a range of traces, clamped, and a stop request", "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const TraceMatcher all(*s, {});
    const TraceMatcher loss(*s, {.graph = *s->graphs().findGraph("g")});

    CHECK(matchingRows(*s, loss, 1, 5) == std::vector<int>{1, 2, 3});
    CHECK(matchingRows(*s, loss, 4, 1000) == std::vector<int>{5}); // the end is clamped
    CHECK(matchingRows(*s, all, 3, 3).empty());
    CHECK(matchingRows(*s, all, 7, 9).empty());

    std::atomic_bool stop = false;
    CHECK(matchingRows(*s, all, 0, 6, &stop).size() == 6);
    stop = true;
    CHECK(matchingRows(*s, all, 0, 6, &stop).empty());
}

TEST_CASE("find: the next or previous match, wrapping around, the start tried last", "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const TraceMatcher nonFinite(*s, {.nonFiniteOnly = true});
    const TraceMatcher placeholder(*s, {.opType = "Placeholder"}); // traces 0 and 5
    const TraceMatcher relu(*s, {.opType = "Relu"});
    const TraceMatcher none(*s, {.opType = "Conv2D"});

    CHECK(findTrace(*s, nonFinite, 0, false) == 2u);
    CHECK(findTrace(*s, nonFinite, 2, false) == 3u);
    CHECK(findTrace(*s, nonFinite, 3, false) == 2u); // wraps past the end
    CHECK(findTrace(*s, nonFinite, 3, true) == 2u);
    CHECK(findTrace(*s, nonFinite, 2, true) == 3u); // wraps past the start
    CHECK(findTrace(*s, placeholder, 5, false) == 0u);
    CHECK(findTrace(*s, placeholder, 0, true) == 5u);
    // Without a start: forward from the first trace, backward from the last.
    CHECK(findTrace(*s, placeholder, std::nullopt, false) == 0u);
    CHECK(findTrace(*s, placeholder, std::nullopt, true) == 5u);
    CHECK(findTrace(*s, nonFinite, std::nullopt, true) == 3u);
    // A start past the end counts as the last trace.
    CHECK(findTrace(*s, nonFinite, 100, false) == 2u);

    // "n of m": where a match stands among all of them.
    CHECK(matchPosition(*s, placeholder, 0).ordinal == 1);
    CHECK(matchPosition(*s, placeholder, 5).ordinal == 2);
    CHECK(matchPosition(*s, placeholder, 5).total == 2);
    CHECK(matchPosition(*s, nonFinite, 3).ordinal == 2);
    CHECK(matchPosition(*s, placeholder, 2).ordinal == 0); // not a match
    CHECK(matchPosition(*s, none, 0).total == 0);
    std::atomic_bool stop{true};
    CHECK(matchPosition(*s, placeholder, 5, &stop).total == 0);
    CHECK(findTrace(*s, placeholder, 100, false) == 0u);
    // The start itself is the last candidate.
    CHECK(findTrace(*s, relu, 4, false) == 4u);
    CHECK(findTrace(*s, relu, 4, true) == 4u);
    CHECK_FALSE(findTrace(*s, none, 0, false));
    CHECK_FALSE(findTrace(*s, none, std::nullopt, true));
}

TEST_CASE("find in a graph: its ops by a piece of name or type, in the graph's order",
          "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const GraphTable& graphs = s->graphs();
    const GraphIndex loss = *graphs.findGraph("g");
    const auto names = [&](const std::vector<OpId>& ops) {
        std::vector<std::string> out;
        for (const OpId op : ops)
            out.push_back(graphs.op(op).name);
        return out;
    };
    // "log" is in LogSoftmax (a type) and Log (a name); the other graph's ops are not searched.
    const std::vector<OpId> log = findOpsInGraph(graphs, loss, "LOG");
    CHECK(names(log) == std::vector<std::string>{"probs", "Log"});
    CHECK(names(findOpsInGraph(graphs, loss, "mul")) == std::vector<std::string>{"Mul"});
    CHECK(findOpsInGraph(graphs, loss, "relu").empty());
    CHECK(findOpsInGraph(graphs, loss, "").empty());
    CHECK(findOpsInGraph(graphs, kNoGraph, "x").empty());
    // The same knowledge as the trace filter's text.
    CHECK(rows(*s, {.text = "LOG"}) == std::vector<int>{1, 2});
    // "n of m" among the ops found.
    CHECK(opMatchPosition(log, log[1]).ordinal == 2);
    CHECK(opMatchPosition(log, log[1]).total == 2);
    CHECK(opMatchPosition(log, graphs.findOp(loss, "x")).ordinal == 0);
}

TEST_CASE("find: an empty logdir has nothing; a long scan stops when asked", "[tracequery]")
{
    test::TempDir empty;
    test::emptyRun(empty.path());
    LogdirReader emptyReader(empty.path());
    const auto nothing = emptyReader.update();
    REQUIRE(nothing->traceCount() == 0);
    CHECK_FALSE(findTrace(*nothing, TraceMatcher(*nothing, {}), std::nullopt, false));
    CHECK(matchingRows(*nothing, TraceMatcher(*nothing, {}), 0, 10).empty());

    // The stop flag is looked at every 65536 steps: the only match lies beyond the first look.
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    constexpr int kTraces = 70000;
    const std::string fine =
        test::framed(ev::trace(1.0, "g", "r", 0, kCurtHealth, ev::curtHealth(-1, false)));
    std::string bytes;
    bytes.reserve(fine.size() * kTraces);
    for (int i = 0; i + 1 < kTraces; ++i)
        bytes += fine;
    bytes += test::framed(ev::trace(1.0, "g", "r", 0, kCurtHealth, ev::curtHealth(-1, true)));
    set.appendBytes("graph_execution_traces", bytes);
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->traceCount() == kTraces);
    const TraceMatcher nonFinite(*s, {.nonFiniteOnly = true});
    std::atomic_bool stop = false;
    CHECK(findTrace(*s, nonFinite, 0, false, &stop) == std::uint64_t{kTraces - 1});
    CHECK(matchingRows(*s, nonFinite, 1, kTraces, &stop) == std::vector<int>{kTraces - 1});
    stop = true;
    CHECK_FALSE(findTrace(*s, nonFinite, 0, false, &stop));
    CHECK(matchingRows(*s, nonFinite, 1, kTraces, &stop).empty());
}

TEST_CASE("a function call's traces: its graph and the graphs in it, since its previous call",
          "[tracequery]")
{
    test::TempDir dir;
    {
        auto recorder = Recorder::open({.dumpRoot = dir.path(),
                                        .mode = TensorDebugMode::ConciseHealth,
                                        .circularBufferSize = -1,
                                        .closeAtExit = false});
        REQUIRE(recorder.ok());
        auto& r = **recorder;
        auto outer = r.declareGraph("train_step");
        auto inner = r.declareGraph("while_body", &*outer);
        auto other = r.declareGraph("eval");
        auto a = r.declareOp({.graph = *outer, .type = "Placeholder", .name = "a"});
        auto b = r.declareOp({.graph = *inner, .type = "Exp", .name = "b"});
        auto c = r.declareOp({.graph = *other, .type = "Placeholder", .name = "c"});
        REQUIRE((a.ok() && b.ok() && c.ok()));
        const std::int64_t shape[1] = {1};
        const float one[1] = {1.0F};
        const TensorView tensor{.data = one, .shape = shape};
        // TensorFlow's order: a call's traces, then the call's Execution. The pauses keep the
        // wall times apart, as a real call's run does.
        const auto pause = [] {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        };
        for (int step = 0; step < 2; ++step) {
            pause();
            REQUIRE(r.recordTrace(*a, 0, tensor).ok()); // traces 0, 3
            REQUIRE(r.recordTrace(*b, 0, tensor).ok()); // traces 1, 4
            REQUIRE(r.recordTrace(*c, 0, tensor).ok()); // traces 2, 5: another graph's
            pause();
            REQUIRE(r.recordExecution(
                         {.opType = "Cast", .outputIds = {r.newTensorId()}, .outputs = {tensor}})
                        .ok()); // executions 0, 2
            REQUIRE(r.recordExecution({.opType = "__inference_train_step_1",
                                       .graph = &*outer,
                                       .outputIds = {r.newTensorId()},
                                       .outputs = {tensor}})
                        .ok()); // executions 1, 3
        }
        REQUIRE(r.close().ok());
    }
    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->traceCount() == 6);
    REQUIRE(s->executionCount() == 4);
    CHECK(tracesOfCall(*s, 1, 100) == std::vector<std::uint64_t>{0, 1});
    CHECK(tracesOfCall(*s, 3, 100) == std::vector<std::uint64_t>{3, 4});
    CHECK(tracesOfCall(*s, 3, 1) == std::vector<std::uint64_t>{3});
    CHECK(tracesOfCall(*s, 0, 100).empty()); // a plain op calls nothing
    CHECK(tracesOfCall(*s, 99, 100).empty());
    std::atomic_bool stop{true};
    CHECK(tracesOfCall(*s, 3, 100, &stop).empty());
}

TEST_CASE("the matcher reads a trace's fields by index as from its digest", "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const GraphIndex loss = *s->graphs().findGraph("g");
    const std::vector<TraceFilter> filters = {
        {},
        {.nonFiniteOnly = true},
        {.graph = loss},
        {.opType = "Log"},
        {.text = "act"},
        {.nonFiniteOnly = true, .graph = loss, .opType = "Mul"},
        {.host = 0},
        {.host = 1},
        {.device = ""},
        {.device = "/device:GPU:0"},
    };
    for (const auto& filter : filters) {
        const TraceMatcher matcher(*s, filter);
        for (std::uint64_t i = 0; i < s->traceCount(); ++i) {
            CHECK(s->traceOp(i) == s->trace(i).op);
            CHECK(s->traceDevice(i) == s->trace(i).device);
            CHECK(s->traceFileIndex(i) == s->trace(i).fileIndex);
            CHECK(matcher.matches(*s, i) == matcher.matches(s->trace(i)));
        }
    }
}

TEST_CASE("the ops that made a non-finite trace", "[tracequery]")
{
    test::TempDir dir;
    const auto s = queryLogdir(dir);
    const auto made = opsWithNonFiniteTraces(*s);
    REQUIRE(made.size() == s->graphs().ops().size());
    std::vector<std::string> names;
    for (std::size_t op = 0; op < made.size(); ++op)
        if (made[op])
            names.push_back(s->graphs().op(static_cast<OpId>(op)).name);
    CHECK(names == std::vector<std::string>{"Log", "Mul"});
    const std::atomic_bool stop{true};
    CHECK(opsWithNonFiniteTraces(*s, &stop).empty());
}
