// SPDX-License-Identifier: GPL-3.0-or-later
// Faults while writing that need no privileges: a file-size limit and a logdir removed under the
// recorder. The recorder reports them, the program goes on, and what was written is read back
// cleanly by the core reader. (A full disk is tst_disk_full.cpp; the recorder tests check the
// recorder's own side of the file-size limit.)
#include "inchild.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLossNote = "the recorder that wrote this file set lost ";

// The error diagnostics other than the recorder's note of lost records (which a test of lost
// records expects: lostRecordsNoted).
std::vector<Diagnostic> errorsOf(const Snapshot& s)
{
    std::vector<Diagnostic> errors;
    for (const auto& d : s.diagnostics())
        if (d.severity == Severity::Error && d.message.find(kLossNote) == std::string::npos)
            errors.push_back(d);
    return errors;
}

bool lostRecordsNoted(const Snapshot& s)
{
    for (const auto& d : s.diagnostics())
        if (d.severity == Severity::Error && d.message.find(kLossNote) != std::string::npos)
            return true;
    return false;
}

// A source file per op, with a long path so that the source-file records outgrow the others.
std::string sourceOf(int k)
{
    return "/nonexistent/" + std::string(200, 'd') + "/source-" + std::to_string(k) + ".cpp";
}

// A recorder that writes each event through (no circular buffer) and flushes every 5 ms.
auto openWriteThrough(const fs::path& root)
{
    return Recorder::open({.dumpRoot = root,
                           .mode = TensorDebugMode::FullHealth,
                           .circularBufferSize = -1,
                           .flushInterval = std::chrono::milliseconds(5)});
}

} // namespace

TEST_CASE("a file-size limit: what was written reads back cleanly, as a prefix, frames never "
          "point at a wrong or lost source file",
          "[faults]")
{
    test::TempDir dir;
    constexpr int kFirst = 100; // ops declared before the first flush: one batch per file
    constexpr int kLater = 5;   // then one op per flush
    const int code = test::inChild([&] {
        std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of death
        // The first batch of source-file records (~25 KB) fails, those of frames and ops fit.
        rlimit limit{20 * 1024, 20 * 1024};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto r = Recorder::open({.dumpRoot = dir.path(),
                                 .mode = TensorDebugMode::FullHealth,
                                 .circularBufferSize = -1,
                                 .flushInterval = std::chrono::hours(1)});
        if (!r)
            return 11;
        auto& rec = **r;
        auto graph = rec.declareGraph("g");
        auto declare = [&](int k) {
            return rec.declareOp({.graph = *graph, .type = "Op", .name = "op-" + std::to_string(k)},
                                 CodeLocation(sourceOf(k), k + 1, "f" + std::to_string(k)));
        };
        for (int k = 0; k < kFirst; ++k)
            if (!declare(k))
                return 12;
        const Status first = rec.flush();
        if (first.ok() || first.code() != ErrorCode::IoError ||
            first.message().find("source_files") == std::string::npos)
            return 13;
        // Later, smaller batches would fit; but a stack frame names its file by position and an
        // op its frames, so nothing is written after a lost record: the files stay prefixes.
        for (int k = kFirst; k < kFirst + kLater; ++k) {
            if (!declare(k))
                return 14;
            (void)rec.flush();
        }
        const float values[4] = {1, 2, 3, 4};
        const std::int64_t shape[1] = {4};
        auto op = declare(1000);
        for (int i = 0; i < 10 && op; ++i)
            (void)rec.recordTrace(*op, 0, {.data = values, .shape = shape});
        (void)rec.close();
        return rec.firstError().code() == ErrorCode::IoError ? 0 : 15;
    });
    REQUIRE(code == 0);

    const auto s = LogdirReader(dir.path()).update();
    for (const auto& d : errorsOf(*s))
        FAIL_CHECK(d.file << ": " << d.message);
    CHECK(lostRecordsNoted(*s)); // the logdir says that it is not the whole run
    const GraphTable& g = s->graphs();
    // The source files that fit under the limit were written, and nothing after the first lost
    // one: no frame, no op, no trace, since any of them could name a lost record.
    CHECK(s->code().files().size() > 0);
    CHECK(s->code().files().size() < static_cast<std::size_t>(kFirst));
    CHECK(g.declaredOpCount() < static_cast<std::size_t>(kFirst));
    CHECK(s->traceCount() == 0);
    for (const auto& op : g.ops()) {
        const int k = std::stoi(op.name.substr(3));
        for (const auto& frame : s->resolveStack(op.stackFrameIds)) {
            INFO(op.name << " resolves to " << frame.filePath);
            CHECK(frame.filePath == sourceOf(k)); // never unknown, never wrong
            CHECK(frame.line == k + 1);
        }
    }
}

TEST_CASE("the logdir removed while recording: reported, writing stops, the program goes on",
          "[faults]")
{
    test::TempDir dir;
    const fs::path root = dir.path() / "logdir";
    auto r = openWriteThrough(root);
    REQUIRE(r);
    auto& rec = **r;
    auto graph = rec.declareGraph("g");
    auto op = rec.declareOp({.graph = *graph, .type = "Exp", .name = "exp"});
    const float values[4] = {1, 2, 3, 4};
    const std::int64_t shape[1] = {4};
    for (int i = 0; i < 20; ++i)
        CHECK(rec.recordTrace(*op, 0, {.data = values, .shape = shape}).ok());
    CHECK(rec.flush().ok());

    fs::remove_all(root);
    // Recording goes on; within a few flush intervals the recorder notices and says so.
    Status error;
    int told = 0; // record calls that returned the error
    for (int i = 0; i < 400 && error.ok(); ++i) {
        told += rec.recordTrace(*op, 0, {.data = values, .shape = shape}).ok() ? 0 : 1;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        error = rec.firstError();
    }
    REQUIRE_FALSE(error.ok());
    CHECK(error.code() == ErrorCode::IoError);
    CHECK_THAT(error.message(), Catch::Contains("was removed"));
    // A record call is told once (the error was met in the background: the call at the latest
    // is the next one); then calls succeed.
    told += rec.recordTrace(*op, 0, {.data = values, .shape = shape}).ok() ? 0 : 1;
    CHECK(told == 1);
    CHECK(rec.recordTrace(*op, 0, {.data = values, .shape = shape}).ok());
    (void)rec.flush();
    CHECK(rec.stats().recordsDropped > 0);
    // The removed files are closed: their disk space is not held by a descriptor nobody reads.
    for (const auto& fd : fs::directory_iterator("/proc/self/fd")) {
        std::error_code ec;
        const std::string target = fs::read_symlink(fd.path(), ec).string();
        CHECK(target.find(root.string()) == std::string::npos);
    }
    (void)rec.close();

    // The program can start over in the same place, and that logdir is whole.
    auto again = Recorder::open({.dumpRoot = root, .circularBufferSize = -1});
    REQUIRE(again);
    auto g2 = (*again)->declareGraph("g");
    auto op2 = (*again)->declareOp({.graph = *g2, .type = "Exp", .name = "exp"});
    CHECK((*again)->recordTrace(*op2, 0, {.data = values, .shape = shape}).ok());
    CHECK((*again)->close().ok());
    const auto s = LogdirReader(root).update();
    CHECK(s->traceCount() == 1);
    CHECK(s->diagnostics().empty());
}

TEST_CASE("one file of the logdir removed: the others are still written and read", "[faults]")
{
    test::TempDir dir;
    auto r = openWriteThrough(dir.path());
    REQUIRE(r);
    auto& rec = **r;
    auto graph = rec.declareGraph("g");
    auto op = rec.declareOp({.graph = *graph, .type = "Exp", .name = "exp"});
    const float values[4] = {1, 2, 3, 4};
    const std::int64_t shape[1] = {4};
    CHECK(rec.recordTrace(*op, 0, {.data = values, .shape = shape}).ok());
    CHECK(rec.flush().ok());
    fs::path traces = rec.filePrefix();
    traces += ".graph_execution_traces";
    fs::remove(traces);
    auto later = rec.declareOp({.graph = *graph, .type = "Log", .name = "log"});
    REQUIRE(later);
    for (int i = 0; i < 400 && rec.firstError().ok(); ++i) {
        (void)rec.recordTrace(*later, 0, {.data = values, .shape = shape});
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    CHECK_THAT(rec.firstError().message(), Catch::Contains("graph_execution_traces"));
    (void)rec.flush();       // told once
    CHECK(rec.flush().ok()); // the other files are fine
    (void)rec.close();
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->graphs().declaredOpCount() == 2); // written after the removal too
    CHECK(s->traceCount() == 0);
    CHECK(errorsOf(*s).empty());
    CHECK(lostRecordsNoted(*s)); // the removed file's records were dropped
}
