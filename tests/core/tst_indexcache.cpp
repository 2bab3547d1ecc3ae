// SPDX-License-Identifier: GPL-3.0-or-later
// The saved index: a reader that finds one shows exactly what a reader of the whole logdir shows,
// reads only what was appended since, and throws away (reading the logdir from the start) one
// that no longer fits the logdir or is damaged in any byte or at any length.
#include "childrun.hpp"
#include "hostlogdirs.hpp"
#include "indexcache.hpp"
#include "indexcachetesting.hpp"
#include "indexcachetrust.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "tensorflowlogdir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <sys/stat.h>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;
namespace fs = std::filesystem;
using test::cachedIn;
using test::fingerprint;
using test::onlySavedIndex;
using test::readFresh;

namespace {

// Reads `logdir` with a reader that uses the cache and saves to it; returns its status and what
// it shows.
struct CachedRead
{
    std::string status;
    std::string shown;
    std::uint64_t traces = 0;
};

CachedRead readCached(const fs::path& logdir, const fs::path& cache)
{
    LogdirReader reader(logdir, cachedIn(cache));
    const auto s = reader.update();
    std::string error;
    REQUIRE(reader.saveIndex(&error));
    return {reader.indexCacheStatus(), fingerprint(*s), s->traceCount()};
}

// Graph "g" with op "r" (runWithOneOp) and `count` CURT_HEALTH traces of it, at wall times 0, 1 …
test::FileSetWriter oneOpTraces(const fs::path& dir, int count)
{
    test::FileSetWriter set = test::runWithOneOp(dir);
    for (int i = 0; i < count; ++i)
        set.append("graph_execution_traces",
                   ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false)));
    return set;
}

} // namespace

TEST_CASE("a reopened logdir shows what a full read shows", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeTensorFlowLogdir(dir.path(), test::TensorFlowStack::KerasModel);

    const CachedRead first = readCached(dir.path(), cache.path());
    CHECK(first.status == "none saved");
    const CachedRead second = readCached(dir.path(), cache.path());
    CHECK(second.status == "used");
    CHECK(second.shown == first.shown);
    CHECK(second.shown == readFresh(dir.path()));
    CHECK(second.traces > 0);
}

TEST_CASE("the saved index of a large logdir maps whole chunks and checks every block",
          "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    // Past a chunk (65 536 entries) and a checksum block (16 MiB of wall times is 2 M traces:
    // smaller here, but the execution arrays pass a chunk too).
    test::writeLargeTensorFlowLogdir(dir.path(), test::TensorFlowStack::TutorialModule, 150000);
    const CachedRead first = readCached(dir.path(), cache.path());
    const CachedRead second = readCached(dir.path(), cache.path());
    CHECK(second.status == "used");
    CHECK(second.traces == 150000);
    CHECK(second.shown == first.shown);
}

TEST_CASE("data appended after the index was saved is read from where it ends", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    const test::FileSetWriter set = oneOpTraces(dir.path(), 10);
    readCached(dir.path(), cache.path());

    for (int i = 10; i < 15; ++i)
        set.append("graph_execution_traces",
                   ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, i == 12)));
    set.append("graphs", ev::op("g", "Exp", "late", {"r"}, {7}));
    set.append("graph_execution_traces", ev::trace(15, "g", "late", 0, 2, ev::curtHealth(1, true)));
    const CachedRead reopened = readCached(dir.path(), cache.path());
    CHECK(reopened.status == "used");
    CHECK(reopened.traces == 16);
    CHECK(reopened.shown == readFresh(dir.path()));
}

TEST_CASE("traces of undeclared ops keep their placeholder ops in a saved index", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("graph_execution_traces", ev::trace(1, "g", "ghost", 0, 2, ev::curtHealth(1, true)));
    set.append("graph_execution_traces",
               ev::trace(2, "h", "phantom", 0, 2, ev::curtHealth(1, false)));
    set.append("graph_execution_traces", ev::trace(3, "g", "r", 0, 2, ev::curtHealth(1, true)));
    LogdirReader following(dir.path()); // a reader that stays open while the logdir grows
    following.update();
    const CachedRead first = readCached(dir.path(), cache.path());
    const CachedRead second = readCached(dir.path(), cache.path());
    CHECK(second.status == "used");
    CHECK(second.shown == first.shown);

    // Ops declared after the traces that named them: the reopened index goes on as the reader
    // that stayed open does (the placeholder is declared where it stands).
    set.append("graphs", ev::op("g", "Exp", "other", {}, {8}));
    set.append("graphs", ev::op("g", "Exp", "ghost", {"other"}, {9}));
    const CachedRead reopened = readCached(dir.path(), cache.path());
    CHECK(reopened.status == "used");
    CHECK(reopened.shown == fingerprint(*following.update()));
}

TEST_CASE("graphs that read otherwise than when the index was saved make it a miss", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    const test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "g"));
    // Ops whose records fill far more than the 64 KiB compared at each end of the file.
    const auto opsFile = [](const std::string& renamed) {
        std::string bytes = test::framed(ev::graph("g", "g"));
        for (int i = 0; i < 4000; ++i) {
            const std::string name = "op" + std::to_string(10000 + i);
            bytes += test::framed(ev::op("g", "Exp", name == "op12000" ? renamed : name, {}, {i}));
        }
        return bytes;
    };
    test::writeBytes(set.file("graphs"), opsFile("op12000"));
    set.append("graph_execution_traces",
               ev::trace(1, "g", "op12001", 0, 2, ev::curtHealth(1, true)));
    readCached(dir.path(), cache.path());

    // The middle op renamed (same length, so every offset stays), and one more op appended so
    // that the file grew: its ends match; the checksums of what was read tell (and reading the
    // graphs again would).
    test::writeBytes(set.file("graphs"),
                     opsFile("xp12000") + test::framed(ev::op("g", "Exp", "late", {}, {0})));
    const CachedRead read = readCached(dir.path(), cache.path());
    CHECK(read.status ==
          "not used: " + set.file("graphs").filename().string() + " holds other data");
    CHECK(read.shown == readFresh(dir.path()));
}

TEST_CASE("a logdir of several hosts is reopened with every host", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    REQUIRE(test::writeTwoHostExecutions(dir.path()));
    const CachedRead first = readCached(dir.path(), cache.path());
    const CachedRead second = readCached(dir.path(), cache.path());
    CHECK(second.status == "used");
    CHECK(second.shown == first.shown);
    LogdirReader reader(dir.path(), cachedIn(cache.path()));
    const auto s = reader.update();
    REQUIRE(s->layout().fileSets.size() == 2);
    CHECK(s->hostExecutionCount(1) > 0);
}

TEST_CASE("a changed logdir file makes the saved index a miss", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    readCached(dir.path(), cache.path());
    const fs::path traces = [&] {
        for (const auto& e : fs::directory_iterator(dir.path()))
            if (e.path().extension() == ".graph_execution_traces")
                return e.path();
        return fs::path();
    }();
    REQUIRE(!traces.empty());
    const std::string original = test::readBytes(traces);

    SECTION("truncated")
    {
        test::writeBytes(traces, original.substr(0, original.size() / 2));
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK(read.status ==
              "not used: " + traces.filename().string() + " is shorter than what was read of it");
        CHECK(read.shown == readFresh(dir.path()));
    }
    SECTION("rewritten in place with other bytes of the same size")
    {
        std::string other = original;
        other[other.size() - 5] ^= 0x40;
        test::writeBytes(traces, other);
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK_THAT(read.status, Catch::StartsWith("not used: " + traces.filename().string()));
        CHECK(read.shown == readFresh(dir.path()));
    }
    SECTION("replaced by a longer file that starts the same but ends otherwise")
    {
        std::string other = original;
        other[other.size() - 5] ^= 0x40;
        test::writeBytes(traces, other + original);
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK(read.status == "not used: " + traces.filename().string() + " holds other data");
        CHECK(read.shown == readFresh(dir.path()));
    }
    SECTION("deleted")
    {
        fs::remove(traces);
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK_THAT(read.status, Catch::StartsWith("not used: "));
        CHECK(read.shown == readFresh(dir.path()));
    }
}

TEST_CASE("a saved index of another logdir or other options is a miss", "[indexcache]")
{
    test::TempDir a;
    test::TempDir b;
    test::TempDir cache;
    test::writeSmallLogdir(a.path());
    test::writeSmallLogdir(b.path());
    readCached(a.path(), cache.path());
    const fs::path saved = onlySavedIndex(cache.path());

    // b's index file name, holding a's index.
    const IndexCacheKey keyB{fs::absolute(b.path()).lexically_normal().string(), "",
                             kDefaultMaxMemoryBytes};
    fs::copy_file(saved, indexCacheFile(cache.path(), keyB));
    CHECK(readCached(b.path(), cache.path()).status ==
          "not used: it is the index of another logdir");

    ReaderOptions smaller = cachedIn(cache.path());
    smaller.maxMemoryBytes = 64u << 20;
    LogdirReader reader(a.path(), smaller);
    reader.update();
    CHECK(reader.indexCacheStatus() == "none saved"); // another key: another file
}

TEST_CASE("a damaged or truncated saved index is a miss, never a crash", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    readCached(dir.path(), cache.path());
    const fs::path saved = onlySavedIndex(cache.path());
    const std::string good = test::readBytes(saved);
    const std::string fresh = readFresh(dir.path());

    const auto expectMiss = [&](const std::string& bytes) {
        test::writeBytes(saved, bytes);
        LogdirReader reader(dir.path(), cachedIn(cache.path()));
        const auto s = reader.update();
        CHECK_THAT(reader.indexCacheStatus(), Catch::StartsWith("not used: "));
        CHECK(fingerprint(*s) == fresh);
    };
    for (std::size_t length : {std::size_t{0}, std::size_t{7}, std::size_t{63}, std::size_t{64},
                               good.size() / 2, good.size() - 1})
        expectMiss(good.substr(0, length));
    // Every byte of the header and every other byte that is not zero (zeros pad the arrays to
    // page boundaries, and nothing reads those), flipped in turn.
    std::size_t flipped = 0;
    for (std::size_t i = 0; i < good.size(); ++i) {
        if (good[i] == 0 && i >= 40) // the header takes 40 bytes
            continue;
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ 0x01);
        test::writeBytes(saved, bad);
        LogdirReader reader(dir.path(), cachedIn(cache.path()));
        const auto s = reader.update();
        REQUIRE_THAT(reader.indexCacheStatus(), Catch::StartsWith("not used: "));
        ++flipped;
    }
    CHECK(flipped > 500);
}

TEST_CASE("the checks behind the checksums catch impossible values", "[indexcache]")
{
    // With checksums off (as the fuzz target runs), an op id beyond the ops must still be
    // refused: write an index, then change one trace's op id and load it unchecked.
    test::TempDir dir;
    test::TempDir cache;
    oneOpTraces(dir.path(), 3);
    readCached(dir.path(), cache.path());
    std::string bytes = test::readBytes(onlySavedIndex(cache.path()));
    // The op column is the third array: after the 64-byte header, three wall times and three
    // offsets (small arrays lie one after the other).
    const std::size_t opColumn = 64 + 3 * 8 + 3 * 8;
    REQUIRE(bytes.size() > opColumn + 4);
    REQUIRE(bytes[opColumn] == 0); // op 0 ("r")
    bytes[opColumn] = 5;

    ReaderState state;
    state.index.files = realFileSystem();
    ThreadPool pool(1);
    const IndexCacheKey key{fs::absolute(dir.path()).lexically_normal().string(), "",
                            kDefaultMaxMemoryBytes};
    std::string why;
    const auto* data = reinterpret_cast<const std::byte*>(bytes.data());
    CHECK_FALSE(loadIndexCache({data, bytes.size()}, nullptr, nullptr, key, dir.path(), {}, state,
                               pool, why, false));
    CHECK(why == "it is damaged (a checksum does not match, or an entry is out of range)");

    bytes[opColumn] = 0;
    ReaderState again;
    again.index.files = realFileSystem();
    CHECK(loadIndexCache({data, bytes.size()}, nullptr, nullptr, key, dir.path(), {}, again, pool,
                         why, false));
}

TEST_CASE("an alert that names no event of its kind, or holds impossible bytes, is refused",
          "[indexcache]")
{
    // Behind the checksums too (off here, as the fuzz target runs): every alert of the saved
    // index is checked, the last one as the first.
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    constexpr int kTraces = 5;
    for (int i = 0; i < kTraces; ++i)
        set.append("graph_execution_traces",
                   ev::trace(i, "g", "r", 0, 4, ev::fullHealth(1, 1000003 + i, 0, 0, 1, 0, 0, 0)));
    REQUIRE(readCached(dir.path(), cache.path()).traces == kTraces);
    std::string bytes = test::readBytes(onlySavedIndex(cache.path()));

    // The last alert: where its size (the element count, a value no other trace has) lies just
    // after the event it names.
    const double size = 1000003 + kTraces - 1;
    std::string sizeBytes(sizeof size, '\0');
    std::memcpy(sizeBytes.data(), &size, sizeof size);
    const std::size_t sourceAt = offsetof(Alert, event) + offsetof(EventRef, source);
    const std::size_t indexAt = offsetof(Alert, event) + offsetof(EventRef, index);
    std::size_t alert = std::string::npos;
    for (std::size_t at = bytes.find(sizeBytes); at != std::string::npos;
         at = bytes.find(sizeBytes, at + 1)) {
        if (at < offsetof(Alert, size))
            continue;
        const std::size_t start = at - offsetof(Alert, size);
        std::uint64_t event = 0;
        std::memcpy(&event, bytes.data() + start + indexAt, sizeof event);
        if (event == kTraces - 1 && bytes[start + sourceAt] == 0)
            alert = start;
    }
    REQUIRE(alert != std::string::npos);

    const IndexCacheKey key{fs::absolute(dir.path()).lexically_normal().string(), "",
                            kDefaultMaxMemoryBytes};
    ThreadPool pool(2);
    std::string why;
    const auto load = [&](const std::string& file) {
        ReaderState state;
        state.index.files = realFileSystem();
        why.clear();
        return loadIndexCache({reinterpret_cast<const std::byte*>(file.data()), file.size()},
                              nullptr, nullptr, key, dir.path(), {}, state, pool, why, false);
    };
    REQUIRE(load(bytes));

    std::string forged = bytes;
    SECTION("an event past the traces")
    {
        const std::uint64_t past = kTraces;
        std::memcpy(forged.data() + alert + indexAt, &past, sizeof past);
    }
    SECTION("an execution in the traces' alerts")
    {
        forged[alert + sourceAt] = static_cast<char>(EventSource::Eager);
    }
    SECTION("an invalid-summary flag that is neither true nor false")
    {
        forged[alert + offsetof(Alert, invalidSummary)] = 2;
    }
    SECTION("counts of no kind there is")
    {
        forged[alert + offsetof(Alert, counts)] =
            static_cast<char>(static_cast<int>(Alert::Counts::Integer) + 1);
    }
    REQUIRE(forged != bytes);
    CHECK_FALSE(load(forged));
    CHECK(why == "it is damaged (an impossible value)");
}

TEST_CASE("small logdirs are not saved, and old saved indexes are pruned", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    ReaderOptions options = cachedIn(cache.path());
    options.indexCache.minLogdirBytes = 1u << 20;
    {
        LogdirReader reader(dir.path(), options);
        reader.update();
        REQUIRE(reader.saveIndex());
    }
    CHECK(fs::is_empty(cache.path()));

    std::vector<test::TempDir> logdirs(4);
    for (auto& logdir : logdirs) {
        test::writeSmallLogdir(logdir.path());
        ReaderOptions keepTwo = cachedIn(cache.path());
        keepTwo.indexCache.maxFiles = 2;
        LogdirReader reader(logdir.path(), keepTwo);
        reader.update();
        REQUIRE(reader.saveIndex());
    }
    std::size_t saved = 0;
    for (const auto& entry : fs::directory_iterator(cache.path()))
        saved += entry.path().extension() == ".nsidx";
    CHECK(saved == 2);
}

TEST_CASE("nanscope-report saves the index of a large logdir and reopens it to the same report",
          "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    // Over the 64 MiB below which no index is saved.
    test::writeLargeTensorFlowLogdir(dir.path(), test::TensorFlowStack::TutorialModule, 130000);
    const std::string arguments = "--json --index-cache " + test::shellQuoted(cache.path()) + " " +
                                  test::shellQuoted(dir.path());
    const test::ReportRun first = test::runReport(arguments);
    REQUIRE(first.status == 1); // alerts
    const fs::path saved = onlySavedIndex(cache.path());
    const auto savedAt = fs::last_write_time(saved);
    const test::ReportRun second = test::runReport(arguments);
    CHECK(second.status == 1);
    CHECK(second.output == first.output);
    CHECK(fs::last_write_time(saved) >= savedAt); // read (and marked used), not rewritten wrong
    CHECK(test::runReport("--json --no-index-cache " + test::shellQuoted(dir.path())).output ==
          first.output);

    // A cache directory that cannot be written costs nothing but a line on stderr.
    const fs::path blocked = cache.path() / "blocked";
    test::writeBytes(blocked, "a file, not a directory");
    const test::ReportRun unwritable =
        test::runReport("--index-cache " + test::shellQuoted(blocked / "index") + " " +
                        test::shellQuoted(dir.path()));
    CHECK(unwritable.status == 1);
    CHECK_THAT(unwritable.output, Catch::Contains("the index was not saved"));
}

TEST_CASE("an index checked whole once is trusted while its file stays the same", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeSmallLogdir(dir.path());
    const CachedRead first = readCached(dir.path(), cache.path());
    const fs::path saved = onlySavedIndex(cache.path());
    const fs::path record = checkedRecord(saved);
    // Saving checked the new file whole, once its times were safely past the save, and noted it.
    REQUIRE(fs::exists(record));
    struct stat st
    {};
    REQUIRE(::stat(saved.c_str(), &st) == 0);
    CHECK(checkedBefore(saved, st));
    // Reopened from the record: the same index.
    const CachedRead trusted = readCached(dir.path(), cache.path());
    CHECK(trusted.status == "used");
    CHECK(trusted.shown == first.shown);

    SECTION("any other identity is not vouched for")
    {
        for (auto change :
             {+[](struct stat& s) { ++s.st_size; }, +[](struct stat& s) { ++s.st_ino; },
              +[](struct stat& s) { ++s.st_ctim.tv_nsec; },
              +[](struct stat& s) {
                  ++s.st_mtim.tv_sec;
              }}) {
            struct stat other = st;
            change(other);
            CHECK_FALSE(checkedBefore(saved, other));
        }
        std::string bytes = test::readBytes(record);
        bytes[10] = static_cast<char>(bytes[10] ^ 1);
        test::writeBytes(record, bytes);
        CHECK_FALSE(checkedBefore(saved, st)); // its checksum
    }
    SECTION("a damaged byte written since is found: the record names the file as it was")
    {
        std::string bytes = test::readBytes(saved);
        // The description's last byte (the description ends the file).
        bytes.back() = static_cast<char>(bytes.back() ^ 0x40);
        test::writeBytes(saved, bytes);
        LogdirReader reader(dir.path(), cachedIn(cache.path()));
        const auto s = reader.update();
        CHECK_THAT(reader.indexCacheStatus(), Catch::StartsWith("not used: "));
        CHECK(fingerprint(*s) == readFresh(dir.path()));
    }
    SECTION("a check that began within the margin of the last change vouches for nothing")
    {
        fs::remove(record);
        struct stat young = st;
        const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        young.st_ctim.tv_sec = static_cast<time_t>(now / 1'000'000'000);
        young.st_ctim.tv_nsec = (now % 1'000'000'000) | 1; // a file system with fractions
        noteChecked(saved, young);
        CHECK_FALSE(fs::exists(record));
        young.st_ctim.tv_sec -= 1;
        noteChecked(saved, young);
        CHECK(checkedBefore(saved, young));
        struct stat wholeSeconds = young; // times without fractions: two seconds of margin
        wholeSeconds.st_ctim.tv_nsec = 0;
        noteChecked(saved, wholeSeconds);
        CHECK_FALSE(fs::exists(record));
    }
    SECTION("pruning takes the record with its index")
    {
        pruneIndexCache(cache.path(), 0, {});
        CHECK(fs::is_empty(cache.path()));
    }
}

TEST_CASE("a load of a file its record vouches for does not read its arrays", "[indexcache]")
{
    // Damage a wall time (only its block's checksum can tell), then vouch for the damaged file
    // as a check would: the load trusts the record, so the damage shows. Any later write to the
    // file would undo the record; this is what the record is for.
    test::TempDir dir;
    test::TempDir cache;
    oneOpTraces(dir.path(), 3);
    readCached(dir.path(), cache.path());
    const fs::path saved = onlySavedIndex(cache.path());
    std::string bytes = test::readBytes(saved);
    const std::size_t firstWallTime = 64; // the first array, after the 64-byte header
    bytes[firstWallTime + 7] = static_cast<char>(bytes[firstWallTime + 7] ^ 0x01);
    test::writeBytes(saved, bytes);
    {
        LogdirReader reader(dir.path(), cachedIn(cache.path()));
        reader.update();
        REQUIRE_THAT(reader.indexCacheStatus(), Catch::StartsWith("not used: "));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    struct stat st
    {};
    REQUIRE(::stat(saved.c_str(), &st) == 0);
    noteChecked(saved, st);
    REQUIRE(checkedBefore(saved, st));
    LogdirReader reader(dir.path(), cachedIn(cache.path()));
    const auto s = reader.update();
    CHECK(reader.indexCacheStatus() == "used");
    CHECK(s->trace(0).wallTime != 0.0); // the damaged wall time, read as saved
}

TEST_CASE("a saved origin is the origin of its expected patterns only", "[indexcache][intent]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("execution", ev::execution(1, "aten::log", {1}, {2}, 4,
                                          {ev::fullHealth(2, 4, 1, 0, 0, 0, 0, 3)}));
    set.append("execution", ev::execution(2, "aten::mean", {2}, {3}, 4,
                                          {ev::fullHealth(3, 1, 1, 0, 0, 0, 0, 0)}));
    auto originWith = [&](const std::vector<std::string>& patterns) {
        ReaderOptions options = cachedIn(cache.path());
        for (const auto& text : patterns)
            options.expected.push_back(*ExpectedPattern::parse(text, nullptr));
        LogdirReader reader(dir.path(), options);
        const auto s = reader.update();
        REQUIRE(reader.saveIndex());
        return std::make_pair(reader.indexCacheStatus(), s->origin().has_value());
    };
    CHECK(originWith({}) == std::make_pair(std::string("none saved"), true));
    CHECK(originWith({}) == std::make_pair(std::string("used"), true));
    // The same index, another list: the origin is found again, not brought along.
    CHECK(originWith({"aten::log:-inf"}) == std::make_pair(std::string("used"), false));
    CHECK(originWith({}) == std::make_pair(std::string("used"), true));
    test::writeBytes(dir.path() / std::string(kExpectedFileName), "aten::log\n");
    CHECK(originWith({}).second == false);
}

TEST_CASE("a record forged for an edited index vouches for no out-of-range entry", "[indexcache]")
{
    // An op id past the ops, written into the saved index, and a record written for the edited
    // file as a check would: the record spares the checksums, never the bounds.
    test::TempDir dir;
    test::TempDir cache;
    oneOpTraces(dir.path(), 3);
    readCached(dir.path(), cache.path());
    const fs::path saved = onlySavedIndex(cache.path());
    std::string bytes = test::readBytes(saved);
    const std::size_t opColumn = 64 + 3 * 8 + 3 * 8; // see "the checks behind the checksums"
    REQUIRE(bytes[opColumn] == 0);
    bytes[opColumn + 3] = static_cast<char>(0x7f); // op 0x7f000000
    test::writeBytes(saved, bytes);
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    struct stat st
    {};
    REQUIRE(::stat(saved.c_str(), &st) == 0);
    noteChecked(saved, st);
    REQUIRE(checkedBefore(saved, st));
    const std::string fresh = readFresh(dir.path());
    const auto result = test::runInChild(60, [&] {
        LogdirReader reader(dir.path(), cachedIn(cache.path()));
        const auto s = reader.update();
        if (reader.indexCacheStatus() !=
            "not used: it is damaged (a checksum does not match, or an entry is out of range)")
            return 10;
        return fingerprint(*s) == fresh ? 0 : 11;
    });
    CHECK(result.signal == 0);
    CHECK(result.code == 0);
}

namespace {

// Overwrites `bytes.size()` bytes of `file` at `offset`, in place (the inode stays).
void overwriteAt(const fs::path& file, std::uint64_t offset, const std::string& bytes)
{
    FILE* f = std::fopen(file.c_str(), "r+b");
    REQUIRE(f != nullptr);
    REQUIRE(std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0);
    REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
    std::fclose(f);
}

} // namespace

TEST_CASE("a logdir file rewritten in the middle is never taken for the one that was indexed",
          "[indexcache]")
{
    // 20 000 traces (several MiB, past the 64 KiB compared at each end); one in the middle is
    // rewritten with a record of the same length and a valid CRC, whose NaN count is 1.
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    std::string traces;
    std::uint64_t middle = 0;
    for (int i = 0; i < 20'000; ++i) {
        if (i == 10'000)
            middle = traces.size();
        traces += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false)));
    }
    set.appendBytes("graph_execution_traces", traces);
    const std::string nan =
        test::framed(ev::trace(10'000, "g", "r", 0, 2, ev::curtHealth(1, true)));
    const std::string finite = traces.substr(middle, nan.size());
    REQUIRE(nan.size() ==
            test::framed(ev::trace(10'000, "g", "r", 0, 2, ev::curtHealth(1, false))).size());
    const fs::path file = [&] {
        for (const auto& e : fs::directory_iterator(dir.path()))
            if (e.path().extension() == ".graph_execution_traces")
                return e.path();
        return fs::path();
    }();
    const std::uint64_t header = fs::file_size(file) - traces.size();
    const CachedRead first = readCached(dir.path(), cache.path());
    REQUIRE(first.status == "none saved");

    SECTION("and a record appended: the size grew")
    {
        overwriteAt(file, header + middle, nan);
        test::appendBytes(
            file, test::framed(ev::trace(20'000, "g", "r", 0, 2, ev::curtHealth(1, false))));
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK(read.status == "not used: " + file.filename().string() + " holds other data");
        CHECK(read.shown == readFresh(dir.path()));
    }
    SECTION("with the same size and its modification time put back")
    {
        const auto modified = fs::last_write_time(file);
        overwriteAt(file, header + middle, nan);
        fs::last_write_time(file, modified);
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK_THAT(read.status, Catch::StartsWith("not used: " + file.filename().string()));
        CHECK(read.shown == readFresh(dir.path()));
    }
    SECTION("with the same bytes again: still the index of the file")
    {
        overwriteAt(file, header + middle, finite);
        test::appendBytes(
            file, test::framed(ev::trace(20'000, "g", "r", 0, 2, ev::curtHealth(1, false))));
        const CachedRead read = readCached(dir.path(), cache.path());
        CHECK(read.status == "used");
        CHECK(read.shown == readFresh(dir.path()));
    }
}
