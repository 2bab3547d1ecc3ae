// SPDX-License-Identifier: GPL-3.0-or-later
// Finding the file sets of a logdir: one or several hosts, any file as the path, missing
// metadata, mixed run ids, foreign files.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirlayout.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;

namespace {

bool hasDiagnostic(const LogdirLayout& layout, Severity severity, const std::string& fragment)
{
    return std::any_of(layout.diagnostics.begin(), layout.diagnostics.end(), [&](const auto& d) {
        return d.severity == severity && d.message.find(fragment) != std::string::npos;
    });
}

} // namespace

TEST_CASE("a logdir is found from its directory or from any of its files", "[discovery]")
{
    test::TempDir dir;
    FileSetWriter set(dir.path(), "worker-0.example.com");
    set.createAll();
    set.writeMetadata(1700000000.5, "abcd1234");

    for (const auto& path : {dir.path(), set.file("graphs"), set.file("metadata")}) {
        const LogdirLayout layout = discoverLogdir(path);
        INFO(path);
        REQUIRE(layout.fileSets.size() == 1);
        CHECK(layout.directory == dir.path());
        CHECK(layout.runId == "abcd1234");
        CHECK(layout.tensorflowVersion == "2.15.0");
        CHECK(layout.fileVersion == "debug.Event:1");
        CHECK(layout.startingWallTime == 1700000000.5);
        CHECK(layout.fileSets[0].hostName == "worker-0.example.com");
        CHECK(layout.diagnostics.empty());
    }
}

TEST_CASE("several hosts of one run are ordered by their metadata's wall time", "[discovery]")
{
    test::TempDir dir;
    // File names sort in the opposite order of the metadata times.
    FileSetWriter a(dir.path(), "a-host", 1700000001);
    FileSetWriter b(dir.path(), "b-host", 1700000000);
    FileSetWriter c(dir.path(), "c-host", 1700000002);
    for (auto* s : {&a, &b, &c})
        s->createAll();
    a.writeMetadata(30.0, "run");
    b.writeMetadata(20.0, "run");
    c.writeMetadata(10.0, "run");
    const LogdirLayout layout = discoverLogdir(dir.path());
    REQUIRE(layout.fileSets.size() == 3);
    CHECK(layout.fileSets[0].hostName == "c-host");
    CHECK(layout.fileSets[1].hostName == "b-host");
    CHECK(layout.fileSets[2].hostName == "a-host");
    CHECK(layout.startingWallTime == 10.0);
}

TEST_CASE("mixed run ids: the latest run is read, the others are named", "[discovery]")
{
    test::TempDir dir;
    FileSetWriter old(dir.path(), "host", 1600000000);
    FileSetWriter newer(dir.path(), "host", 1700000000);
    old.createAll();
    newer.createAll();
    old.writeMetadata(1600000000.0, "oldrun");
    newer.writeMetadata(1700000000.0, "newrun");

    const LogdirLayout latest = discoverLogdir(dir.path());
    REQUIRE(latest.fileSets.size() == 1);
    CHECK(latest.runId == "newrun");
    CHECK(hasDiagnostic(latest, Severity::Warning, "2 runs"));
    CHECK(hasDiagnostic(latest, Severity::Warning, "\"oldrun\""));

    const LogdirLayout chosen = discoverLogdir(dir.path(), {.runId = "oldrun"});
    REQUIRE(chosen.fileSets.size() == 1);
    CHECK(chosen.runId == "oldrun");

    const LogdirLayout unknown = discoverLogdir(dir.path(), {.runId = "nosuchrun"});
    CHECK(unknown.runId == "newrun");
    CHECK(hasDiagnostic(unknown, Severity::Error, "nosuchrun"));
}

TEST_CASE("missing, empty or unreadable metadata", "[discovery]")
{
    test::TempDir dir;
    SECTION("no metadata at all: the file sets are read anyway, with a warning")
    {
        FileSetWriter set(dir.path(), "host");
        set.appendBytes("graph_execution_traces", {});
        set.appendBytes("graphs", {});
        const LogdirLayout layout = discoverLogdir(dir.path());
        REQUIRE(layout.fileSets.size() == 1);
        CHECK_FALSE(layout.fileSets[0].hasMetadata);
        CHECK(hasDiagnostic(layout, Severity::Warning, "no readable metadata"));
    }
    SECTION("one host without metadata next to one with: only the one with is read")
    {
        FileSetWriter good(dir.path(), "good", 1700000000);
        FileSetWriter orphan(dir.path(), "orphan", 1700000001);
        good.createAll();
        good.writeMetadata(1.0, "run");
        orphan.appendBytes("graph_execution_traces", "x");
        const LogdirLayout layout = discoverLogdir(dir.path());
        REQUIRE(layout.fileSets.size() == 1);
        CHECK(layout.fileSets[0].hostName == "good");
        CHECK(hasDiagnostic(layout, Severity::Warning, "without readable metadata"));
    }
    SECTION("an empty metadata file is a writer that has not started")
    {
        FileSetWriter set(dir.path(), "host");
        set.createAll();
        const LogdirLayout layout = discoverLogdir(dir.path());
        REQUIRE(layout.fileSets.size() == 1);
        CHECK(hasDiagnostic(layout, Severity::Warning, "metadata file is empty"));
    }
    SECTION("garbage in the metadata file")
    {
        FileSetWriter set(dir.path(), "host");
        set.createAll();
        test::writeBytes(set.file("metadata"), std::string(100, 'z'));
        const LogdirLayout layout = discoverLogdir(dir.path());
        CHECK(hasDiagnostic(layout, Severity::Error, "cannot read the metadata record"));
    }
    SECTION("a metadata file whose first record is something else")
    {
        FileSetWriter set(dir.path(), "host");
        set.createAll();
        test::writeBytes(set.file("metadata"), test::framed(test::events::graph("g", "x")));
        const LogdirLayout layout = discoverLogdir(dir.path());
        CHECK(hasDiagnostic(layout, Severity::Error, "not a DebugMetadata"));
    }
}

TEST_CASE("directories without tfdbg2 files say so", "[discovery]")
{
    test::TempDir dir;
    test::writeBytes(dir.path() / "events.out.tfevents.1.host", "not ours");
    test::writeBytes(dir.path() / "notes.txt", "hello");
    std::filesystem::create_directories(dir.path() / "sub");
    LogdirLayout layout = discoverLogdir(dir.path());
    CHECK(layout.empty());
    CHECK(hasDiagnostic(layout, Severity::Error, "no tfdbg2 files here"));

    layout = discoverLogdir(dir.path() / "does-not-exist");
    CHECK(layout.empty());
    CHECK(hasDiagnostic(layout, Severity::Error, "no such file or directory"));
}

TEST_CASE("a secondary host's non-trace files are ignored, and said to be", "[discovery]")
{
    test::TempDir dir;
    FileSetWriter main(dir.path(), "client", 1700000000);
    FileSetWriter worker(dir.path(), "worker", 1700000001);
    main.createAll();
    worker.createAll();
    main.writeMetadata(1.0, "run");
    worker.writeMetadata(2.0, "run");
    worker.append("graphs", test::events::graph("w", "worker graph"));
    const LogdirLayout layout = discoverLogdir(dir.path());
    REQUIRE(layout.fileSets.size() == 2);
    CHECK(hasDiagnostic(layout, Severity::Info,
                        "only the traces and executions of a secondary host are read"));
    // Its executions are read (apart from the first host's): no word about them.
    worker.append("execution", test::events::execution(3.0, "Exp", {}, {}, 0, {}));
    for (const auto& d : discoverLogdir(dir.path()).diagnostics)
        CHECK(d.file.find(".execution") == std::string::npos);
}
