// SPDX-License-Identifier: GPL-3.0-or-later
// A logdir that lost records says so. When the recorder drops records after a failed write (a
// full disk, a file-size limit), every file stays a clean prefix, and a record appended to the
// .metadata file notes the loss (RecorderLosses, a field TensorFlow's DebugEvent does not have).
// TensorFlow's reader reads only the metadata file's first record (DebugEventsReader reads offset
// 0 and nothing else), so the note never reaches it; our reader turns it into an error
// diagnostic, and nanscope-report exits 3.
#include "childrun.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "reportcommand.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <sys/resource.h>

using namespace nanscope;
using namespace nanscope::core;

namespace {

std::filesystem::path fileEndingWith(const std::filesystem::path& dir, const std::string& suffix)
{
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().string().ends_with(suffix))
            return e.path();
    FAIL("no file ending with " << suffix);
    return {};
}

std::vector<tfdbg::DebugEvent> records(const std::filesystem::path& file)
{
    format::RecordFileReader reader;
    REQUIRE(reader.open(file));
    std::vector<tfdbg::DebugEvent> events;
    std::string payload;
    while (reader.next(payload) == format::RecordStatus::Ok) {
        events.emplace_back();
        REQUIRE(events.back().ParseFromString(payload));
    }
    return events;
}

// Records under a file-size limit of 64 KiB until traces are dropped, in a child process.
void recordPastTheLimit(const std::filesystem::path& dir)
{
    const auto result = test::runInChild(60, [&] {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{64 * 1024, 64 * 1024};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto r = Recorder::open({.dumpRoot = dir,
                                 .mode = TensorDebugMode::FullTensor,
                                 .circularBufferSize = -1,
                                 .runId = "lossy"});
        if (!r.ok())
            return 11;
        auto& rec = **r;
        auto graph = rec.declareGraph("g");
        auto op = rec.declareOp({.graph = *graph, .type = "Big", .name = "big"});
        std::vector<float> values(1000, 1.0f); // ~4 KB per record
        const std::int64_t shape[1] = {1000};
        for (int i = 0; i < 100; ++i)
            (void)rec.recordTrace(*op, 0, {.data = values.data(), .shape = shape});
        (void)rec.close();
        return rec.stats().recordsDropped > 0 ? 0 : 12;
    });
    REQUIRE(result.code == 0);
}

} // namespace

TEST_CASE("a logdir whose recorder dropped records says so", "[losses]")
{
    test::TempDir dir;
    recordPastTheLimit(dir.path());

    // The first metadata record is TensorFlow's, untouched; the note comes after it.
    const auto metadata = records(fileEndingWith(dir.path(), ".metadata"));
    REQUIRE(metadata.size() >= 2);
    CHECK(metadata[0].has_debug_metadata());
    CHECK(metadata[0].debug_metadata().tfdbg_run_id() == "lossy");
    CHECK_FALSE(metadata[0].has_nanscope_recorder_losses());
    const auto& note = metadata.back();
    REQUIRE(note.has_nanscope_recorder_losses());
    CHECK(note.debug_metadata().tfdbg_run_id() == "lossy");
    CHECK(note.nanscope_recorder_losses().records_dropped() > 0);
    CHECK_THAT(note.nanscope_recorder_losses().first_error(), Catch::Contains("File too large"));
    REQUIRE(note.nanscope_recorder_losses().stopped_files_size() >= 1);
    CHECK(note.nanscope_recorder_losses().stopped_files(0) == "graph_execution_traces");

    const auto s = LogdirReader(dir.path()).update();
    const Diagnostic* d = test::findDiagnostic(
        *s, Severity::Error,
        "the recorder that wrote this file set lost " +
            std::to_string(note.nanscope_recorder_losses().records_dropped()) + " records");
    REQUIRE(d != nullptr);
    CHECK_THAT(d->message, Catch::Contains("File too large"));
    CHECK_THAT(d->message, Catch::Contains("\"graph_execution_traces\""));
    CHECK_THAT(d->file, Catch::EndsWith(".metadata"));
    CHECK(s->traceCount() > 0); // what was written is read
    // Nothing else about the metadata file: the note is not an odd extra record.
    for (const auto& other : s->diagnostics())
        CHECK_FALSE((other.file.ends_with(".metadata") && &other != d));

    const auto report = test::runReport(test::shellQuoted(dir.path()));
    CHECK(report.status == 3); // reading is not complete: the run is not all here
    CHECK(test::runReport("--allow-partial " + test::shellQuoted(dir.path())).status == 0);
}

TEST_CASE("records after the first in a metadata file are diagnosed", "[losses][hostile]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    const auto metadataFile = fileEndingWith(dir.path(), ".metadata");
    SECTION("another run's metadata")
    {
        test::appendBytes(metadataFile, test::framed(test::events::metadata(5.0, "otherrun")));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(test::findDiagnostic(*s, Severity::Warning,
                                   "a second DebugMetadata record, of run \"otherrun\""));
    }
    SECTION("a record that is not metadata")
    {
        test::appendBytes(metadataFile, test::framed(test::events::graph("g2", "two")));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(test::findDiagnostic(*s, Severity::Warning,
                                   "a record after the metadata record is not a DebugMetadata"));
    }
    SECTION("a garbage tail, even a huge sparse one")
    {
        test::appendBytes(metadataFile, std::string(100, '\x55'));
        const auto size = std::filesystem::file_size(metadataFile);
        std::filesystem::resize_file(metadataFile, size + (std::uint64_t{100} << 30)); // 100 GiB
        const auto result = test::runInChild(30, [&] {
            const auto s = LogdirReader(dir.path()).update();
            return test::findDiagnostic(*s, Severity::Warning,
                                        "bytes after the metadata record are not a record")
                       ? 0
                       : 1;
        });
        CHECK(result.code == 0);
        CHECK(result.peakGrowthKiB < 50 * 1024);
    }
}
