// SPDX-License-Identifier: GPL-3.0-or-later
// Broken logdirs: every truncation, every flipped bit, impossible lengths, garbage, empty files,
// random payloads. No crash, no hang, a clear diagnostic, and everything valid still read.
#include "healthrules.hpp"
#include "loaders.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/format/crc32c.hpp"
#include "nanscope/format/record.hpp"
#include "snapshotsearch.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <random>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;
namespace fs = std::filesystem;

namespace {

// Offsets where each record of a well-formed file starts, and the file's size at the end.
std::vector<std::size_t> recordStarts(const std::string& bytes)
{
    std::vector<std::size_t> starts;
    std::size_t at = 0;
    while (at < bytes.size()) {
        starts.push_back(at);
        std::uint64_t length = 0;
        std::memcpy(&length, bytes.data() + at, 8);
        at += format::kRecordOverhead + length;
    }
    starts.push_back(bytes.size());
    return starts;
}

std::size_t completeRecordsBefore(const std::vector<std::size_t>& starts, std::size_t cut)
{
    std::size_t n = 0;
    while (n + 1 < starts.size() && starts[n + 1] <= cut)
        ++n;
    return n;
}

struct Counts
{
    std::uint64_t traces, executions, ops, frames, files;
};

Counts counts(const Snapshot& s)
{
    return {s.traceCount(), s.executionCount(), s.graphs().declaredOpCount(),
            s.code().frames().size(), s.code().files().size()};
}

} // namespace

TEST_CASE("every file of the small logdir, truncated at every byte", "[robustness]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const Counts full = counts(*LogdirReader(dir.path()).update());
    REQUIRE(full.traces == 4);

    for (const char* suffix :
         {".graph_execution_traces", ".execution", ".graphs", ".stack_frames", ".source_files"}) {
        const fs::path file = test::fileEndingIn(dir.path(), suffix);
        const std::string original = test::readBytes(file);
        const auto starts = recordStarts(original);
        for (std::size_t cut = 0; cut <= original.size(); ++cut) {
            test::writeBytes(file, std::string_view(original).substr(0, cut));
            LogdirReader reader(dir.path());
            const auto s = reader.update();
            const std::size_t complete = completeRecordsBefore(starts, cut);
            const bool torn = cut != starts[complete];
            INFO(suffix << " cut at " << cut << " of " << original.size());
            const Counts c = counts(*s);
            if (std::string(suffix) == ".graph_execution_traces") {
                CHECK(c.traces == complete);
            } else if (std::string(suffix) == ".execution") {
                CHECK(c.executions == complete);
                CHECK(c.traces == full.traces);
            } else if (std::string(suffix) == ".stack_frames") {
                CHECK(c.frames == complete);
            } else if (std::string(suffix) == ".source_files") {
                CHECK(c.files == complete);
            }
            CHECK((test::findDiagnostic(*s, Severity::Info, "incomplete record") != nullptr) ==
                  torn);
            CHECK(test::findDiagnostic(*s, Severity::Error, "") == nullptr);
            // Appending the rest completes the picture without reopening.
            test::writeBytes(file, original);
            CHECK(counts(*reader.update()).traces == full.traces);
        }
        test::writeBytes(file, original);
    }
}

TEST_CASE("a flipped bit anywhere in a record loses that record alone", "[robustness]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const fs::path file = test::fileEndingIn(dir.path(), ".graph_execution_traces");
    const std::string original = test::readBytes(file);
    const auto starts = recordStarts(original);
    const std::size_t records = starts.size() - 1;
    for (std::size_t byte = 0; byte < original.size(); ++byte) {
        std::string bytes = original;
        bytes[byte] = static_cast<char>(bytes[byte] ^ (1 << (byte % 8)));
        test::writeBytes(file, bytes);
        const auto s = LogdirReader(dir.path()).update();
        const std::size_t record = completeRecordsBefore(starts, byte);
        INFO("bit flipped in byte " << byte << " (record " << record << ")");
        // NaNscope reads on at the next whole record; TensorFlow's reader stops at the corrupt
        // one, and the TensorBoard view says so.
        CHECK(s->traceCount() == records - 1);
        CHECK(s->tensorBoardTraceCount() == record);
        REQUIRE(s->tensorBoardStops().size() == 1);
        CHECK(s->tensorBoardStops()[0].offset == starts[record]);
        CHECK(s->tensorBoardStops()[0].file == file.string());
        const bool last = record + 1 == records;
        const Diagnostic* error =
            test::findDiagnostic(*s, Severity::Error, last ? "corrupt record" : "corrupt data");
        REQUIRE(error != nullptr);
        CHECK(error->offset == starts[record]);
        CHECK(error->file == file.string());
        if (!last) {
            const std::string range = "bytes " + std::to_string(starts[record]) + " to " +
                                      std::to_string(starts[record + 1]);
            CHECK_THAT(error->message, Catch::Contains(range));
            CHECK_THAT(error->message,
                       Catch::Contains(std::to_string(records - record - 1) + " record"));
        }
        // The other files are untouched.
        CHECK(s->executionCount() == 2);
        CHECK(s->graphs().declaredOpCount() == 4);
    }
}

TEST_CASE("impossible lengths are never allocated", "[robustness]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const fs::path file = test::fileEndingIn(dir.path(), ".graph_execution_traces");
    const std::string original = test::readBytes(file);
    SECTION("a length of 2^63 with a valid CRC")
    {
        test::writeBytes(file, original + test::recordHeader(std::uint64_t{1} << 63) + "tail");
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->traceCount() == 4);
        const Diagnostic* error = test::findDiagnostic(*s, Severity::Error, "length field");
        REQUIRE(error != nullptr);
        CHECK(error->offset == original.size());
    }
    SECTION("a length of 1 GiB in a small file is a record still being written")
    {
        test::writeBytes(file, original + test::recordHeader(std::uint64_t{1} << 30) + "partial");
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->traceCount() == 4);
        CHECK(test::findDiagnostic(*s, Severity::Info, "incomplete record") != nullptr);
    }
}

TEST_CASE("garbage and empty files", "[robustness]")
{
    test::TempDir dir;
    SECTION("a garbage trace file with a valid name")
    {
        test::writeSmallLogdir(dir.path());
        const fs::path file = test::fileEndingIn(dir.path(), ".graph_execution_traces");
        std::mt19937 random(7);
        std::string garbage(4096, '\0');
        for (auto& c : garbage)
            c = static_cast<char>(random());
        test::writeBytes(file, garbage);
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->traceCount() == 0);
        const Diagnostic* error = test::findDiagnostic(*s, Severity::Error, "corrupt record");
        REQUIRE(error != nullptr);
        CHECK(error->offset == 0);
        CHECK(s->executionCount() == 2);
        CHECK(s->graphs().declaredOpCount() == 4);
    }
    SECTION("six empty files but the metadata")
    {
        FileSetWriter set = test::emptyRun(dir.path());
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->readable());
        CHECK(s->traceCount() == 0);
        CHECK(s->diagnostics().empty());
        CHECK_FALSE(s->origin());
    }
    SECTION("missing companion files are read as empty")
    {
        FileSetWriter set(dir.path());
        set.writeMetadata(1.0, "run");
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->readable());
        CHECK(test::findDiagnostic(*s, Severity::Warning, "missing") != nullptr);
    }
    SECTION("an unreadable file")
    {
        test::writeSmallLogdir(dir.path());
        const fs::path file = test::fileEndingIn(dir.path(), ".graphs");
        fs::remove(file);
        fs::create_directory(file); // a directory where a file should be
        const auto s = LogdirReader(dir.path()).update();
        CHECK(test::findDiagnostic(*s, Severity::Error, "cannot open") != nullptr);
        CHECK(s->traceCount() == 4); // kept, with unknown ops
        CHECK(s->executionCount() == 2);
    }
    SECTION("no metadata: the data is still read")
    {
        test::writeSmallLogdir(dir.path());
        fs::remove(test::fileEndingIn(dir.path(), ".metadata"));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->traceCount() == 4);
        CHECK(test::findDiagnostic(*s, Severity::Warning, "no readable metadata") != nullptr);
    }
    SECTION("mixed run ids: the chosen run's data is complete")
    {
        test::writeSmallLogdir(dir.path());
        FileSetWriter other(dir.path(), "elsewhere", 1500000000);
        other.createAll();
        other.writeMetadata(1500000000.0, "other-run");
        other.append("graph_execution_traces", ev::trace(1, "g", "x", 0, 2, ev::curtHealth(1, 1)));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->layout().runId == "run1");
        CHECK(s->traceCount() == 4);
        CHECK(test::findDiagnostic(*s, Severity::Warning, "\"other-run\"") != nullptr);
    }
}

TEST_CASE("records with valid CRCs and random payloads", "[robustness]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const std::string valid =
        ev::trace(2.0, "g", "Log", 0, 4, ev::fullHealth(3, 4, 1, 0, 0, 2, 0, 1))
            .SerializeAsString();
    std::mt19937 random(42);
    std::string bytes;
    std::size_t records = 0;
    for (int i = 0; i < 300; ++i) {
        std::string payload = valid;
        if (i % 3 == 0) { // random bytes of random length
            payload.resize(random() % 200);
            for (auto& c : payload)
                c = static_cast<char>(random());
        } else { // a valid payload with a few bytes changed or cut
            for (int k = 0; k < 1 + i % 4; ++k)
                payload[random() % payload.size()] = static_cast<char>(random());
            if (i % 5 == 0)
                payload.resize(random() % payload.size());
        }
        format::appendRecord(bytes, payload);
        ++records;
    }
    for (const char* suffix :
         {".graph_execution_traces", ".execution", ".graphs", ".stack_frames", ".source_files"})
        test::appendBytes(test::fileEndingIn(dir.path(), suffix), bytes);
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    CHECK(s->traceCount() >= 4);
    CHECK(s->traceCount() <= 4 + records);
    CHECK(s->executionCount() >= 2);
    CHECK_FALSE(s->diagnostics().empty());
    // Every trace that was kept can be read back in full or says why not.
    for (std::uint64_t i = 0; i < s->traceCount(); ++i)
        (void)s->readTrace(i);
    (void)s->origin();
    (void)s->propagation();
}

TEST_CASE("a multi-chunk trace file: skipped records, unknown ops, a corrupt record",
          "[robustness]")
{
    // Large enough to be decoded as several chunks in parallel and stitched back in order.
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    std::string bytes;
    std::vector<double> kept;      // wall times of the traces expected, in order
    std::size_t beforeCorrupt = 0; // of those, the traces TensorFlow's reader reads
    std::size_t corruptOffset = 0;
    constexpr int kRecords = 125'000;
    constexpr int kCorruptAt = 100'000;
    for (int i = 0; i < kRecords; ++i) {
        if (i == kCorruptAt)
            corruptOffset = bytes.size();
        if (i % 1000 == 7) { // not a trace: skipped, and the indices close up
            bytes += test::framed(ev::graph("x", "not a trace"));
            continue;
        }
        const bool unknown = i % 4000 == 11;
        std::string record = test::framed(
            ev::trace(i, "g", unknown ? "ghost" : "r", 0, 2, ev::curtHealth(1, i % 97 == 0)));
        if (i == kCorruptAt)
            record[record.size() - 1] = static_cast<char>(record.back() ^ 0x40);
        bytes += record;
        if (i != kCorruptAt)
            kept.push_back(i);
        if (i < kCorruptAt)
            beforeCorrupt = kept.size();
    }
    set.appendBytes("graph_execution_traces", bytes);
    REQUIRE(bytes.size() > 3 * kReadChunkBytes);

    const auto s = LogdirReader(dir.path(), {.threads = 3}).update();
    REQUIRE(s->traceCount() == kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (s->trace(i).wallTime != kept[i])
            FAIL("trace " << i << " has wall time " << s->trace(i).wallTime << ", not " << kept[i]);
    std::uint64_t alerts = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const auto wall = static_cast<int>(kept[i]);
        const OpInfo& op = s->graphs().op(s->trace(i).op);
        if (op.name != (wall % 4000 == 11 ? "ghost" : "r"))
            FAIL("trace " << i << " names op " << op.name);
        if (wall % 97 == 0) {
            REQUIRE(alerts < s->alertCount());
            CHECK(s->alert(alerts).event.index == i);
            ++alerts;
        }
    }
    CHECK(s->alertCount() == alerts);
    const Diagnostic* error = test::findDiagnostic(*s, Severity::Error, "corrupt data");
    REQUIRE(error != nullptr);
    CHECK(error->offset == corruptOffset);
    CHECK(s->tensorBoardTraceCount() == beforeCorrupt);
    CHECK(test::findDiagnostic(*s, Severity::Warning, "not a GraphExecutionTrace record") !=
          nullptr);
    CHECK(test::findDiagnostic(*s, Severity::Warning, "name op \"ghost\"") != nullptr);
}

TEST_CASE("a byte budget smaller than a record header reads one record, not a chunk",
          "[robustness]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    LogdirReader reader(dir.path());
    // Before, a budget that ended inside a header widened the window to a whole chunk (1 MiB),
    // so a tiny budget read everything at once.
    const auto first = reader.update({.maxTraceBytes = 5});
    CHECK(first->traceCount() == 1);
    CHECK_FALSE(first->complete());
    CHECK(reader.update()->traceCount() == 4);
}

TEST_CASE("summary vectors whose dtype and rank slots no int can hold", "[robustness]")
{
    // Found by fuzzing: the conversion of such a double to int was undefined behaviour.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bool malformed = false;
    const std::vector<double> full = {1, -1, nan, 1e300, 4, 0, 0, 0, 0, 0, 4};
    const TensorHealth h = healthFromSummary(DebugMode::FullHealth, full, full.size(), malformed);
    CHECK(h.dtype == DType::Invalid);
    CHECK(h.rank == -1);
    CHECK(h.size == 4);
    const std::vector<double> shape = {1, -3e231, std::numeric_limits<double>::infinity(), 4};
    const TensorHealth s = healthFromSummary(DebugMode::Shape, shape, shape.size(), malformed);
    CHECK(s.dtype == DType::Invalid);
    CHECK(s.rank == -1);
    const std::vector<double> valid = {1, 1, 2, 6};
    const TensorHealth v = healthFromSummary(DebugMode::Shape, valid, valid.size(), malformed);
    CHECK(v.dtype == DType::Float32);
    CHECK(v.rank == 2);
}

TEST_CASE("wall times that no clock shows are printed as unknown", "[robustness]")
{
    // Found by fuzzing: converting such a metadata wall time to time_t was undefined behaviour.
    for (const double wallTime : {4.0832e+233, -1e300, std::numeric_limits<double>::quiet_NaN()}) {
        test::TempDir dir;
        FileSetWriter set(dir.path());
        set.createAll();
        set.writeMetadata(wallTime, "run");
        const std::string text = renderText(buildReport(*LogdirReader(dir.path()).update()));
        INFO(text);
        CHECK_THAT(text, Catch::Contains("started unknown"));
    }
}
