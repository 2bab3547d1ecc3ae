// SPDX-License-Identifier: GPL-3.0-or-later
// Alerts, TensorBoard's first alert, and the origin (producer, propagators, hint).
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tutoriallogdir.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
using test::TutorialLogdir;
namespace ev = test::events;

TEST_CASE("the tutorial's bug: the first alert and the origin are the Log", "[origin]")
{
    test::TempDir dir;
    const int logLine = TutorialLogdir::write(dir.path());
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->traceCount() == 2 * TutorialLogdir::kTracesPerStep);
    REQUIRE(s->executionCount() == 2);
    CHECK(s->layout().runId == "tutorial1");
    CHECK(s->layout().fileSets[0].hostName == "trainer");

    const auto first = s->tensorBoardFirstAlert();
    REQUIRE(first);
    CHECK(first->event == EventRef{EventSource::Graph, TutorialLogdir::kLogTrace});
    CHECK(first->counts == Alert::Counts::Float);
    CHECK(first->size == 12);
    CHECK(first->negativeInfinity == 1);
    CHECK(first->nan == 0);
    // Log, Mul, Mean in the graph, then the eager call's NaN loss.
    CHECK(s->alertCount() == 4);
    CHECK(s->alert(3).event == EventRef{EventSource::Eager, 1});

    const auto& origin = s->origin();
    REQUIRE(origin);
    CHECK(origin->event == EventRef{EventSource::Graph, TutorialLogdir::kLogTrace});
    CHECK(origin->opType == "Log");
    CHECK(origin->opName == "Log");
    CHECK(origin->graphName == "loss");
    CHECK(origin->health.negativeInfinity == 1);
    REQUIRE(origin->inputs.size() == 1);
    const OriginInput& probs = origin->inputs[0];
    CHECK(probs.name == "probs:0");
    REQUIRE(probs.event);
    CHECK(probs.event->index == TutorialLogdir::kProbsTrace);
    CHECK(probs.health.zero == 1);
    CHECK_FALSE(probs.health.nonFinite);
    CHECK(probs.healthText == "12 elements: 1 zero, 11 positive");
    CHECK(origin->hint.rule == "log-of-zero");
    CHECK_THAT(origin->hint.cause, Catch::Contains("log of zero"));
    CHECK_THAT(origin->hint.fix, Catch::Contains("clip"));

    const auto frames = s->resolveStack(origin->stackFrameIds);
    REQUIRE_FALSE(frames.empty());
    CHECK(frames.back().line == logLine);
    CHECK_THAT(frames.back().filePath, Catch::EndsWith("tutoriallogdir.cpp"));

    const Propagation& p = s->propagation();
    CHECK(p.hops({EventSource::Graph, TutorialLogdir::kLogTrace}) == 0);
    CHECK(p.hops({EventSource::Graph, TutorialLogdir::kMulTrace}) == 1);
    CHECK(p.hops({EventSource::Graph, TutorialLogdir::kMeanTrace}) == 2);
    CHECK_FALSE(p.hops({EventSource::Graph, TutorialLogdir::kProbsTrace}));
    // The function call's NaN output comes from its graph's traces: a propagator, not a producer.
    CHECK(p.hops({EventSource::Eager, 1}) == 3);
    CHECK(p.producers == 1);
    CHECK(p.entries == 0);
    CHECK(p.propagators == 3);
}

TEST_CASE("eager executions: inputs by tensor id", "[origin]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    const int full = 4;
    set.append("execution", ev::execution(1.0, "Sub", {1}, {2}, full,
                                          {ev::fullHealth(-1, 3, 0, 0, 0, 0, 1, 2)}));
    set.append("execution", ev::execution(2.0, "RealDiv", {1, 2}, {3}, full,
                                          {ev::fullHealth(-1, 3, 0, 1, 0, 0, 0, 2)}));
    set.append("execution", ev::execution(3.0, "Relu", {1}, {4}, full,
                                          {ev::fullHealth(-1, 3, 0, 0, 0, 0, 0, 3)}));
    set.append("execution", ev::execution(4.0, "AddV2", {3, 4}, {5}, full,
                                          {ev::fullHealth(-1, 3, 0, 1, 0, 0, 0, 2)}));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    const auto& origin = s->origin();
    REQUIRE(origin);
    CHECK(origin->event == EventRef{EventSource::Eager, 1});
    CHECK(origin->opType == "RealDiv");
    REQUIRE(origin->inputs.size() == 2);
    CHECK(origin->inputs[0].name == "tensor 1");
    CHECK_FALSE(origin->inputs[0].event); // made before recording started
    CHECK_THAT(origin->inputs[0].healthText, Catch::StartsWith("unknown"));
    REQUIRE(origin->inputs[1].event);
    CHECK(origin->inputs[1].event->index == 0);
    CHECK(origin->inputs[1].healthText == "3 elements: 1 zero, 2 positive");
    CHECK(origin->hint.rule == "division-by-zero");
    CHECK(s->propagation().hops({EventSource::Eager, 3}) == 1);
    CHECK_FALSE(s->propagation().hops({EventSource::Eager, 2}));
}

TEST_CASE("a NaN an all-reduce brought in is blamed on the other ranks, however it was recorded",
          "[origin][multihost]")
{
    // The all-reduce's output is summarised when the op returns; whether the other ranks' values
    // have arrived by then is a race. Either the all-reduce or its first reader shows the NaN.
    const int full = 4;
    const auto finite = ev::fullHealth(-1, 4, 0, 0, 0, 0, 0, 4);
    const auto nan = ev::fullHealth(-1, 4, 0, 0, 4, 0, 0, 0);
    for (const bool arrivedBeforeRecord : {true, false}) {
        test::TempDir dir;
        FileSetWriter set = test::emptyRun(dir.path());
        set.append("execution", ev::execution(1.0, "aten::mul", {1}, {2}, full, {finite}));
        set.append("execution", ev::execution(2.0, "c10d::allreduce_", {2}, {2}, full,
                                              {arrivedBeforeRecord ? nan : finite}));
        set.append("execution", ev::execution(3.0, "aten::div", {2}, {3}, full, {nan}));
        const auto s = LogdirReader(dir.path()).update();
        const auto& origin = s->origin();
        REQUIRE(origin);
        CHECK(origin->opType == (arrivedBeforeRecord ? "c10d::allreduce_" : "aten::div"));
        CHECK(origin->hint.rule == "collective-input");
        CHECK_THAT(origin->hint.cause,
                   Catch::Contains("c10d::allreduce_") && Catch::Contains("made on another rank"));
    }
}

TEST_CASE("inputs are followed through uninstrumented Identity ops", "[origin]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "f"));
    set.append("graphs", ev::op("g", "Placeholder", "p", {}, {1}));
    set.append("graphs", ev::op("g", "Identity", "id", {"p:0"}, {2}));
    set.append("graphs", ev::op("g", "Sqrt", "s", {"id"}, {3}));
    set.append("graphs", ev::op("g", "Exp", "e", {"s:0"}, {4}));
    const int full = 4;
    set.append("graph_execution_traces",
               ev::trace(1.0, "g", "p", 0, full, ev::fullHealth(1, 5, 0, 0, 0, 2, 0, 3)));
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "s", 0, full, ev::fullHealth(3, 5, 0, 0, 2, 0, 0, 3)));
    set.append("graph_execution_traces",
               ev::trace(3.0, "g", "e", 0, full, ev::fullHealth(4, 5, 0, 0, 2, 0, 0, 3)));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    const auto& origin = s->origin();
    REQUIRE(origin);
    CHECK(origin->opType == "Sqrt");
    REQUIRE(origin->inputs.size() == 1);
    REQUIRE(origin->inputs[0].event);
    CHECK(origin->inputs[0].event->index == 0);
    CHECK(origin->hint.rule == "sqrt-of-negative");
    CHECK(s->propagation().hops({EventSource::Graph, 2}) == 1);
}

TEST_CASE("no non-finite value: no alert, no origin", "[origin]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("graph_execution_traces", ev::trace(1.0, "g", "r", 0, 1, ev::noTensor()));
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "r", 0, 5, ev::summary({1, 1, 1, 4, 4, 0, 0, 0, 0, 0})));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    CHECK(s->traceCount() == 2);
    CHECK_FALSE(s->trace(0).health.known());
    CHECK(s->alertCount() == 0);
    CHECK_FALSE(s->tensorBoardFirstAlert());
    CHECK_FALSE(s->origin());
    CHECK(s->propagation().producers == 0);
}

TEST_CASE("alert order: graph traces first, as TensorBoard records them", "[alerts]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "f"));
    set.append("graphs", ev::op("g", "Exp", "e", {}, {1}));
    const int concise = 3;
    // The execution's alert is earlier in time, but TensorBoard lists graph alerts first.
    set.append("execution", ev::execution(1.0, "Log", {}, {7}, concise,
                                          {ev::conciseHealth(-1, 2, 1, 0, 0),
                                           ev::conciseHealth(-1, 2, 0, 0, 2)}));
    set.append("graph_execution_traces",
               ev::trace(5.0, "g", "e", 0, concise, ev::conciseHealth(1, 4, 0, 3, 0)));
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->alertCount() == 3);
    CHECK(s->alert(0).event == EventRef{EventSource::Graph, 0});
    CHECK(s->alert(1).event == EventRef{EventSource::Eager, 0});
    CHECK(s->alert(1).outputSlot == 0);
    CHECK(s->alert(2).outputSlot == 1);
    CHECK(s->tensorBoardFirstAlert()->event == EventRef{EventSource::Graph, 0});
    const auto& byTime = s->alertsByWallTime();
    REQUIRE(byTime.size() == 3);
    CHECK(byTime[0] == 1);
    CHECK(byTime[1] == 2);
    CHECK(byTime[2] == 0);
    // NaNscope's origin is in execution order: the eager Log ran first.
    REQUIRE(s->origin());
    CHECK(s->origin()->event == EventRef{EventSource::Eager, 0});
}

TEST_CASE("TensorBoard's 1000-alert cap is emulated; NaNscope's list has no cap", "[alerts]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "f"));
    set.append("graphs", ev::op("g", "Exp", "e", {}, {1}));
    const int curt = 2;
    SECTION("more than 1000 trace alerts")
    {
        for (int i = 0; i < 1200; ++i)
            set.append("graph_execution_traces",
                       ev::trace(i, "g", "e", 0, curt, ev::curtHealth(1, true)));
        set.append("execution",
                   ev::execution(5000, "Exp", {}, {1}, curt, {ev::curtHealth(-1, true)}));
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(s->alertCount() == 1201);
        CHECK(s->tensorBoardAlertCount() == 1000);
        CHECK(s->alert(0).counts == Alert::Counts::None);
    }
    SECTION("the limit is checked before each event, so one execution can pass it")
    {
        for (int i = 0; i < 999; ++i)
            set.append("graph_execution_traces",
                       ev::trace(i, "g", "e", 0, curt, ev::curtHealth(1, true)));
        std::vector<tfdbg::TensorProto> three(3, ev::curtHealth(-1, true));
        set.append("execution", ev::execution(5000, "Split", {}, {1, 2, 3}, curt, three));
        set.append("execution",
                   ev::execution(5001, "Exp", {}, {4}, curt, {ev::curtHealth(-1, true)}));
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(s->alertCount() == 1003);
        CHECK(s->tensorBoardAlertCount() == 1002);
    }
}
