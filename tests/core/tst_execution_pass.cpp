// SPDX-License-Identifier: GPL-3.0-or-later
// The .execution file of several megabytes: decoded a chunk at a time on the pool, stitched in
// file order. Whatever the number of threads, the index is what reading one record after another
// gives: the same executions, skips, alerts, diagnostics and stops.
#include "loaders.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/record.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>
#include <fstream>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

constexpr int kRecords = 144'000; // about 15.6 MiB: eight chunks of 2 MiB, more than are in flight

// What a one-record-at-a-time reading must find for record i of the file.
enum class Kind { Execution, Trace, Garbage };

Kind kindOf(int i)
{
    if (i % 997 == 500)
        return Kind::Trace; // a valid DebugEvent of another kind
    if (i % 1499 == 700)
        return Kind::Garbage; // framed bytes that are no DebugEvent
    return Kind::Execution;
}

bool alertsAt(int i)
{
    return i % 113 == 7;
}

// Writes the records; returns each one's offset in the file.
std::vector<std::uint64_t> writeExecutions(const FileSetWriter& set)
{
    std::string bytes;
    std::vector<std::uint64_t> offsets;
    for (int i = 0; i < kRecords; ++i) {
        offsets.push_back(bytes.size());
        switch (kindOf(i)) {
        case Kind::Trace:
            bytes += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false)));
            break;
        case Kind::Garbage:
            format::appendRecord(bytes, "\x52\x7f not protobuf");
            break;
        case Kind::Execution:
            bytes += test::framed(
                ev::execution(1000.0 + i, i % 2 ? "Exp" : "Log", {2 * i}, {2 * i + 1}, 3,
                              {ev::conciseHealth(-1, 8, 0, alertsAt(i) ? 2 : 0, 0)}));
            break;
        }
    }
    set.appendBytes("execution", bytes);
    return offsets;
}

std::shared_ptr<const Snapshot> readWith(const std::filesystem::path& dir, unsigned threads,
                                         std::uint64_t maxMemory = UINT64_MAX)
{
    return LogdirReader(dir, {.threads = threads, .maxMemoryBytes = maxMemory}).update();
}

// The executions, alerts and diagnostics of two snapshots are the same.
void requireSameIndex(const Snapshot& a, const Snapshot& b)
{
    REQUIRE(a.executionCount() == b.executionCount());
    for (std::uint64_t e = 0; e < a.executionCount(); ++e) {
        REQUIRE(a.execution(e).offset == b.execution(e).offset);
        REQUIRE(a.executionInputIds(e) == b.executionInputIds(e));
    }
    REQUIRE(a.alertCount() == b.alertCount());
    for (std::uint64_t k = 0; k < a.alertCount(); ++k)
        REQUIRE(a.alert(k).event.index == b.alert(k).event.index);
    REQUIRE(a.diagnostics() == b.diagnostics());
}

} // namespace

TEST_CASE("executions over several chunks are read in file order with every skip and alert",
          "[reader][executions]")
{
    test::TempDir dir;
    const FileSetWriter set = test::runWithOneOp(dir.path());
    const auto offsets = writeExecutions(set);
    REQUIRE(std::filesystem::file_size(set.file("execution")) > 7 * kReadChunkBytes);

    std::vector<std::uint64_t> expectedOffsets;
    std::vector<std::uint64_t> expectedAlerts; // execution indices
    for (int i = 0; i < kRecords; ++i) {
        if (kindOf(i) != Kind::Execution)
            continue;
        if (alertsAt(i))
            expectedAlerts.push_back(expectedOffsets.size());
        expectedOffsets.push_back(offsets[static_cast<std::size_t>(i)]);
    }
    const auto s = readWith(dir.path(), 2);
    REQUIRE(s->executionCount() == expectedOffsets.size());
    for (std::uint64_t e = 0; e < s->executionCount(); ++e) {
        REQUIRE(s->execution(e).offset == expectedOffsets[e]);
        const auto record = static_cast<std::int64_t>(
            std::lower_bound(offsets.begin(), offsets.end(), expectedOffsets[e]) - offsets.begin());
        REQUIRE(s->execution(e).wallTime == 1000.0 + static_cast<double>(record));
        REQUIRE(s->execution(e).opType == (record % 2 ? "Exp" : "Log"));
        REQUIRE(s->executionInputIds(e) == std::vector<std::int64_t>{2 * record});
    }
    REQUIRE(s->alertCount() == expectedAlerts.size());
    for (std::uint64_t k = 0; k < s->alertCount(); ++k)
        CHECK(s->alert(k).event.index == expectedAlerts[k]);
    // The first skipped record of each kind is named, at its offset.
    const Diagnostic* other =
        test::findDiagnostic(*s, Severity::Warning, "not an Execution record; skipped");
    REQUIRE(other);
    CHECK(other->offset == offsets[500]);
    const Diagnostic* garbage =
        test::findDiagnostic(*s, Severity::Error, "not a valid DebugEvent; skipped");
    REQUIRE(garbage);
    CHECK(garbage->offset == offsets[700]);

    for (const unsigned threads : {1u, 3u})
        requireSameIndex(*s, *readWith(dir.path(), threads));
}

TEST_CASE("a corrupt execution record in a later chunk stops TensorFlow's reading there",
          "[reader][executions]")
{
    test::TempDir dir;
    const FileSetWriter set = test::runWithOneOp(dir.path());
    const auto offsets = writeExecutions(set);
    constexpr int kCorrupt = 17'000; // past the first chunks
    REQUIRE(kindOf(kCorrupt) == Kind::Execution);
    {
        std::fstream file(set.file("execution"), std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(offsets[kCorrupt] + format::kRecordHeaderSize + 3));
        file.put('\x7e');
    }
    int before = 0;
    int all = 0;
    for (int i = 0; i < kRecords; ++i) {
        if (kindOf(i) != Kind::Execution)
            continue;
        before += i < kCorrupt;
        all += i != kCorrupt;
    }
    const auto s = readWith(dir.path(), 2);
    CHECK(s->tensorBoardExecutionCount() == static_cast<std::uint64_t>(before));
    CHECK(s->executionCount() == static_cast<std::uint64_t>(all)); // read past it
    REQUIRE(s->execution(static_cast<std::uint64_t>(before)).offset == offsets[kCorrupt + 1]);
    requireSameIndex(*s, *readWith(dir.path(), 1));
}

TEST_CASE("the memory limit stops an executions file partway at the same record on any number "
          "of threads",
          "[reader][executions]")
{
    test::TempDir dir;
    const FileSetWriter set = test::runWithOneOp(dir.path());
    (void)writeExecutions(set);
    constexpr std::uint64_t kLimit = 1u << 20;
    const auto s = readWith(dir.path(), 2, kLimit);
    INFO("read " << s->executionCount() << " executions");
    // Partway through, at a record (the limit is weighed record by record, not by chunk).
    CHECK(s->executionCount() > 9'500);
    CHECK(s->executionCount() < 20'000);
    CHECK(s->indexBytes() < kLimit);
    CHECK(test::findDiagnostic(*s, Severity::Error, "the memory limit of"));
    for (const unsigned threads : {1u, 3u})
        requireSameIndex(*s, *readWith(dir.path(), threads, kLimit));
}
