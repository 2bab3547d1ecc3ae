// SPDX-License-Identifier: GPL-3.0-or-later
// The saved index against a hostile cache directory and a hostile process: what lies at a cache
// file's name (a FIFO, a link, a directory) neither blocks a reader nor is followed or removed,
// a save that cannot be written says why and leaves nothing behind, and RLIMIT_FSIZE makes a
// save or a spill fail instead of killing the process with SIGXFSZ.
#include "childrun.hpp"
#include "chunkarena.hpp"
#include "indexcache.hpp"
#include "indexcachetesting.hpp"
#include "indexcachetrust.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;
namespace fs = std::filesystem;
using test::cachedIn;

namespace {

fs::path savedIndexOf(const fs::path& logdir, const fs::path& cache)
{
    const IndexCacheKey key{fs::absolute(logdir).lexically_normal().string(), "",
                            kDefaultMaxMemoryBytes};
    return indexCacheFile(cache, key);
}

struct Attempt
{
    std::string status; // indexCacheStatus() after the first update
    bool saved = false;
    std::string error; // saveIndex's, when it failed
};

Attempt readAndSave(const fs::path& logdir, const fs::path& cache)
{
    LogdirReader reader(logdir, cachedIn(cache));
    reader.update();
    Attempt a;
    a.status = reader.indexCacheStatus();
    a.saved = reader.saveIndex(&a.error);
    return a;
}

bool isFifo(const fs::path& p)
{
    return fs::symlink_status(p).type() == fs::file_type::fifo;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// Graph "g" with op "r" and `count` traces of it: an index of about 26 bytes per trace.
void writeTraces(const fs::path& dir, int count)
{
    test::FileSetWriter set = test::runWithOneOp(dir);
    std::string traces;
    for (int i = 0; i < count; ++i)
        traces += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, i % 5 == 0)));
    set.appendBytes("graph_execution_traces", traces);
}

} // namespace

TEST_CASE("a FIFO at a cache file's name blocks nothing and is left where it is", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    const fs::path index = savedIndexOf(dir.path(), cache.path());
    // In a child, so that a reader that blocks in open() fails the test instead of hanging it.
    const auto result = test::runInChild(30, [&] {
        if (::mkfifo(index.c_str(), 0600) != 0)
            return 10;
        Attempt a = readAndSave(dir.path(), cache.path());
        if (a.status != "not used: cannot open it: not a regular file")
            return 11;
        if (a.saved || !contains(a.error, "something other than a saved index is there") ||
            !isFifo(index))
            return 12;
        fs::remove(index);
        if (!readAndSave(dir.path(), cache.path()).saved)
            return 13;
        // At the record's name: not vouched for, so checked whole, and used.
        const fs::path record = checkedRecord(index);
        fs::remove(record);
        if (::mkfifo(record.c_str(), 0600) != 0)
            return 14;
        a = readAndSave(dir.path(), cache.path());
        if (a.status != "used" || !isFifo(record))
            return 15;
        // At the temporary names of this process.
        fs::remove(index);
        const fs::path temporary = index.string() + ".tmp" + std::to_string(::getpid());
        if (::mkfifo(temporary.c_str(), 0600) != 0)
            return 16;
        a = readAndSave(dir.path(), cache.path());
        if (a.saved || !contains(a.error, std::strerror(EEXIST)) || !isFifo(temporary))
            return 17;
        fs::remove(temporary);
        fs::remove(record);
        const fs::path recordTemporary = record.string() + ".tmp" + std::to_string(::getpid());
        if (::mkfifo(recordTemporary.c_str(), 0600) != 0)
            return 18;
        a = readAndSave(dir.path(), cache.path()); // saves, and its check notes nothing
        if (!a.saved || !isFifo(recordTemporary) || fs::exists(record))
            return 19;
        return 0;
    });
    CHECK(result.signal == 0);
    CHECK(result.code == 0);
}

TEST_CASE("a link at a cache file's name is neither followed nor removed", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::TempDir elsewhere;
    test::writeSmallLogdir(dir.path());
    const fs::path index = savedIndexOf(dir.path(), cache.path());
    const fs::path victim = elsewhere.path() / "precious.txt";
    test::writeBytes(victim, "the user's own file");

    fs::create_symlink(victim, index);
    Attempt a = readAndSave(dir.path(), cache.path());
    CHECK(a.status == "not used: cannot open it: a symbolic link");
    CHECK_FALSE(a.saved);
    CHECK(fs::is_symlink(index));
    fs::remove(index);

    const fs::path temporary = index.string() + ".tmp" + std::to_string(::getpid());
    fs::create_symlink(victim, temporary);
    a = readAndSave(dir.path(), cache.path());
    CHECK_FALSE(a.saved);
    CHECK(fs::is_symlink(temporary));
    fs::remove(temporary);
    CHECK(test::readBytes(victim) == "the user's own file");

    // Pruning removes regular files of the cache's names only.
    REQUIRE(readAndSave(dir.path(), cache.path()).saved);
    fs::create_symlink(victim, cache.path() / "0123456789abcdef.nsidx");
    fs::create_symlink(victim, cache.path() / "fedcba9876543210.nsidx.checked");
    test::writeBytes(cache.path() / "notes.nsidx", "not an index of ours");
    test::writeBytes(cache.path() / "0123456789abcdeF.nsidx", "not a name we make");
    REQUIRE(::mkfifo((cache.path() / "0000000000000000.nsidx").c_str(), 0600) == 0);
    pruneIndexCache(cache.path(), 0, {});
    CHECK_FALSE(fs::exists(index)); // ours: pruned
    CHECK(fs::is_symlink(cache.path() / "0123456789abcdef.nsidx"));
    CHECK(fs::is_symlink(cache.path() / "fedcba9876543210.nsidx.checked"));
    CHECK(fs::exists(cache.path() / "notes.nsidx"));
    CHECK(fs::exists(cache.path() / "0123456789abcdeF.nsidx"));
    CHECK(isFifo(cache.path() / "0000000000000000.nsidx"));
    CHECK(test::readBytes(victim) == "the user's own file");
}

TEST_CASE("a save that fails says why", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    const fs::path blocked = cache.path() / "blocked";
    test::writeBytes(blocked, "a file, not a directory");
    Attempt a = readAndSave(dir.path(), blocked / "index");
    CHECK_FALSE(a.saved);
    CHECK_THAT(a.error, Catch::Contains(std::strerror(ENOTDIR)));
    CHECK_THAT(a.error, !Catch::Contains(std::strerror(EBADF)));

    if (::geteuid() != 0) { // the superuser writes anywhere
        const fs::path readOnly = cache.path() / "readonly";
        fs::create_directories(readOnly);
        fs::permissions(readOnly, fs::perms::owner_read | fs::perms::owner_exec);
        a = readAndSave(dir.path(), readOnly);
        CHECK_FALSE(a.saved);
        CHECK_THAT(a.error, Catch::Contains(std::strerror(EACCES)));
        fs::permissions(readOnly, fs::perms::owner_all);
    }
}

TEST_CASE("a save past RLIMIT_FSIZE fails, leaves no temporary file and kills nothing",
          "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    writeTraces(dir.path(), 4000); // an index of about 100 KiB
    const auto result = test::runInChild(60, [&] {
        rlimit limit{32u << 10, 32u << 10};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        const Attempt a = readAndSave(dir.path(), cache.path());
        if (a.saved || !contains(a.error, std::strerror(EFBIG)))
            return 11;
        for (const auto& entry : fs::directory_iterator(cache.path()))
            if (contains(entry.path().filename().string(), ".tmp"))
                return 12;
        // A spill file may not pass the limit either: the arena refuses, like a full disk.
        auto arena = ChunkArena::create(cache.path());
        if (!arena)
            return 13;
        const std::string page(4096, 'x');
        return arena->store(page.data(), page.size()) == nullptr ? 0 : 14;
    });
    CHECK(result.signal == 0); // not SIGXFSZ
    CHECK(result.code == 0);
}

TEST_CASE("pruning removes the temporaries of killed savers, not those being written",
          "[indexcache]")
{
    test::TempDir cache;
    const fs::path old = cache.path() / "0123456789abcdef.nsidx.tmp4242";
    const fs::path oldRecord = cache.path() / "0123456789abcdef.nsidx.checked.tmp4242";
    const fs::path fresh = cache.path() / "0123456789abcdef.nsidx.tmp4343";
    const fs::path notOurs = cache.path() / "0123456789abcdef.nsidx.tmpx";
    for (const auto& p : {old, oldRecord, fresh, notOurs})
        test::writeBytes(p, "partial");
    for (const auto& p : {old, oldRecord, notOurs})
        fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(2));
    pruneIndexCache(cache.path(), 8, {});
    CHECK_FALSE(fs::exists(old));
    CHECK_FALSE(fs::exists(oldRecord));
    CHECK(fs::exists(fresh));
    CHECK(fs::exists(notOurs));
}

namespace {

// Every trace's wall time, offset and health, summed: what a view reading them all would see.
double traceSum(const Snapshot& s)
{
    double sum = 0;
    for (std::uint64_t i = 0; i < s.traceCount(); ++i) {
        const TraceDigest t = s.trace(i);
        sum += t.wallTime + static_cast<double>(t.offset) + t.health.bits;
    }
    return sum;
}

} // namespace

TEST_CASE("a saved index cut short or rewritten in place while in use changes nothing read",
          "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::TempDir spill;
    writeTraces(dir.path(), 200'000); // three chunks of 65,536 traces in each array
    REQUIRE(readAndSave(dir.path(), cache.path()).saved);
    const fs::path index = savedIndexOf(dir.path(), cache.path());
    const auto indexBytes = fs::file_size(index);
    const std::string original = test::readBytes(index);
    // In memory (below the spill threshold) and in a spill file (above it).
    for (const std::uint64_t spillAbove : {std::uint64_t{1} << 40, std::uint64_t{0}}) {
        for (const bool cut : {true, false}) {
            test::writeBytes(index, original); // a fresh copy of the saved index
            // In a child: a reader that kept mapping the file dies of SIGBUS, failing the test.
            const auto result = test::runInChild(60, [&] {
                ReaderOptions options = cachedIn(cache.path());
                options.spill = {spill.path(), spillAbove};
                LogdirReader reader(dir.path(), options);
                const auto s = reader.update();
                if (reader.indexCacheStatus() != "used")
                    return 10;
                const double before = traceSum(*s);
                if (cut) {
                    if (::truncate(index.c_str(), 4096) != 0)
                        return 11;
                } else {
                    // Another process's writes in place: every page of the arrays changed.
                    test::writeBytes(index, std::string(indexBytes, '\xff'));
                }
                return traceSum(*s) == before && s->traceCount() == 200'000 ? 0 : 12;
            });
            INFO("spill above " << spillAbove << ", cut " << cut);
            CHECK(result.signal == 0);
            CHECK(result.code == 0);
        }
    }
}
