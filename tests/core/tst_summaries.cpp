// SPDX-License-Identifier: GPL-3.0-or-later
// Summary vectors are checked before they are shown: the right length for their mode, counts
// that are counts, counts that add up. What fails is an invalid summary, with the reason, in the
// health text, the alert, the report and a diagnostic — never "-5 elements" or "3 elements:
// 1000 -inf".
#include "healthrules.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");
constexpr double kPast53 = 9007199254740993.0; // 2^53 + 1, which a double rounds to 2^53

std::string problem(DebugMode mode, const std::vector<double>& v)
{
    return summaryProblem(mode, v, v.size());
}

} // namespace

TEST_CASE("summary vectors TensorFlow writes are valid", "[summaries]")
{
    CHECK(problem(DebugMode::CurtHealth, {3, 0}).empty());
    CHECK(problem(DebugMode::CurtHealth, {3, 1}).empty());
    CHECK(problem(DebugMode::ConciseHealth, {3, 10, 1, 2, 3}).empty());
    CHECK(problem(DebugMode::FullHealth, {3, -1, 1, 2, 10, 1, 2, 3, 1, 1, 2}).empty());
    CHECK(problem(DebugMode::FullHealth, {3, -1, 1, 0, 0, 0, 0, 0, 0, 0, 0}).empty()); // empty
    CHECK(problem(DebugMode::Shape, {3, 1, 2, 6, 2, 3, 0, 0, 0, 0}).empty());
    CHECK(problem(DebugMode::FullTensor, {kNaN, -1}).empty()); // values, not a summary
}

TEST_CASE("a count that is -1, NaN, ±inf, 1e308 or 2^53 + 1 makes a summary invalid", "[summaries]")
{
    for (const double bad : {-1.0, kNaN, kInf, -kInf, 1e308, kPast53, 2.5}) {
        INFO("value " << bad);
        // In each count slot of each mode.
        for (std::size_t slot = 1; slot < 5; ++slot) {
            std::vector<double> concise = {3, 1e6, 0, 0, 0};
            concise[slot] = bad;
            CHECK_THAT(problem(DebugMode::ConciseHealth, concise),
                       Catch::Contains("is not a count"));
        }
        for (std::size_t slot = 3; slot < 11; ++slot) {
            std::vector<double> full = {3, -1, 1, 1, 1e6, 0, 0, 0, 0, 0, 1e6};
            full[slot] = bad;
            CHECK_THAT(problem(DebugMode::FullHealth, full), Catch::Contains("is not a count"));
        }
        for (std::size_t slot = 2; slot < 10; ++slot) {
            std::vector<double> shape = {3, 1, 1, 4, 4, 0, 0, 0, 0, 0};
            shape[slot] = bad;
            CHECK_THAT(problem(DebugMode::Shape, shape), Catch::Contains("is not a count"));
        }
        CHECK_THAT(problem(DebugMode::CurtHealth, {3, bad}), Catch::Contains("non-finite flag"));
        CHECK_FALSE(countsProblem(bad, 0, 0, 0).empty());
    }
    CHECK(problem(DebugMode::ConciseHealth, {3, -5, 0, 0, 1}) ==
          "the element count -5 is not a count (negative)");
}

TEST_CASE("counts that do not add up, and lengths that do not fit the mode", "[summaries]")
{
    CHECK(problem(DebugMode::ConciseHealth, {3, 3, 1000, 0, 0}) ==
          "its -inf, +inf and NaN counts add up to 1000, more than its 3 elements");
    CHECK(problem(DebugMode::FullHealth, {3, -1, 1, 1, 3, 1000, 0, 0, 0, 0, 0}) ==
          "its six counts add up to 1000, not to its 3 elements");
    CHECK(problem(DebugMode::FullHealth, {3, -1, 1, 1, 10, 0, 0, 0, 0, 0, 3}) ==
          "its six counts add up to 3, not to its 10 elements");
    CHECK(problem(DebugMode::ConciseHealth, {3, 10, 0, 0, 0, 7}) ==
          "6 values where CONCISE_HEALTH has 5");
    CHECK(problem(DebugMode::CurtHealth, {3}) == "1 value where CURT_HEALTH has 2");
    // The length counts even when only a prefix of the values was read.
    CHECK(summaryProblem(DebugMode::FullHealth, std::vector<double>(16, 0.0), 1'000'000) ==
          "1000000 values where FULL_HEALTH has 11");
}

TEST_CASE("invalid summaries in a logdir: health text, alert, report, diagnostics", "[summaries]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    // "-5 elements" (CONCISE_HEALTH), then "3 elements: 1000 -inf" (FULL_HEALTH).
    set.append("graph_execution_traces",
               ev::trace(1.0, "g", "r", 0, 3, ev::summary({1, -5, 0, 0, 1})));
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "r", 0, 4, ev::fullHealth(1, 3, 1000, 0, 0, 0, 0, 0)));
    set.append("execution",
               ev::execution(3.0, "Relu", {1}, {2}, 3, {ev::conciseHealth(-1, 3, 1000, 0, 0)}));

    LogdirReader reader(dir.path());
    const auto s = reader.update();
    REQUIRE(s->traceCount() == 2);
    const auto first = s->readTrace(0);
    REQUIRE(first);
    CHECK(first->health.describe() ==
          "invalid summary: the element count -5 is not a count (negative)");
    const auto second = s->readTrace(1);
    REQUIRE(second);
    CHECK(second->health.describe() ==
          "invalid summary: its six counts add up to 1000, not to its 3 elements");
    const auto execution = s->readExecution(0);
    REQUIRE(execution);
    REQUIRE(execution->outputHealth.size() == 1);
    CHECK_THAT(execution->outputHealth[0].describe(), Catch::StartsWith("invalid summary: "));

    // TensorBoard alerts on all three (it looks only at the non-finite counts): the alerts stay,
    // flagged.
    REQUIRE(s->alertCount() == 3);
    for (std::uint64_t i = 0; i < s->alertCount(); ++i)
        CHECK(s->alert(i).invalidSummary);
    std::vector<std::string> reasons;
    for (std::uint64_t i = 0; i < s->alertCount(); ++i)
        reasons.push_back(invalidSummaryReason(s->alert(i)));
    CHECK_THAT(reasons,
               Catch::VectorContains(std::string(
                   "its -inf, +inf and NaN counts add up to 1000, more than its 3 elements")));
    CHECK_THAT(reasons, Catch::VectorContains(
                            std::string("the element count -5 is not a count (negative)")));

    CHECK(test::findDiagnostic(*s, Severity::Warning,
                               "inconsistent summary vector: the element count -5 is not a count"));
    CHECK(test::findDiagnostic(*s, Severity::Warning,
                               "inconsistent summary vector: its six counts add up to 1000"));
    CHECK(test::findDiagnostic(*s, Severity::Warning,
                               "inconsistent summary vector of output 0: its -inf, +inf and NaN"));

    const std::string text = renderText(buildReport(*s));
    CHECK_THAT(text, Catch::Contains("invalid summary"));
    CHECK_THAT(text, !Catch::Contains("-5 elements"));
    CHECK_THAT(text, !Catch::Contains("3 elements: 1000"));
    const auto json = test::runReport("--json " + test::shellQuoted(dir.path()));
    CHECK_THAT(json.output, Catch::Contains("\"invalid_summary\": \""));
}

TEST_CASE("exactCount accepts exact non-negative integers below 2^53 and nothing else", "[health]")
{
    CHECK(exactCount(0.0) == 0u);
    CHECK(exactCount(-0.0) == 0u);
    CHECK(exactCount(1.0) == 1u);
    CHECK(exactCount(9007199254740991.0) == 9007199254740991u);
    CHECK_FALSE(exactCount(9007199254740992.0)); // 2^53: may be 2^53 + 1 rounded
    CHECK_FALSE(exactCount(1e300));
    CHECK_FALSE(exactCount(-1.0));
    CHECK_FALSE(exactCount(0.5));
    CHECK_FALSE(exactCount(4503599627370495.5)); // the last fraction a double can hold
    CHECK_FALSE(exactCount(std::numeric_limits<double>::quiet_NaN()));
    CHECK_FALSE(exactCount(std::numeric_limits<double>::infinity()));
    CHECK_FALSE(exactCount(-std::numeric_limits<double>::infinity()));
}
