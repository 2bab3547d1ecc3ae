// SPDX-License-Identifier: GPL-3.0-or-later
// I/O errors while writing: reported to the caller, the program goes on, the logdir stays
// readable. Each case runs in a child process, since it changes process-wide limits.
#include "inchild.hpp"
#include "logdirfixture.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace nanscope;

namespace {

// The number of whole records in a file, and whether it ends cleanly.
std::pair<int, format::RecordStatus> countRecords(const std::filesystem::path& file)
{
    format::RecordFileReader reader;
    REQUIRE(reader.open(file));
    std::string payload;
    int n = 0;
    format::RecordStatus s;
    while ((s = reader.next(payload)) == format::RecordStatus::Ok)
        ++n;
    return {n, s};
}

} // namespace

TEST_CASE("a file size limit is reported, the program goes on, the file stays readable", "[errors]")
{
    test::TempDir dir;
    // Exit codes: 0 = an IoError came back and later calls still returned; others = failures.
    const int code = test::inChild([&] {
        std::signal(SIGXFSZ, SIG_IGN); // report EFBIG instead of killing the process
        rlimit limit{64 * 1024, 64 * 1024};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto r = Recorder::open({.dumpRoot = dir.path(),
                                 .mode = TensorDebugMode::FullTensor,
                                 .circularBufferSize = -1});
        if (!r.ok())
            return 11;
        auto& rec = **r;
        auto graph = rec.declareGraph("g");
        auto op = rec.declareOp({.graph = *graph, .type = "Big", .name = "big"});
        std::vector<float> values(1000, 1.0f); // ~4 KB per record
        const std::int64_t shape[1] = {1000};
        bool sawError = false;
        for (int i = 0; i < 200; ++i) {
            const Status s = rec.recordTrace(*op, 0, {.data = values.data(), .shape = shape});
            if (!s.ok()) {
                if (s.code() != ErrorCode::IoError ||
                    s.message().find("graph_execution_traces") == std::string::npos)
                    return 12;
                sawError = true;
            }
        }
        const Status closed = rec.close();
        if (!sawError && closed.ok())
            return 13;
        if (rec.firstError().ok() || rec.stats().recordsDropped == 0)
            return 14;
        return 0;
    });
    REQUIRE(code == 0);
    const auto [records, end] = countRecords(test::findFile(dir.path(), "graph_execution_traces"));
    CHECK(end == format::RecordStatus::EndOfData); // no torn record left behind
    CHECK(records > 0);
    CHECK(records < 200);
    CHECK(std::filesystem::file_size(test::findFile(dir.path(), "graph_execution_traces")) <=
          64 * 1024);
}

TEST_CASE("a dump root the process may not write to is a clear error", "[errors]")
{
    test::TempDir dir;
    const auto root = dir.path() / "locked";
    std::filesystem::create_directory(root);
    std::filesystem::permissions(
        root, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                  std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                  std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
    const int code = test::inChild([&] {
        // Root may write anywhere: become an unprivileged user for the test.
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            return 20;
        auto r = Recorder::open({.dumpRoot = root / "logdir"});
        if (r.ok())
            return 21;
        if (r.status().code() != ErrorCode::IoError)
            return 22;
        if (r.status().message().find("ermission denied") == std::string::npos)
            return 23;
        auto direct = Recorder::open({.dumpRoot = root});
        if (direct.ok() || direct.status().message().find("cannot create") == std::string::npos)
            return 24;
        return 0;
    });
    CHECK(code == 0);
    CHECK(std::filesystem::is_empty(root));
}

// The default action of SIGXFSZ kills the process: the program being recorded must not die of
// its debugger reaching RLIMIT_FSIZE (`ulimit -f`), in write-through mode or at close.
TEST_CASE("a file size limit never kills the program through SIGXFSZ", "[errors]")
{
    test::TempDir dir;
    const int code = test::inChild([&] {
        std::signal(SIGXFSZ, SIG_DFL);
        rlimit limit{32 * 1024, 32 * 1024};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto r = Recorder::open({.dumpRoot = dir.path(),
                                 .mode = TensorDebugMode::FullTensor,
                                 .circularBufferSize = -1});
        if (!r.ok())
            return 11;
        auto& rec = **r;
        auto graph = rec.declareGraph("g");
        auto op = rec.declareOp({.graph = *graph, .type = "Big", .name = "big"});
        std::vector<float> values(1000, 1.0f);
        const std::int64_t shape[1] = {1000};
        bool tooLarge = false;
        for (int i = 0; i < 100; ++i) {
            const Status s = rec.recordTrace(*op, 0, {.data = values.data(), .shape = shape});
            tooLarge |= !s.ok() && s.message().find("File too large") != std::string::npos;
        }
        (void)rec.close();
        tooLarge |= rec.firstError().message().find("File too large") != std::string::npos;
        return tooLarge ? 0 : 12;
    });
    CHECK(code == 0); // 128 + SIGXFSZ (153) when the signal killed it
    const auto [records, end] = countRecords(test::findFile(dir.path(), "graph_execution_traces"));
    CHECK(end == format::RecordStatus::EndOfData);
    CHECK(records > 0);
}

TEST_CASE("an open that fails leaves no file behind", "[errors]")
{
    test::TempDir dir;
    const int code = test::inChild([&] {
        std::signal(SIGXFSZ, SIG_DFL);
        rlimit limit{0, 0}; // files can be created, not written: the metadata record fails
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto r = Recorder::open({.dumpRoot = dir.path()});
        return r.ok() ? 11 : r.status().code() == ErrorCode::IoError ? 0 : 12;
    });
    CHECK(code == 0);
    CHECK(std::filesystem::is_empty(dir.path()));
}

// tfdbg2's text fields are protobuf strings, which must be UTF-8: libprotobuf and TensorFlow's
// reader refuse a whole record whose string is not (found by fuzzing the C interface). Names the
// program gives are refused; text the recorder finds (a source file in Latin-1, a path, a
// function name) is made valid.
TEST_CASE("strings that are not UTF-8 never make a record unreadable", "[errors]")
{
    test::TempDir dir;
    const auto source = dir.path() / "latin1.cpp";
    {
        std::ofstream out(source, std::ios::binary);
        out << "// caf\xe9\nint main() {}\n";
    }
    auto r = Recorder::open({.dumpRoot = dir.path() / "logdir", .circularBufferSize = -1});
    REQUIRE(r.ok());
    auto& rec = **r;
    const auto badGraph = rec.declareGraph("g\xff");
    REQUIRE_FALSE(badGraph.ok());
    CHECK(badGraph.status().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(badGraph.status().message(), Catch::Contains("UTF-8"));
    auto graph = rec.declareGraph("g");
    REQUIRE(graph.ok());
    CHECK_FALSE(rec.declareOp({.graph = *graph, .type = "Log", .name = "lo\xc0\xafg"}).ok());
    auto op = rec.declareOp({.graph = *graph, .type = "Log", .name = "log"},
                            CodeLocation(source.string(), 2, "ma\xffin"));
    REQUIRE(op.ok());
    CHECK_FALSE(rec.recordExecution({.opType = "\xed\xa0\x80"}).ok()); // a surrogate
    REQUIRE(rec.close().ok());

    // Every record of every file parses, and the Latin-1 byte became U+FFFD.
    for (const char* suffix : {"source_files", "stack_frames", "graphs", "execution"}) {
        format::RecordFileReader reader;
        REQUIRE(reader.open(test::findFile(dir.path() / "logdir", suffix)));
        std::string payload;
        while (reader.next(payload) == format::RecordStatus::Ok) {
            tfdbg::DebugEvent event;
            CHECK(event.ParseFromString(payload));
            if (event.has_source_file() && event.source_file().lines_size() > 0)
                CHECK(event.source_file().lines(0) == "// caf\xef\xbf\xbd");
            if (event.has_stack_frame_with_id())
                CHECK(event.stack_frame_with_id().file_line_col().func() == "ma\xef\xbf\xbdin");
        }
    }
}
