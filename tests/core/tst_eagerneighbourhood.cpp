// SPDX-License-Identifier: GPL-3.0-or-later
// An eager execution's producers and consumers through tensor ids, and what a PyTorch
// execution's framework context reads back as.
#include "logdirbuilder.hpp"
#include "nanscope/core/eagerneighbourhood.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

TEST_CASE("an eager neighbourhood follows tensor ids both ways", "[eager]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    const int full = 4;
    const auto h = ev::fullHealth(-1, 3, 0, 0, 0, 0, 0, 3);
    set.append("execution", ev::execution(1.0, "aten::ones", {}, {1}, full, {h}));     // 0
    set.append("execution", ev::execution(2.0, "aten::exp", {1}, {2}, full, {h}));     // 1
    set.append("execution", ev::execution(3.0, "aten::mul", {2, 9}, {3}, full, {h}));  // 2
    set.append("execution", ev::execution(4.0, "aten::add_", {3, 2}, {3}, full, {h})); // 3
    set.append("execution", ev::execution(5.0, "aten::log", {3}, {4}, full, {h}));     // 4
    set.append("execution", ev::execution(6.0, "aten::neg", {2}, {5}, full, {h}));     // 5
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->executionCount() == 6);

    const EagerNeighbourhood mul = eagerNeighbourhood(*s, 2);
    REQUIRE(mul.producers.size() == 2);
    CHECK(mul.producers[0].tensorId == 2);
    CHECK(mul.producers[0].execution == 1u);
    CHECK(mul.producers[1].tensorId == 9);
    CHECK_FALSE(mul.producers[1].execution); // never recorded: a leaf
    // The in-place add reads the product and writes it again: the log reads the new value.
    REQUIRE(mul.consumers.size() == 1);
    CHECK(mul.consumers[0].execution == 3u);

    const EagerNeighbourhood exp = eagerNeighbourhood(*s, 1);
    REQUIRE(exp.consumers.size() == 3);
    CHECK(exp.consumers[0].execution == 2u);
    CHECK(exp.consumers[1].execution == 3u);
    CHECK(exp.consumers[2].execution == 5u);
    CHECK_FALSE(exp.consumersCut);
    const EagerNeighbourhood cut = eagerNeighbourhood(*s, 1, {.maxConsumers = 2});
    CHECK(cut.consumers.size() == 2);
    CHECK(cut.consumersCut);

    const EagerNeighbourhood log = eagerNeighbourhood(*s, 4);
    REQUIRE(log.producers.size() == 1);
    CHECK(log.producers[0].execution == 3u);
    CHECK(log.consumers.empty());
    CHECK(eagerNeighbourhood(*s, 99).producers.empty());
}

TEST_CASE("a PyTorch execution's module and forward op read back", "[eager]")
{
    test::TempDir dir;
    {
        auto rec = Recorder::open({.dumpRoot = dir.path(), .mode = TensorDebugMode::FullHealth});
        REQUIRE(rec.ok());
        const float values[2] = {1.0f, 0.0f};
        const std::int64_t two[1] = {2};
        const std::vector<CodeLocation> forward{{"/home/u/train.py", 12, "<module>"},
                                                {"/home/u/model.py", 30, "MLP.forward"}};
        ExecutionSpec spec{.opType = "aten::threshold_backward",
                           .inputIds = {7},
                           .outputIds = {8},
                           .outputs = {{.data = values, .shape = two}}};
        spec.context = {.modulePath = "MLP.hidden",
                        .forwardOpType = "aten::relu",
                        .forwardModulePath = "MLP.hidden",
                        .forwardStack = forward};
        REQUIRE((*rec)->recordExecution(spec, std::span<const CodeLocation>(forward)).ok());
        REQUIRE((*rec)->close().ok());
    }
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->executionCount() == 1);
    CHECK(s->execution(0).modulePath == "MLP.hidden"); // indexed: the timeline groups by it
    const auto details = s->readExecution(0);
    REQUIRE(details);
    CHECK(details->modulePath == "MLP.hidden");
    CHECK(details->forwardOpType == "aten::relu");
    CHECK(details->forwardModulePath == "MLP.hidden");
    REQUIRE(details->forwardStackFrameIds.size() == 2);
    const auto frames = s->resolveStack(details->forwardStackFrameIds);
    CHECK(frames[1].filePath == "/home/u/model.py");
    CHECK(frames[1].line == 30);
}
