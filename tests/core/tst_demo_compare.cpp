// SPDX-License-Identifier: GPL-3.0-or-later
// Comparing runs of the demo program (core/runcompare.hpp, nanscope-report --compare): the same
// run twice agrees; the tutorial's fix against the bug parts at the Log the bug's origin names,
// although the fix adds clip ops; a smaller learning rate that keeps the log finite parts there
// too; and nanscope-report says so.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/runcompare.hpp"
#include "reportcommand.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

using namespace nanscope;
using namespace nanscope::core;

namespace {

void runDemo(const std::filesystem::path& dir, const std::string& flags)
{
    const std::string command = std::string("'") + NANSCOPE_DEMO_MLP + "' --dump_dir '" +
                                dir.string() + "' --max_steps 4 " + flags + " > /dev/null 2>&1";
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
}

std::shared_ptr<const Snapshot> read(const std::filesystem::path& dir)
{
    return LogdirReader(dir).update();
}

RunComparison compare(const Snapshot& a, const Snapshot& b, const CompareOptions& options = {})
{
    auto result = compareRuns(a, b, options);
    INFO(result.error);
    REQUIRE(result);
    return *result;
}

} // namespace

TEST_CASE("the demo run twice does not diverge, even at threshold 0", "[demo][compare]")
{
    test::TempDir a;
    test::TempDir b;
    runDemo(a.path(), "");
    runDemo(b.path(), "");
    const auto c = compare(*read(a.path()), *read(b.path()), {.threshold = 0.0});
    CHECK(c.first.kind == DivergenceKind::None);
    CHECK(c.traces.countA > 0);
    CHECK(c.traces.aligned == c.traces.countA);
    CHECK(c.executions.aligned == c.executions.countA);
    CHECK(c.traces.onlyInA + c.traces.onlyInB + c.executions.onlyInA + c.executions.onlyInB == 0);
    CHECK(c.traces.healthReads > 0);
}

TEST_CASE("the fixed demo against the buggy one parts at the bug's origin", "[demo][compare]")
{
    test::TempDir fixed;
    test::TempDir buggy;
    runDemo(fixed.path(), "--fix");
    runDemo(buggy.path(), "");
    const auto a = read(fixed.path());
    const auto b = read(buggy.path());
    REQUIRE(b->origin());
    const Origin& origin = *b->origin();
    REQUIRE(origin.opType == "Log");

    const auto c = compare(*a, *b);
    REQUIRE(c.first.kind == DivergenceKind::NonFiniteInB);
    CHECK(c.first.b.event == origin.event);
    CHECK(c.first.b.opType == "Log");
    CHECK(c.first.b.graphName == "loss");
    CHECK(c.first.a.opName == "Log");
    CHECK(c.first.a.graphName == "loss");
    CHECK(c.first.a.step == c.first.b.step);
    CHECK(c.first.b.health.negativeInfinity > 0);
    CHECK_FALSE(c.first.a.health.nonFinite);
    // The fix's clip ops are in A only; the buggy run has nothing of its own.
    CHECK(c.traces.onlyInA > 0);
    CHECK(c.traces.onlyInB == 0);
    CHECK(c.traces.aligned == b->traceCount());
    REQUIRE(c.traces.firstUnmatched);
    CHECK(*c.traces.firstUnmatchedSide == RunSide::A);
    CHECK_THAT(c.traces.firstUnmatched->opName, Catch::StartsWith("clip_by_value"));
    // The loss function's call is where the executions part, after the Log in A's time.
    REQUIRE(c.executions.divergence);
    CHECK_THAT(c.executions.divergence->b.opType, Catch::StartsWith("__inference_loss"));
    CHECK(c.executions.divergence->a.wallTime >= c.first.a.wallTime);

    const auto report =
        test::runReport("--no-index-cache --compare " + test::shellQuoted(fixed.path()) + " " +
                        test::shellQuoted(buggy.path()));
    INFO(report.output);
    CHECK(report.status == 1);
    CHECK_THAT(report.output,
               Catch::StartsWith("Run B diverges from run A at Log / op Log (graph loss), "
                                 "step " +
                                 std::to_string(c.first.b.step) + ": finite in A, "));
    CHECK_THAT(report.output, Catch::Contains(" -inf in B\n"));
}

TEST_CASE("a smaller learning rate that keeps the log finite parts at the same Log",
          "[demo][compare]")
{
    // At the default rate (0.025) the log meets a zero in step 1; at 0.001 it does not in 4
    // steps. Only the rate differs: the ops align one to one.
    test::TempDir slow;
    test::TempDir fast;
    runDemo(slow.path(), "--learning_rate 0.001");
    runDemo(fast.path(), "");
    const auto b = read(fast.path());
    const auto c = compare(*read(slow.path()), *b);
    CHECK(c.traces.onlyInA + c.traces.onlyInB == 0);
    REQUIRE(c.first.kind == DivergenceKind::NonFiniteInB);
    REQUIRE(b->origin());
    CHECK(c.first.b.event == b->origin()->event);

    const auto json =
        test::runReport("--no-index-cache --json --compare " + test::shellQuoted(slow.path()) +
                        " " + test::shellQuoted(fast.path()));
    CHECK(json.status == 1);
    const auto j = nlohmann::json::parse(json.output);
    CHECK(j["divergence"]["b"]["op_type"] == "Log");
    CHECK(j["divergence"]["b"]["index"] == b->origin()->event.index);
}
