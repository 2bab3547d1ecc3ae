// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile strings in a logdir: markup, terminal escape sequences, invalid UTF-8 and megabyte-long
// names and paths. Nothing may be interpreted (the report prints them as inert text, the JSON
// escapes them), nothing may crash, and nothing may run for a megabyte on the terminal.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/plaintext.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

const std::string kMarkupGraph = "<b>bold</b>\x1b[2J";
const std::string kMarkupOp = "<img src=x onerror=alert(1)>\x1b]0;pwned\x07\xe2\x80\xae";
const std::string kInvalidUtf8Op = "ghost\xff\xfe\xc0\x80";
const std::string kMarkupPath = "/src/\x1b[31mtrain.py";

// A logdir whose every string a viewer shows is hostile; its first NaN is in the markup op.
void writeMarkupLogdir(const std::filesystem::path& dir)
{
    FileSetWriter set(dir);
    set.createAll();
    set.append("metadata", ev::metadata(1.0, "run\x1b[5m", "2.15\x1b[0m"));
    set.append("source_files", ev::sourceFile(kMarkupPath, "host",
                                              {"import tf", "y = tf.math.log(x)\x1b[8m hidden"}));
    set.append("stack_frames", ev::stackFrame("f1", 0, 2, "<i>train</i>"));
    set.append("graphs", ev::graph("g", kMarkupGraph));
    set.append("graphs", ev::op("g", "Placeholder", "x", {}, {1}, {"f1"}));
    set.append("graphs", ev::op("g", "Log<script>", kMarkupOp, {"x:0"}, {2}, {"f1"}));
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "x", 0, 4, ev::fullHealth(1, 4, 0, 0, 0, 0, 1, 3)));
    set.append("graph_execution_traces",
               ev::trace(3.0, "g", kMarkupOp, 0, 4, ev::fullHealth(2, 4, 1, 0, 0, 0, 0, 3)));
    // The hand-written trace decoder takes names as bytes: this op name is not UTF-8.
    set.append("graph_execution_traces",
               ev::trace(4.0, "g", kInvalidUtf8Op, 0, 4, ev::fullHealth(3, 4, 0, 0, 4, 0, 0, 0)));
}

bool hasControlBytes(const std::string& s)
{
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\n') || u == 0x7f;
    });
}

} // namespace

TEST_CASE("printable(): controls, bidi overrides and invalid UTF-8 become escapes",
          "[hostile][plaintext]")
{
    CHECK(printable("plain <b>text</b> ±∞") == "plain <b>text</b> ±∞");
    CHECK(printable("a\x1b[2Jb") == "a\\x1b[2Jb");
    CHECK(printable("line\nbreak\ttab") == "line\\nbreak\\ttab");
    CHECK(printable("tab\there", {.keepTabs = true}) == "tab\there");
    CHECK(printable("\xe2\x80\xae"
                    "evil") == "\\u{202e}evil");
    CHECK(printable("\xc2\x9b"
                    "31m") == "\\u{009b}31m"); // C1 CSI
    CHECK(printable("bad\xff\xc0\x80") == "bad\\xff\\xc0\\x80");
    CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80"); // a UTF-16 surrogate
    CHECK(printable(printable("\x1b")) == printable("\x1b"));
    CHECK(printable(std::string(1000, 'n'), {.maxChars = 10}) == "nnnnnnnnnn\u2026 (1000 bytes)");
    // The limit counts characters, whether they come in a run of ASCII or one by one.
    CHECK(printable("ab\xc2\xb1"
                    "cd",
                    {.maxChars = 3}) == "ab\xc2\xb1\u2026 (6 bytes)");
    CHECK(printable("\x01"
                    "abc",
                    {.maxChars = 2}) == "\\x01a\u2026 (4 bytes)");
}

TEST_CASE("printable(): runs of ASCII, read eight bytes at a time, stop at any other byte",
          "[hostile][plaintext]")
{
    // Every byte value at every place in and around an eight-byte word gets what it gets alone.
    for (int byte = 0; byte < 256; ++byte) {
        const std::string alone = printable(std::string(1, static_cast<char>(byte)));
        for (std::size_t at = 0; at < 18; ++at) {
            std::string text(20, 'a');
            text[at] = static_cast<char>(byte);
            INFO("byte " << byte << " at " << at);
            CHECK(printable(text) == std::string(at, 'a') + alone + std::string(19 - at, 'a'));
        }
    }
    // The character limit cuts a run inside a word.
    CHECK(printable(std::string(30, 'x'), {.maxChars = 13}) ==
          std::string(13, 'x') + "\u2026 (30 bytes)");
}

TEST_CASE("markup and escape sequences: the text report prints them inert", "[hostile][report]")
{
    test::TempDir dir;
    writeMarkupLogdir(dir.path());
    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->traceCount() == 3);
    // The reader keeps names exactly as recorded.
    REQUIRE(s->origin());
    CHECK(s->origin()->opName == kMarkupOp);

    const std::string text = renderText(buildReport(*s));
    INFO(text);
    CHECK_FALSE(hasControlBytes(text));
    CHECK(text.find("\xe2\x80\xae") == std::string::npos);
    CHECK(text.find("\xff") == std::string::npos);
    CHECK_THAT(text, Catch::Contains("<img src=x onerror=alert(1)>\\x1b]0;pwned\\x07\\u{202e}"));
    CHECK_THAT(text, Catch::Contains("\"<b>bold</b>\\x1b[2J\""));
    CHECK_THAT(text, Catch::Contains("/src/\\x1b[31mtrain.py"));
    CHECK_THAT(text, Catch::Contains("ghost\\xff\\xfe\\xc0\\x80"));

    const auto run = test::runReport(test::shellQuoted(dir.path()));
    CHECK(run.status == 1);
    CHECK_FALSE(hasControlBytes(run.output));
}

TEST_CASE("markup, escape sequences and invalid UTF-8: the JSON report is valid ASCII",
          "[hostile][report]")
{
    test::TempDir dir;
    writeMarkupLogdir(dir.path());
    // Before, an op name that is not UTF-8 made the JSON library throw: the report died.
    const auto run = test::runReport("--json " + test::shellQuoted(dir.path()));
    INFO(run.output);
    REQUIRE(run.status == 1);
    CHECK(std::all_of(run.output.begin(), run.output.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x80; }));
    CHECK_FALSE(hasControlBytes(run.output));
    const auto j = nlohmann::json::parse(run.output);
    CHECK(j["origin"]["op_name"] == kMarkupOp); // faithful once decoded
    CHECK(j["origin"]["graph_name"] == kMarkupGraph);
    bool invalidNamed = false;
    for (const auto& d : j["diagnostics"])
        invalidNamed |= d["message"].get<std::string>().find("ghost\\xff") != std::string::npos;
    CHECK(invalidNamed);
}

TEST_CASE("megabyte-long op, graph and file names", "[hostile][report]")
{
    test::TempDir dir;
    const std::string opName(1u << 20, 'o');
    const std::string graphName(1u << 20, 'g');
    const std::string path = "/" + std::string(1u << 20, 'p') + ".py";
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("source_files", ev::sourceFile(path, "host", {std::string(1u << 20, 'l')}));
    set.append("stack_frames", ev::stackFrame("f", 0, 1, std::string(1u << 20, 'f')));
    set.append("graphs", ev::graph("g", graphName));
    set.append("graphs", ev::op("g", "Log", opName, {}, {1}, {"f"}));
    set.append("graph_execution_traces",
               ev::trace(1.0, "g", opName, 0, 4, ev::fullHealth(1, 4, 1, 0, 0, 0, 0, 3)));
    set.append("graph_execution_traces", // an undeclared op: its name goes into a diagnostic
               ev::trace(2.0, "g", std::string(1u << 20, 'u'), 0, 4,
                         ev::fullHealth(1, 4, 0, 0, 0, 0, 0, 4)));
    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->traceCount() == 2);
    REQUIRE(s->origin());
    CHECK(s->origin()->opName == opName);
    for (const auto& d : s->diagnostics())
        CHECK(d.message.size() < 1000);

    const std::string text = renderText(buildReport(*s));
    CHECK(text.size() < 16 * 1024);
    CHECK_THAT(text, Catch::Contains("(1048576 bytes)"));
    const auto run = test::runReport("--json " + test::shellQuoted(dir.path()));
    REQUIRE(run.status == 1);
    CHECK(nlohmann::json::parse(run.output)["origin"]["op_name"] == opName);
}
