// SPDX-License-Identifier: GPL-3.0-or-later
// The ranks of one run: any host can be read as the main one (DiscoveryOptions::mainHost), and
// the report names the origin of every host that made a non-finite value, earliest first, so
// that a NaN made on a rank other than the first is never reported as a clean run.
#include "hostlogdirs.hpp"
#include "nanscope/core/hostorigins.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;

namespace {

std::shared_ptr<const Snapshot> readWithMain(const std::filesystem::path& dir,
                                             const std::string& host)
{
    ReaderOptions options;
    options.discovery.mainHost = host;
    return LogdirReader(dir, options).update();
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("any host can be read as the main one", "[reader][multihost]")
{
    test::TempDir dir;
    REQUIRE(test::writeTwoHostExecutions(dir.path()));
    const auto b = readWithMain(dir.path(), "host-b");
    REQUIRE(b->layout().fileSets.size() == 2);
    CHECK(b->layout().fileSets[0].hostName == "host-b");
    CHECK(b->layout().fileSets[1].hostName == "host-a");
    CHECK(b->executionCount() == 3);      // Sqrt, Div, Add
    CHECK(b->hostExecutionCount(1) == 2); // host-a's Exp and Log, read apart
    REQUIRE(b->origin());
    CHECK(b->origin()->opType == "Div");

    const auto unknown = readWithMain(dir.path(), "host-z");
    CHECK(unknown->layout().fileSets[0].hostName == "host-a");
    const auto& d = unknown->diagnostics();
    CHECK(std::any_of(d.begin(), d.end(), [](const Diagnostic& x) {
        return x.severity == Severity::Warning && contains(x.message, "no file set of host");
    }));
}

TEST_CASE("the report lists every other host's origin, earliest first", "[report][multihost]")
{
    test::TempDir dir;
    REQUIRE(test::writeTwoHostExecutions(dir.path()));
    ReaderOptions options;
    auto report = buildReport(*LogdirReader(dir.path(), options).update());
    CHECK(report.hostOrigins.empty());
    CHECK_FALSE(report.hostOriginsRead);
    addHostOrigins(report, dir.path(), options);
    REQUIRE(report.origin);
    CHECK(report.origin->origin.opType == "Log");
    REQUIRE(report.hostOrigins.size() == 1);
    CHECK(report.hostOrigins[0].host == "host-b");
    CHECK(report.hostOrigins[0].origin.origin.opType == "Div");
    CHECK(report.hostOrigins[0].countedAlerts == 1);
    // Log ran before Div: the main host's origin is the run's earliest.
    CHECK(report.origin->origin.wallTime <= report.hostOrigins[0].origin.origin.wallTime);
    const std::string text = renderText(report);
    CHECK(contains(text, "host-b  ("));
    CHECK(contains(text, "; its origin is below)"));
    CHECK(contains(text, "Other hosts' origins"));
    CHECK(contains(text, "nanscope-report --host host-b"));
    CHECK_FALSE(contains(text, "The earliest origin of the run is"));
}

TEST_CASE("a NaN made on the second rank alone is reported, with that rank named",
          "[report][multihost]")
{
    test::TempDir dir;
    REQUIRE(test::writeNaNOnSecondRank(dir.path()));
    const auto run = test::runReport(test::shellQuoted(dir.path()) + " --no-index-cache");
    INFO(run.output);
    CHECK(run.status == 1); // alerts that count, on another rank
    CHECK(contains(run.output, "(on the main host, node-rank0; other hosts made"));
    CHECK(contains(run.output, "node-rank1: execution #1: aten::div"));
    CHECK(contains(run.output, "The earliest origin of the run is node-rank1's."));

    const auto json = test::runReport(test::shellQuoted(dir.path()) + " --json --no-index-cache");
    CHECK(json.status == 1);
    CHECK(contains(json.output, "\"earliest_origin_host\": \"node-rank1\""));
    CHECK(contains(json.output, "\"host\": \"node-rank1\""));

    const auto asked =
        test::runReport(test::shellQuoted(dir.path()) + " --host node-rank1 --no-index-cache");
    CHECK(asked.status == 1);
    CHECK(contains(asked.output, "Origin: the first non-finite value in execution order"));
    CHECK(contains(asked.output, "aten::div"));
    CHECK_FALSE(contains(asked.output, "Other hosts' origins")); // rank0 made none
}
