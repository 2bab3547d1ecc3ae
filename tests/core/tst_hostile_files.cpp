// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile files: symbolic links that lead out of the logdir, a FIFO where a file should be, and a
// file that grows while it is read.
//
// Links: a logdir is often written by someone else's program into a shared place. A link there to
// a file outside would make NaNscope read — and show in reports and diagnostics — whatever the
// person looking at the logdir may read (or block on a device), so links that leave the logdir
// are not followed; links within it are.
#include "childrun.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "snapshotsearch.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <sys/stat.h>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;
namespace fs = std::filesystem;

TEST_CASE("a symbolic link out of the logdir is not followed", "[hostile][files]")
{
    test::TempDir top;
    const fs::path logdir = top.path() / "logdir";
    const fs::path elsewhere = top.path() / "elsewhere";
    fs::create_directories(logdir);
    fs::create_directories(elsewhere);
    test::writeSmallLogdir(logdir);
    const fs::path traces = test::fileEndingIn(logdir, "graph_execution_traces");
    const fs::path outside = elsewhere / "traces";
    fs::rename(traces, outside);

    SECTION("relative")
    {
        fs::create_symlink("../elsewhere/traces", traces);
    }
    SECTION("absolute")
    {
        fs::create_symlink(outside, traces);
    }
    SECTION("through a link inside that leads out")
    {
        fs::create_symlink(outside, logdir / "hop");
        fs::create_symlink("hop", traces);
    }
    const auto s = LogdirReader(logdir).update();
    CHECK(s->traceCount() == 0);
    const Diagnostic* d = test::findDiagnostic(*s, Severity::Error, "outside the logdir");
    REQUIRE(d != nullptr);
    CHECK(d->file == traces.string());
    CHECK(s->executionCount() == 2); // the other files are read
}

TEST_CASE("a metadata file that links out of the logdir is not read", "[hostile][files]")
{
    test::TempDir top;
    const fs::path logdir = top.path() / "logdir";
    fs::create_directories(logdir);
    test::writeSmallLogdir(logdir);
    const fs::path metadata = test::fileEndingIn(logdir, "metadata");
    fs::rename(metadata, top.path() / "metadata");
    fs::create_symlink(top.path() / "metadata", metadata);
    const auto s = LogdirReader(logdir).update();
    CHECK(test::findDiagnostic(*s, Severity::Error, "outside the logdir") != nullptr);
    CHECK(s->layout().runId.empty()); // the run id lives only in that file
}

TEST_CASE("symbolic links within the logdir are followed", "[hostile][files]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const fs::path traces = test::fileEndingIn(dir.path(), "graph_execution_traces");
    const fs::path graphs = test::fileEndingIn(dir.path(), "graphs");
    fs::create_directories(dir.path() / "data");
    fs::rename(traces, dir.path() / "data" / "traces");
    fs::rename(graphs, dir.path() / "graphs-copy");
    fs::create_symlink("data/traces", traces);              // relative, into a subdirectory
    fs::create_symlink(dir.path() / "graphs-copy", graphs); // absolute, but inside
    const auto s = LogdirReader(dir.path()).update();
    CHECK(s->traceCount() == 4);
    CHECK(s->graphs().declaredOpCount() == 4);
    CHECK(s->diagnostics().empty());
}

TEST_CASE("a FIFO where a file should be does not block the reader", "[hostile][files]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    const fs::path graphs = test::fileEndingIn(dir.path(), "graphs");
    fs::remove(graphs);
    REQUIRE(::mkfifo(graphs.c_str(), 0644) == 0);
    // Opening a FIFO for reading waits for a writer; the reader must refuse it instead.
    const auto result = test::runInChild(20, [&] {
        const auto s = LogdirReader(dir.path()).update();
        const Diagnostic* d = test::findDiagnostic(*s, Severity::Error, "not a regular file");
        return d && d->file == graphs.string() && s->traceCount() == 4 ? 0 : 1;
    });
    CHECK(result.signal == 0); // SIGALRM: it hung
    CHECK(result.code == 0);
}

TEST_CASE("a file that grows while it is read: each update ends", "[hostile][files]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    const std::string record = test::framed(ev::trace(1.0, "g", "r", 0, 2, ev::curtHealth(1, 0)));
    constexpr std::uint64_t kBatch = 100;
    std::string batch;
    for (std::uint64_t i = 0; i < kBatch; ++i)
        batch += record;

    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> written{0};
    std::thread writer([&] {
        while (!stop) {
            set.appendBytes("graph_execution_traces", batch);
            written += kBatch;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
    LogdirReader reader(dir.path());
    std::uint64_t previous = 0;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const auto s = reader.update();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(seconds < 10);
        CHECK(s->traceCount() >= previous);
        CHECK(s->traceCount() <= written.load() + kBatch); // a batch may be half-written
        previous = s->traceCount();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop = true;
    writer.join();
    const auto s = reader.update();
    CHECK(s->traceCount() == written.load());
    CHECK(test::findDiagnostic(*s, Severity::Error, "") == nullptr);
}
