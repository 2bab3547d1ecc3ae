// SPDX-License-Identifier: GPL-3.0-or-later
// Large indexes keep their arrays in a mapped file of the cache directory (ChunkArena): what is
// read back is what was written, released pages come back intact, a full disk leaves the arrays
// on the heap, and a spilled index is the same index.
#include "childrun.hpp"
#include "chunkarena.hpp"
#include "chunkedarray.hpp"
#include "filepages.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstring>
#include <fstream>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;

namespace {

// The part of the resident set that maps files (RssFile).
long fileResidentKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("RssFile:", 0) == 0)
            return std::stol(line.substr(8));
    return 0;
}

} // namespace

TEST_CASE("stored chunks read back what was stored also after leaving the resident set", "[spill]")
{
    test::TempDir dir;
    const auto arena = ChunkArena::create(dir.path() / "columns");
    REQUIRE(arena);
    CHECK(std::filesystem::is_directory(dir.path() / "columns"));
    CHECK(std::filesystem::is_empty(dir.path() / "columns")); // the file has no name
    // Smaller and larger than a 64 MiB segment, and not a whole page.
    const std::size_t sizes[] = {std::size_t{1} << 16, std::size_t{3} << 20, std::size_t{9} << 20,
                                 std::size_t{5}};
    const auto value = [](std::size_t i, std::size_t words) {
        return i * 2654435761u + words;
    };
    std::vector<const std::uint64_t*> stored;
    std::uint64_t bytes = 0;
    for (const std::size_t words : sizes) {
        std::vector<std::uint64_t> data(words);
        for (std::size_t i = 0; i < words; ++i)
            data[i] = value(i, words);
        const auto* p = static_cast<const std::uint64_t*>(arena->store(data.data(), words * 8));
        REQUIRE(p);
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 4096 == 0);
        CHECK(std::memcmp(p, data.data(), words * 8) == 0);
        releaseFilePages(p, words * 8);
        stored.push_back(p);
        bytes += words * 8;
    }
    for (std::size_t k = 0; k < std::size(sizes); ++k) {
        for (std::size_t i = 0; i < sizes[k]; i += 997)
            REQUIRE(stored[k][i] == value(i, sizes[k]));
        REQUIRE(stored[k][sizes[k] - 1] == value(sizes[k] - 1, sizes[k]));
    }
    CHECK(arena->storedBytes() == bytes);
}

TEST_CASE("no arena where no file can be made", "[spill]")
{
    test::TempDir dir;
    const auto file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    CHECK_FALSE(ChunkArena::create(file / "columns"));
}

TEST_CASE("chunks adopted from a mapped file are not stored again when the array grows", "[spill]")
{
    test::TempDir dir;
    using Array = ChunkedArray<std::uint32_t, 10>; // chunks of 1024
    constexpr std::size_t kChunk = 1024;
    // A saved array of three whole chunks and a partial one, where a reopened index finds it.
    const auto saved = ChunkArena::create(dir.path());
    REQUIRE(saved);
    std::vector<std::uint32_t> values(3 * kChunk + 100);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<std::uint32_t>(i * 5);
    const auto* mapped = static_cast<const std::uint32_t*>(
        saved->store(values.data(), values.size() * sizeof(std::uint32_t)));
    REQUIRE(mapped);
    struct Case
    {
        bool inPageCache;
        std::size_t firstExtent; // entries adopted first; the rest as a second extent
        std::size_t chunksStored;
    };
    // Only the chunk the reader finished is stored; mapped ones only when not in a file; a first
    // extent of a single chunk is copied (as a small array is), so it is stored too.
    for (const Case c :
         {Case{true, values.size(), 1}, Case{false, values.size(), 4}, Case{true, kChunk, 2}}) {
        INFO("in the page cache: " << c.inPageCache << ", first extent " << c.firstExtent);
        Array array;
        array.adopt(mapped, c.firstExtent, saved, c.inPageCache);
        if (c.firstExtent < values.size())
            array.adopt(mapped + c.firstExtent, values.size() - c.firstExtent, saved,
                        c.inPageCache);
        const auto arena = ChunkArena::create(dir.path());
        array.spillTo(arena);
        while (array.size() < 4 * kChunk + 10) // the partial chunk fills up
            array.push_back(static_cast<std::uint32_t>(array.size() * 5));
        array.sealBelow(array.size());
        CHECK(arena->storedBytes() == c.chunksStored * kChunk * sizeof(std::uint32_t));
        for (std::size_t i = 0; i < array.size(); ++i)
            REQUIRE(array[i] == i * 5);
    }
}

TEST_CASE("a spilled array reads back every element whether stored or not", "[spill]")
{
    test::TempDir dir;
    ChunkedArray<std::uint32_t, 10> array;
    array.push_back(7); // the first chunk stays on the heap
    array.spillTo(ChunkArena::create(dir.path()));
    constexpr std::uint32_t kCount = 100'000;
    for (std::uint32_t i = 1; i < kCount; ++i) {
        array.push_back(i * 3);
        if (i % 5000 == 0)
            array.sealBelow(array.size());
    }
    array.sealBelow(array.size());
    REQUIRE(array.size() == kCount);
    CHECK(array[0] == 7);
    for (std::uint32_t i = 1; i < kCount; ++i)
        REQUIRE(array[i] == i * 3);
    std::uint64_t sum = 0;
    std::size_t seen = 0;
    array.forEachRun(
        [&](const std::uint32_t* p, std::size_t n) {
            for (std::size_t i = 0; i < n; ++i)
                sum += p[i];
            seen += n;
        },
        /*release=*/true);
    CHECK(seen == kCount);
    CHECK(sum == 7 + 3ull * (kCount - 1) * kCount / 2);
    const ChunkedArray<std::uint32_t, 10> copy = array; // a snapshot's: shares the chunks
    CHECK(copy[kCount - 1] == (kCount - 1) * 3);
}

TEST_CASE("a full disk leaves the rest of a spilled array on the heap", "[spill]")
{
    test::TempDir dir;
    // In a child whose files may not grow past 70 MiB: the second 64 MiB segment is refused.
    const auto result = test::runInChild(60, [&] {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{70u << 20, 70u << 20};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        auto arena = ChunkArena::create(dir.path());
        if (!arena)
            return 11;
        ChunkedArray<std::uint64_t> array; // 512 KiB chunks
        array.spillTo(arena);
        constexpr std::uint64_t kCount = 24'000'000; // 183 MiB
        for (std::uint64_t i = 0; i < kCount; ++i) {
            array.push_back(i ^ 0x5555);
            if (i % 100'000 == 0)
                array.sealBelow(array.size());
        }
        array.sealBelow(array.size());
        for (std::uint64_t i = 0; i < kCount; ++i)
            if (array[i] != (i ^ 0x5555))
                return 12;
        const std::uint64_t stored = arena->storedBytes();
        return stored > (32u << 20) && stored <= (64u << 20) ? 0 : 13;
    });
    CHECK(result.code == 0);
}

TEST_CASE("a spilled index is the same index", "[spill][reader]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    std::string traces;
    std::string executions;
    for (int i = 0; i < 300'000; ++i) {
        traces +=
            test::framed(ev::trace(i, "g", "r", 0, 3, ev::conciseHealth(1, 4, 0, i % 7 == 0, 0)));
        if (i % 10 == 0)
            executions += test::framed(ev::execution(i, "Exp", {i}, {i + 1}, 3,
                                                     {ev::conciseHealth(-1, 2, i % 9 == 0, 0, 0)}));
    }
    set.appendBytes("graph_execution_traces", traces);
    set.appendBytes("execution", executions);

    test::TempDir spillDir;
    LogdirReader spilling(dir.path(), {.threads = 2, .spill = {spillDir.path(), 0}});
    LogdirReader inMemory(dir.path(), {.threads = 2});
    const auto a = spilling.update();
    const auto b = inMemory.update();
    CHECK(spilling.spilledBytes() > 0);
    CHECK(inMemory.spilledBytes() == 0);
    REQUIRE(a->traceCount() == 300'000);
    REQUIRE(a->traceCount() == b->traceCount());
    for (std::uint64_t t = 0; t < a->traceCount(); ++t) {
        REQUIRE(a->trace(t).offset == b->trace(t).offset);
        REQUIRE(a->trace(t).health.bits == b->trace(t).health.bits);
    }
    REQUIRE(a->executionCount() == b->executionCount());
    for (std::uint64_t e = 0; e < a->executionCount(); ++e)
        REQUIRE(a->executionInputIds(e) == b->executionInputIds(e));
    REQUIRE(a->alertCount() == b->alertCount());
    for (std::uint64_t k = 0; k < a->alertCount(); ++k)
        REQUIRE(a->alert(k).event.index == b->alert(k).event.index);
    CHECK(std::filesystem::is_empty(spillDir.path())); // nothing left behind

    SECTION("a scan's mapped pages leave the resident set and come back when read")
    {
        // Every spilled page is mapped now (the comparisons above read them all).
        const long mapped = fileResidentKiB();
        a->releaseMappedPages();
        const long released = fileResidentKiB();
        CHECK(mapped - released > static_cast<long>(spilling.spilledBytes() / 2048));
        for (std::uint64_t t = 0; t < a->traceCount(); t += 7)
            REQUIRE(a->trace(t).offset == b->trace(t).offset);
        b->releaseMappedPages(); // nothing to release in memory
        CHECK(b->trace(5).offset == a->trace(5).offset);
    }
}
