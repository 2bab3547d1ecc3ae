// SPDX-License-Identifier: GPL-3.0-or-later
// The reader reads through one file layer: a logdir held in memory reads exactly as the same
// files on disk (the fuzz targets rely on it).
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;

namespace {

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

} // namespace

TEST_CASE("a logdir in memory reads as the same files on disk", "[filesystem]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    // A corrupt tail too, so that diagnostics and offsets are compared as well.
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        if (e.path().extension() == ".execution")
            test::appendBytes(e.path(), "garbage after the last record");

    auto files = std::make_shared<MemoryFileSystem>();
    const std::filesystem::path memoryDir = "/in-memory/logdir";
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        files->add(memoryDir / e.path().filename(), test::readBytes(e.path()));

    const auto onDisk = LogdirReader(dir.path()).update();
    ReaderOptions options;
    options.discovery.fileSystem = files;
    const auto inMemory = LogdirReader(memoryDir, options).update();

    REQUIRE(inMemory->traceCount() == onDisk->traceCount());
    REQUIRE(inMemory->executionCount() == onDisk->executionCount());
    CHECK(inMemory->alertCount() == onDisk->alertCount());
    REQUIRE(onDisk->traceCount() > 0);
    CHECK(inMemory->readTrace(0).value->opName == onDisk->readTrace(0).value->opName);
    CHECK(replaceAll(renderText(buildReport(*inMemory)), memoryDir.string(), dir.path().string()) ==
          renderText(buildReport(*onDisk)));
    CHECK(inMemory->diagnostics().size() == onDisk->diagnostics().size());
    CHECK_FALSE(inMemory->diagnostics().empty());

    SECTION("a path that is not there")
    {
        const auto none = LogdirReader("/in-memory/elsewhere", options).update();
        CHECK(test::findDiagnostic(*none, Severity::Error, "no such file or directory"));
    }
}

TEST_CASE("a file in memory grows in place, as a file a writer appends to", "[filesystem]")
{
    MemoryFileSystem files;
    files.add("/logdir/a", "abc");
    std::string error;
    const auto opened = files.open("/logdir/a", error);
    REQUIRE(opened);
    const std::int64_t before = opened->modificationTime();

    REQUIRE(files.append("/logdir/a", "def"));
    CHECK(opened->size() == 6);
    std::string bytes(8, '\0');
    CHECK(opened->readAt(2, bytes.data(), bytes.size()) == 4);
    CHECK(bytes.substr(0, 4) == "cdef");
    CHECK(opened->modificationTime() > before);
    CHECK_FALSE(files.append("/logdir/b", "x"));

    SECTION("a file added over it is another file: the one opened keeps its bytes")
    {
        files.add("/logdir/a", "x");
        CHECK(opened->size() == 6);
        const auto reopened = files.open("/logdir/a", error);
        REQUIRE(reopened);
        CHECK(reopened->size() == 1);
    }
}
