// SPDX-License-Identifier: GPL-3.0-or-later
// The report of values set aside as intended (intent.hpp): an attention mask's -inf is named
// beside the origin, not as it, the user's --expect patterns apply, and a run whose alerts were
// all set aside exits 0.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = nanscope::test::events;
using test::FileSetWriter;
using test::runReport;
using test::shellQuoted;

namespace {

constexpr int kFull = 4; // FULL_HEALTH
constexpr int kMaskLine = 36;
constexpr int kLogLine = 40;

tfdbg::DebugEvent inModule(tfdbg::DebugEvent event, const std::string& module)
{
    event.mutable_execution()->mutable_framework_context()->set_module_path(module);
    return event;
}

// Frames of a script: its <module> line, the mask's line and the log's line.
void writeCode(const FileSetWriter& set)
{
    std::vector<std::string> lines(kLogLine + 2, "pass");
    lines[kMaskLine - 1] = "scores = scores.masked_fill(mask, float('-inf'))";
    lines[kLogLine - 1] = "loss = probs.log().mean()";
    set.append("source_files", ev::sourceFile("/home/user/model.py", "localhost", lines));
    set.append("stack_frames", ev::stackFrame("f-main", 0, 1, "<module>"));
    set.append("stack_frames", ev::stackFrame("f-mask", 0, kMaskLine, "forward"));
    set.append("stack_frames", ev::stackFrame("f-log", 0, kLogLine, "<module>"));
}

// One attention head on 16 scores: bmm (finite) -> masked_fill (4 -inf, from the program's
// literal) -> _softmax (finite: 4 exact zeros). Tensor ids from `firstId` on; returns the
// softmax's output id.
std::int64_t writeHead(const FileSetWriter& set, double wallTime, std::int64_t firstId)
{
    const std::int64_t scores = firstId;
    const std::int64_t masked = firstId + 1;
    const std::int64_t probs = firstId + 2;
    set.append("execution", ev::execution(wallTime, "aten::bmm", {}, {scores}, kFull,
                                          {ev::fullHealth(-1, 16, 0, 0, 0, 8, 0, 8)}));
    set.append("execution",
               inModule(ev::execution(wallTime + 0.1, "aten::masked_fill", {scores}, {masked},
                                      kFull, {ev::fullHealth(-1, 16, 4, 0, 0, 4, 0, 8)}, {},
                                      {"f-main", "f-mask"}),
                        "MultiHeadAttention.attn"));
    set.append("execution", ev::execution(wallTime + 0.2, "aten::_softmax", {masked}, {probs},
                                          kFull, {ev::fullHealth(-1, 16, 0, 0, 0, 0, 4, 12)}));
    return probs;
}

// Two heads, then the bug: log of the second softmax's zeros makes -inf, and mean carries it.
// Executions: 0-2 head one, 3-5 head two, 6 aten::log (the origin), 7 aten::mean (unread).
void writeMaskedLogdir(const std::filesystem::path& dir)
{
    FileSetWriter set = test::emptyRun(dir);
    writeCode(set);
    writeHead(set, 1.0, 10);
    const std::int64_t probs = writeHead(set, 2.0, 20);
    set.append("execution",
               ev::execution(3.0, "aten::log", {probs}, {30}, kFull,
                             {ev::fullHealth(-1, 16, 4, 0, 0, 12, 0, 0)}, {}, {"f-log"}));
    set.append("execution",
               ev::execution(3.1, "aten::mean", {30}, {31}, kFull,
                             {ev::fullHealth(-1, 1, 1, 0, 0, 0, 0, 0)}, {}, {"f-log"}));
}

const nlohmann::json* findGroup(const nlohmann::json& j, const std::string& opType)
{
    for (const auto& g : j["set_aside"])
        if (g["op_type"] == opType)
            return &g;
    return nullptr;
}

} // namespace

TEST_CASE("the report names an attention mask as set aside, and the log as the origin",
          "[report][intent]")
{
    test::TempDir dir;
    writeMaskedLogdir(dir.path());
    LogdirReader reader(dir.path());
    const Report r = buildReport(*reader.update());
    CHECK(r.alertTotal == 4);
    CHECK(r.intendedAlerts == 2);
    CHECK(r.uninitialisedAlerts == 0);
    CHECK(r.countedAlerts == 2);
    REQUIRE(r.origin);
    CHECK(r.origin->origin.opType == "aten::log");
    CHECK(r.origin->origin.event == EventRef{EventSource::Eager, 6});
    // TensorBoard's first alert stays TensorBoard's: the mask.
    REQUIRE(r.firstAlert);
    CHECK(r.firstAlert->opType == "aten::masked_fill");

    REQUIRE(r.setAside.size() == 1);
    const ReportSetAside& mask = r.setAside[0];
    CHECK(mask.group.intent == Intent::Constant);
    CHECK(mask.group.opType == "aten::masked_fill");
    CHECK(mask.group.modulePath == "MultiHeadAttention.attn");
    CHECK(mask.group.first == EventRef{EventSource::Eager, 1});
    CHECK(mask.group.producers == 2);
    CHECK(mask.group.kinds == nonfinite::NegInf);
    CHECK(mask.group.absorbedBy == std::vector<std::string>{"aten::_softmax"});
    CHECK(mask.location == "/home/user/model.py:" + std::to_string(kMaskLine));
    CHECK(r.expectedPatterns.empty());

    const std::string text = renderText(r);
    INFO(text);
    CHECK_THAT(text, Catch::Contains("Alerts:       4 InfNanAlert: 2 counted, 2 set aside"));
    CHECK_THAT(text, Catch::Contains("Origin: the first non-finite value"));
    CHECK_THAT(text, Catch::Contains("execution #6: aten::log"));
    CHECK_THAT(text, Catch::Contains("Set aside as intended (not counted)"));
    CHECK_THAT(text, Catch::Contains("2 executions of aten::masked_fill (MultiHeadAttention.attn) "
                                     "at /home/user/model.py:36 made -inf"));
    CHECK_THAT(text, Catch::Contains("absorbed by aten::_softmax"));
    CHECK_THAT(text, Catch::Contains("first: execution #1"));
    // The section comes after the origin.
    CHECK(text.find("Set aside as intended") > text.find("Origin:"));
}

TEST_CASE("nanscope-report: set-aside values in JSON, and exit 1 for the counted ones",
          "[report][intent][cli]")
{
    test::TempDir dir;
    writeMaskedLogdir(dir.path());
    const test::ReportRun run = runReport("--json " + shellQuoted(dir.path()));
    INFO(run.output);
    CHECK(run.status == 1);
    const auto j = nlohmann::json::parse(run.output);
    // TensorBoard's numbers and first alert are those of every alert, intended or not.
    CHECK(j["alerts"]["total"] == 4);
    CHECK(j["alerts"]["by_type"]["InfNanAlert"] == 4);
    CHECK(j["alerts"]["tensorboard_total"] == 4);
    CHECK(j["alerts"]["counted"] == 2);
    CHECK(j["alerts"]["intended"] == 2);
    CHECK(j["alerts"]["uninitialised"] == 0);
    CHECK(j["tensorboard"]["alerts"] == 4);
    CHECK(j["first_alert"]["op_type"] == "aten::masked_fill");
    CHECK(j["first_alert"]["index"] == 1);
    CHECK(j["origin"]["op_type"] == "aten::log");
    CHECK(j["origin"]["index"] == 6);
    CHECK(j["expected_patterns"] == nlohmann::json::array());

    REQUIRE(j["set_aside"].is_array());
    const nlohmann::json* mask = findGroup(j, "aten::masked_fill");
    REQUIRE(mask);
    CHECK((*mask)["intent"] == "constant");
    CHECK((*mask)["op_name"].is_null());
    CHECK((*mask)["module"] == "MultiHeadAttention.attn");
    CHECK((*mask)["location"] == "/home/user/model.py:36");
    CHECK((*mask)["kinds"] == "-inf");
    CHECK((*mask)["producers"] == 2);
    CHECK((*mask)["carriers"] == 0);
    CHECK((*mask)["absorbed_by"] == nlohmann::json::array({"aten::_softmax"}));
    CHECK((*mask)["pattern"].is_null());
    CHECK((*mask)["first"] == nlohmann::json({{"source", "eager"}, {"index", 1}}));
    CHECK_FALSE(findGroup(j, "aten::log"));

    // Keys in the documented order: the new ones after those TensorBoard's parity tests read.
    const auto ordered = nlohmann::ordered_json::parse(run.output);
    std::vector<std::string> keys;
    for (auto it = ordered.begin(); it != ordered.end(); ++it)
        keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{
                      "logdir", "readable", "run_id", "hosts", "tensorflow_version", "file_version",
                      "tensor_debug_modes", "counts", "alerts", "tensorboard", "first_alert",
                      "origin", "host_origins", "earliest_origin_host", "set_aside",
                      "expected_patterns", "diagnostics"});
}

TEST_CASE("nanscope-report --expect sets the user's NaN aside", "[report][intent][cli]")
{
    test::TempDir dir;
    writeMaskedLogdir(dir.path());
    const auto path = shellQuoted(dir.path());

    const test::ReportRun json = runReport("--json --expect 'aten::log:-inf' " + path);
    INFO(json.output);
    CHECK(json.status == 0);
    const auto j = nlohmann::json::parse(json.output);
    CHECK(j["origin"].is_null());
    CHECK(j["alerts"]["total"] == 4);
    CHECK(j["alerts"]["counted"] == 0);
    CHECK(j["alerts"]["intended"] == 4);
    CHECK(j["expected_patterns"] == nlohmann::json::array({"aten::log:-inf"}));
    const nlohmann::json* log = findGroup(j, "aten::log");
    REQUIRE(log);
    CHECK((*log)["intent"] == "expected");
    CHECK((*log)["pattern"] == "aten::log:-inf");
    CHECK((*log)["location"] == "/home/user/model.py:40");
    CHECK((*log)["carriers"] == 1); // the mean of the log's -inf
    CHECK(findGroup(j, "aten::masked_fill"));

    const test::ReportRun text = runReport("--expect 'aten::log:-inf' " + path);
    INFO(text.output);
    CHECK(text.status == 0);
    CHECK_THAT(text.output, Catch::Contains("No unintended NaN or infinity was found"));
    CHECK_THAT(text.output, Catch::Contains("Expected by the user: aten::log:-inf"));
    CHECK_THAT(text.output, Catch::Contains("expected by the user (aten::log:-inf)"));

    // A pattern for another op, or another kind, changes nothing.
    CHECK(runReport("--expect 'aten::exp' --expect 'aten::log:nan' " + path).status == 1);
}

TEST_CASE("nanscope-report: a bad --expect is a usage error", "[report][intent][cli]")
{
    test::TempDir dir;
    writeMaskedLogdir(dir.path());
    const auto path = shellQuoted(dir.path());

    const test::ReportRun badKind = runReport("--expect 'aten::log:bogus' " + path);
    INFO(badKind.output);
    CHECK(badKind.status == 2);
    CHECK_THAT(badKind.output, Catch::Contains("aten::log:bogus"));
    CHECK_THAT(badKind.output, Catch::Contains("'bogus' is not a kind"));

    const test::ReportRun noOp = runReport("--json --expect ':-inf' " + path);
    INFO(noOp.output);
    CHECK(noOp.status == 2);
    CHECK_THAT(noOp.output, Catch::Contains("names no op"));
    CHECK(noOp.output.find('{') == std::string::npos); // no report after a usage error

    // One bad pattern among good ones is still an error.
    CHECK(runReport("--expect 'aten::log' --expect 'x:-inf,oops' " + path).status == 2);
}

TEST_CASE("nanscope-report: a logdir of intended masks only exits 0", "[report][intent][cli]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    writeCode(set);
    writeHead(set, 1.0, 10);
    const auto path = shellQuoted(dir.path());

    const test::ReportRun json = runReport("--json " + path);
    INFO(json.output);
    CHECK(json.status == 0);
    const auto j = nlohmann::json::parse(json.output);
    CHECK(j["origin"].is_null());
    CHECK(j["alerts"]["total"] == 1);
    CHECK(j["alerts"]["counted"] == 0);
    CHECK(j["alerts"]["intended"] == 1);
    CHECK(j["alerts"]["uninitialised"] == 0);
    CHECK(j["first_alert"]["op_type"] == "aten::masked_fill"); // TensorBoard's, as ever
    CHECK(j["set_aside"].size() == 1);
    CHECK(findGroup(j, "aten::masked_fill"));

    const test::ReportRun text = runReport(path);
    INFO(text.output);
    CHECK(text.status == 0);
    CHECK_THAT(text.output, Catch::Contains("1 InfNanAlert: 0 counted, 1 set aside as intended\n"));
    CHECK_THAT(text.output, Catch::Contains("Origin: none. No unintended NaN or infinity"));
    CHECK_THAT(text.output, Catch::Contains("1 execution of aten::masked_fill"));
}

TEST_CASE("nanscope-report: uninitialised memory is set aside and named", "[report][intent][cli]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    writeCode(set);
    writeHead(set, 1.0, 10);
    // A buffer no op reads, whose bits happen to hold NaN: memory, not a value.
    set.append("execution", ev::execution(1.5, "aten::empty", {}, {40}, kFull,
                                          {ev::fullHealth(-1, 8, 0, 0, 2, 3, 0, 3)}));
    const auto path = shellQuoted(dir.path());

    const test::ReportRun json = runReport("--json " + path);
    INFO(json.output);
    CHECK(json.status == 0);
    const auto j = nlohmann::json::parse(json.output);
    CHECK(j["origin"].is_null());
    CHECK(j["alerts"]["total"] == 2);
    CHECK(j["alerts"]["counted"] == 0);
    CHECK(j["alerts"]["intended"] == 1);
    CHECK(j["alerts"]["uninitialised"] == 1);
    const nlohmann::json* empty = findGroup(j, "aten::empty");
    CHECK(empty);
    if (empty) {
        CHECK((*empty)["intent"] == "uninitialised");
        CHECK((*empty)["first"] == nlohmann::json({{"source", "eager"}, {"index", 3}}));
    }

    const test::ReportRun text = runReport(path);
    INFO(text.output);
    CHECK(text.status == 0);
    CHECK_THAT(text.output, Catch::Contains("2 InfNanAlert: 0 counted, 1 set aside as intended, "
                                            "1 of uninitialised memory"));
    CHECK_THAT(text.output, Catch::Contains("Origin: none. No unintended NaN or infinity"));
    CHECK_THAT(text.output, Catch::Contains("1 execution of aten::empty: allocated and never "
                                            "written"));
}
