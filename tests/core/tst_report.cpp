// SPDX-License-Identifier: GPL-3.0-or-later
// The report's facts, its text, and the nanscope-report command (JSON keys, exit status).
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "tutoriallogdir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::TutorialLogdir;

using test::runReport;
using test::shellQuoted;

TEST_CASE("the report of the tutorial's logdir", "[report]")
{
    test::TempDir dir;
    const int logLine = TutorialLogdir::write(dir.path());
    LogdirReader reader(dir.path());
    const Report r = buildReport(*reader.update());
    CHECK(r.readable);
    CHECK(r.runId == "tutorial1");
    REQUIRE(r.hosts.size() == 1);
    CHECK(r.hosts[0].name == "trainer");
    CHECK_THAT(r.tensorflowVersion, Catch::StartsWith("NaNscope"));
    CHECK(r.tensorDebugModes == std::vector<std::string>{"FULL_HEALTH"});
    CHECK(r.counts.graphExecutionTraces == 18);
    CHECK(r.counts.executions == 2);
    CHECK(r.counts.graphs == 3);
    CHECK(r.counts.graphOps == 9);
    CHECK(r.alertTotal == 4);
    REQUIRE(r.firstAlert);
    CHECK(r.firstAlert->opType == "Log");
    REQUIRE(r.origin);
    const ReportOrigin& o = *r.origin;
    CHECK(o.origin.opName == "Log");
    REQUIRE(o.stack.userFrame);
    CHECK(o.stack.frames[*o.stack.userFrame].frame.line == logLine);
    REQUIRE(o.source);
    CHECK(o.source->focusLine == logLine);
    CHECK(o.source->lines.size() == 7);
    CHECK_THAT(o.source->lines[3], Catch::Contains("source_location::current()"));
    CHECK_THAT(o.source->lines[5], Catch::Contains("\"Log\""));
    CHECK(o.producers == 1);
    CHECK(r.countedAlerts == 4);
    CHECK(r.setAside.empty());

    const std::string text = renderText(r);
    CHECK_THAT(text, Catch::Contains("Run:          tutorial1"));
    CHECK_THAT(text, Catch::Contains("TensorBoard's first alert"));
    CHECK_THAT(text, Catch::Contains("graph execution trace #15: Log \"Log\""));
    CHECK_THAT(text, Catch::Contains("probs:0  (graph execution trace #12): 12 elements: 1 zero"));
    CHECK_THAT(text, Catch::Contains("log of zero gives -inf"));
    char marked[32];
    std::snprintf(marked, sizeof marked, "> %5d | ", logLine);
    CHECK_THAT(text, Catch::Contains(marked));
    CHECK_THAT(text, Catch::Contains("Alerts:       4 InfNanAlert\n"));
    CHECK_THAT(text, !Catch::Contains("Set aside"));
}

TEST_CASE("nanscope-report: JSON keys and exit status", "[report][cli]")
{
    test::TempDir dir;
    TutorialLogdir::write(dir.path());
    const test::ReportRun json = runReport("--json " + shellQuoted(dir.path()));
    INFO(json.output);
    CHECK(json.status == 1);
    const auto j = nlohmann::json::parse(json.output);
    for (const char* key : {"logdir", "run_id", "hosts", "tensorflow_version", "tensor_debug_modes",
                            "counts", "alerts", "first_alert", "origin", "diagnostics"})
        CHECK(j.contains(key));
    CHECK(j["run_id"] == "tutorial1");
    CHECK(j["counts"]["graph_execution_traces"] == 18);
    for (const char* key : {"executions", "graph_execution_traces", "graphs", "graph_ops",
                            "stack_frames", "source_files"})
        CHECK(j["counts"].contains(key));
    CHECK(j["alerts"]["total"] == 4);
    CHECK(j["alerts"]["by_type"]["InfNanAlert"] == 4);
    // Nothing in the tutorial is made on purpose: every alert counts.
    CHECK(j["alerts"]["counted"] == 4);
    CHECK(j["alerts"]["intended"] == 0);
    CHECK(j["alerts"]["uninitialised"] == 0);
    CHECK(j["set_aside"] == nlohmann::json::array());
    CHECK(j["expected_patterns"] == nlohmann::json::array());
    const auto& first = j["first_alert"];
    CHECK(first["source"] == "graph");
    CHECK(first["index"] == 15);
    CHECK(first["op_type"] == "Log");
    CHECK(first["op_name"] == "Log");
    CHECK(first["output_slot"] == 0);
    CHECK(first["size"] == 12.0);
    CHECK(first["num_neg_inf"] == 1.0);
    CHECK(first["num_nan"] == 0.0);
    const auto& origin = j["origin"];
    CHECK(origin["source"] == "graph");
    CHECK(origin["op_type"] == "Log");
    CHECK(origin["inputs"][0]["name"] == "probs:0");
    CHECK(origin["inputs"][0]["index"] == 12);
    CHECK_THAT(origin["inputs"][0]["health"].get<std::string>(), Catch::Contains("1 zero"));
    CHECK_THAT(origin["hint"].get<std::string>(), Catch::Contains("log of zero"));
    CHECK(origin["stack"].is_array());
    CHECK(origin["user_frame"]["line"].is_number());
    CHECK(j["diagnostics"].is_array());

    const test::ReportRun text = runReport(shellQuoted(dir.path()));
    CHECK(text.status == 1);
    CHECK_THAT(text.output, Catch::Contains("Origin"));
}

TEST_CASE("nanscope-report: no alert, unreadable logdirs, bad flags", "[report][cli]")
{
    test::TempDir dir;
    test::FileSetWriter set(dir.path());
    set.createAll();
    set.writeMetadata(1.0, "quiet");
    const test::ReportRun healthy = runReport("--json " + shellQuoted(dir.path()));
    CHECK(healthy.status == 0);
    const auto j = nlohmann::json::parse(healthy.output);
    CHECK(j["first_alert"].is_null());
    CHECK(j["origin"].is_null());
    CHECK(j["alerts"]["by_type"].empty());
    CHECK(j["alerts"]["counted"] == 0);
    CHECK(j["set_aside"] == nlohmann::json::array());

    const test::ReportRun missing = runReport("--json " + shellQuoted(dir.path() / "nothing-here"));
    CHECK(missing.status == 2);
    const auto m = nlohmann::json::parse(missing.output);
    CHECK_FALSE(m["diagnostics"].empty());
    CHECK(m["diagnostics"][0]["severity"] == "error");

    const test::ReportRun badFlag = runReport("--no-such-flag " + shellQuoted(dir.path()));
    CHECK(badFlag.status == 2);
    CHECK_THAT(badFlag.output, Catch::Contains("Usage"));
    CHECK(runReport("").status == 2);
    CHECK(runReport("--help").status == 0);
}

TEST_CASE("nanscope-report: an incomplete read exits 3 unless --allow-partial", "[report][cli]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    const auto nanTrace =
        test::framed(test::events::trace(1.0, "g", "r", 0, 2, test::events::curtHealth(1, true)));
    const auto fineTrace =
        test::framed(test::events::trace(2.0, "g", "r", 0, 2, test::events::curtHealth(1, false)));
    SECTION("alerts, everything read")
    {
        set.appendBytes("graph_execution_traces", nanTrace);
        CHECK(runReport(shellQuoted(dir.path())).status == 1);
    }
    SECTION("no alert, but a corrupt record")
    {
        set.appendBytes("graph_execution_traces", fineTrace + "garbage that is not a record");
        CHECK(runReport(shellQuoted(dir.path())).status == 3);
        CHECK(runReport("--allow-partial " + shellQuoted(dir.path())).status == 0);
    }
    SECTION("alerts and a corrupt record")
    {
        set.appendBytes("graph_execution_traces", nanTrace + "garbage that is not a record");
        CHECK(runReport("--json " + shellQuoted(dir.path())).status == 3);
        CHECK(runReport("--allow-partial " + shellQuoted(dir.path())).status == 1);
    }
    SECTION("a file that cannot be opened")
    {
        std::filesystem::remove(set.file("execution"));
        std::filesystem::create_directory(set.file("execution"));
        CHECK(runReport(shellQuoted(dir.path())).status == 3);
    }
}
