// SPDX-License-Identifier: GPL-3.0-or-later
// RecorderOptions::flushOnCrash: a program that records with a circular buffer (nothing on disk
// yet) and then crashes leaves a logdir with its events, and dies as it would have without it.
#include "childprocess.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>

using namespace nanscope;
using namespace nanscope::core;

namespace {

test::ExitStatus runChild(const test::TempDir& dir, const std::string& mode, bool flush,
                          bool ownHandler = false)
{
    return test::runQuiet({NANSCOPE_CRASH_CHILD, dir.path().string(), mode, flush ? "1" : "0",
                           ownHandler ? "1" : "0"});
}

bool hasError(const Snapshot& s)
{
    for (const auto& d : s.diagnostics())
        if (d.severity == Severity::Error)
            return true;
    return false;
}

// Sanitizer builds handle SIGSEGV themselves, report, and exit or abort: still a crash.
bool crashed(const test::ExitStatus& s, int signal)
{
    return (!s.exited && (s.signal == signal || s.signal == SIGABRT)) || (s.exited && s.code != 0);
}

} // namespace

TEST_CASE("abort(): the buffered traces and executions are written, then the program aborts",
          "[crash]")
{
    test::TempDir dir;
    const auto status = runChild(dir, "abort", true);
    CHECK_FALSE(status.exited);
    CHECK(status.signal == SIGABRT);
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->traceCount() == 50);
    CHECK(s->executionCount() == 5);
    CHECK(s->graphs().declaredOpCount() == 1);
    CHECK(s->alertCount() == 0);
    CHECK_FALSE(hasError(*s));
}

TEST_CASE("a segmentation fault: the buffered events are written, then the program dies of it",
          "[crash]")
{
    test::TempDir dir;
    const auto status = runChild(dir, "segv", true);
    CHECK(crashed(status, SIGSEGV));
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->traceCount() == 50);
    CHECK(s->executionCount() == 5);
    CHECK_FALSE(hasError(*s));
}

TEST_CASE("without flushOnCrash the circular buffers die with the program", "[crash]")
{
    test::TempDir dir;
    const auto status = runChild(dir, "abort", false);
    CHECK(status.signal == SIGABRT);
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->traceCount() == 0);
    CHECK(s->executionCount() == 0);
}

TEST_CASE("the program's own crash handler still runs after the flush", "[crash]")
{
    test::TempDir dir;
    for (const char* mode : {"abort", "segv"}) {
        std::filesystem::remove_all(dir.path());
        std::filesystem::create_directories(dir.path());
        INFO(mode);
        const auto status = runChild(dir, mode, true, true);
        CHECK(status.exited);
        CHECK(status.code == 42);
        CHECK(std::filesystem::exists(dir.path() / "own-handler-ran"));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->traceCount() == 50);
        CHECK(s->executionCount() == 5);
    }
}
