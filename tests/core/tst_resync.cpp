// SPDX-License-Identifier: GPL-3.0-or-later
// Reading past corrupt data: the next whole record after a bad CRC or a torn record is found, every
// valid record is kept, the skipped bytes are named, and TensorBoard's view (which stops at the
// first corrupt record) stays available.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "recordresync.hpp"
#include "reportcommand.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;
namespace fs = std::filesystem;

namespace {

// `count` CURT_HEALTH traces of op "r"; those whose wall time is in `bad` are non-finite.
std::string traces(int first, int count, int bad = -1)
{
    std::string bytes;
    for (int i = first; i < first + count; ++i)
        bytes += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, i == bad)));
    return bytes;
}

std::string garbage(std::size_t size, unsigned seed)
{
    std::mt19937 random(seed);
    std::string bytes(size, '\0');
    for (auto& c : bytes)
        c = static_cast<char>(random());
    return bytes;
}

} // namespace

TEST_CASE("a garbage region between records is read past", "[resync]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    const std::string before = traces(0, 10, 3);
    const std::string junk = garbage(1u << 20, 11);
    set.appendBytes("graph_execution_traces", before + junk + traces(10, 10, 15));

    LogdirReader reader(dir.path());
    const auto s = reader.update();
    CHECK(s->traceCount() == 20);
    CHECK(s->trace(10).wallTime == 10);
    CHECK(s->alertCount() == 2);
    const Diagnostic* skip = test::findDiagnostic(*s, Severity::Error, "corrupt data");
    REQUIRE(skip != nullptr);
    CHECK(skip->offset == before.size());
    CHECK_THAT(skip->message, Catch::Contains("bytes " + std::to_string(before.size()) + " to " +
                                              std::to_string(before.size() + junk.size())) &&
                                  Catch::Contains("10 records read after them"));
    // TensorBoard's view stops at the garbage.
    CHECK(s->tensorBoardTraceCount() == 10);
    CHECK(s->tensorBoardAlertCount() == 1);
    REQUIRE(s->tensorBoardFirstAlert());
    CHECK(s->tensorBoardFirstAlert()->event.index == 3);

    const Report r = buildReport(*s);
    CHECK(r.counts.graphExecutionTraces == 20);
    CHECK(r.tensorBoardTraces == 10);
    const std::string text = renderText(r);
    CHECK_THAT(text, Catch::Contains("TensorBoard:  0 executions, 10 graph execution traces, 1 "
                                     "InfNanAlert: it stops reading at the first corrupt record"));
    const auto json =
        nlohmann::json::parse(test::runReport("--json " + test::shellQuoted(dir.path())).output);
    CHECK(json["counts"]["graph_execution_traces"] == 20);
    CHECK(json["tensorboard"]["graph_execution_traces"] == 10);
    CHECK(json["tensorboard"]["alerts"] == 1);
    REQUIRE(json["tensorboard"]["stops"].size() == 1);
    CHECK(json["tensorboard"]["stops"][0]["offset"] == before.size());
}

TEST_CASE("a torn record in the middle of a file loses that record alone", "[resync]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    const std::string before = traces(0, 5);
    const std::string torn = traces(5, 1).substr(0, 20); // a header and a few payload bytes
    set.appendBytes("graph_execution_traces", before + torn + traces(6, 7));
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->traceCount() == 12);
    CHECK(s->trace(5).wallTime == 6);
    const Diagnostic* skip = test::findDiagnostic(*s, Severity::Error, "corrupt data");
    REQUIRE(skip != nullptr);
    CHECK_THAT(skip->message, Catch::Contains("(20 bytes) skipped; 7 records read after them"));
}

TEST_CASE("executions, graphs and the other files read past corrupt records too", "[resync]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    std::string bytes;
    for (int i = 0; i < 6; ++i) {
        std::string record = test::framed(
            ev::execution(i, "Exp", {}, {i}, 3, {ev::conciseHealth(i, 4, 0, 0, i == 4 ? 1 : 0)}));
        if (i == 2)
            record[record.size() / 2] ^= 0x10;
        bytes += record;
    }
    set.appendBytes("execution", bytes);
    set.append("graphs", ev::op("g", "Neg", "n", {"r:0"}, {2}));
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->executionCount() == 5);
    CHECK(s->tensorBoardExecutionCount() == 2);
    CHECK(s->alertCount() == 1);
    CHECK(s->tensorBoardAlertCount() == 0);
    CHECK_FALSE(s->tensorBoardFirstAlert());
    CHECK(test::findDiagnostic(*s, Severity::Error, "corrupt data") != nullptr);
}

TEST_CASE("corrupt data at the end waits for a record after it", "[resync]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.appendBytes("graph_execution_traces", traces(0, 4) + garbage(300, 5));
    LogdirReader reader(dir.path());
    auto s = reader.update();
    CHECK(s->traceCount() == 4);
    CHECK(test::findDiagnostic(*s, Severity::Error, "no whole record follows it") != nullptr);
    // A writer goes on past the damage: the next update finds its records.
    set.appendBytes("graph_execution_traces", traces(4, 3));
    s = reader.update();
    CHECK(s->traceCount() == 7);
    CHECK(test::findDiagnostic(*s, Severity::Error, "corrupt data") != nullptr);
    CHECK(test::findDiagnostic(*s, Severity::Error, "no whole record follows it") == nullptr);
    CHECK(s->tensorBoardTraceCount() == 4);
}

TEST_CASE("the search for the next record is bounded", "[resync]")
{
    test::TempDir dir;
    const fs::path file = dir.path() / "records";
    // 500 headers with valid length CRCs and nothing valid behind them, then one real record.
    std::string bytes = "x";
    for (int i = 0; i < 500; ++i)
        bytes += test::recordHeader(1000) + garbage(40, static_cast<unsigned>(i));
    const std::size_t real = bytes.size();
    bytes += traces(0, 1);
    test::writeBytes(file, bytes);
    FileHandle handle;
    REQUIRE(handle.open(*realFileSystem(), file, nullptr));

    const ResyncResult patient = findNextRecord(handle, 0, bytes.size());
    REQUIRE(patient.next);
    CHECK(*patient.next == real);
    CHECK_FALSE(patient.gaveUp);

    const ResyncResult bounded =
        findNextRecord(handle, 0, bytes.size(), {.maxCandidateBytes = 100 * 1000});
    CHECK_FALSE(bounded.next);
    CHECK(bounded.gaveUp);

    // A length above the reader's record limit is never read.
    const ResyncResult limited = findNextRecord(handle, 0, bytes.size(), {.maxPayload = 10});
    CHECK_FALSE(limited.next);
    CHECK_FALSE(limited.gaveUp);
}

TEST_CASE("a search that finds nothing says where a later one may start", "[resync]")
{
    test::TempDir dir;
    const fs::path file = dir.path() / "records";
    const std::string junk = garbage(5000, 3);
    test::writeBytes(file, junk);
    FileHandle handle;
    REQUIRE(handle.open(*realFileSystem(), file, nullptr));
    const ResyncResult none = findNextRecord(handle, 0, junk.size());
    CHECK_FALSE(none.next);
    CHECK(none.searchedTo + format::kRecordOverhead >= junk.size());
    CHECK(none.searchedTo <= junk.size());

    // A valid length field whose payload is not all there yet may still become a record.
    const std::string open = junk + test::recordHeader(1000) + garbage(50, 4);
    test::writeBytes(file, open);
    FileHandle reopened;
    REQUIRE(reopened.open(*realFileSystem(), file, nullptr));
    const ResyncResult waiting = findNextRecord(reopened, 0, open.size());
    CHECK_FALSE(waiting.next);
    CHECK(waiting.searchedTo == junk.size());
}
