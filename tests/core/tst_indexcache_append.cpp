// SPDX-License-Identifier: GPL-3.0-or-later
// Saving again after an append: the saved index is appended to in place (each array's new
// entries as one more extent, a new description, the header last), reopens as a read of the
// logdir shows it, stays vouched for, and is written whole again when another process changed it
// since, or when what it no longer uses would pass half of what it uses.
#include "indexcachetesting.hpp"
#include "indexcachetrust.hpp"
#include "logdirbuilder.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <sys/stat.h>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;
using test::cachedIn;
using test::fingerprint;
using test::readFresh;

namespace {

// Traces [from, to) of the one op, a NaN every 20: 150 000 of them hold several whole chunks of
// each array (65 536 entries; 4 096 alerts).
std::string traces(std::uint64_t from, std::uint64_t to)
{
    std::string bytes;
    for (std::uint64_t i = from; i < to; ++i)
        bytes += test::framedOneOpTrace(i, i % 20 == 0);
    return bytes;
}

struct stat statOf(const fs::path& path)
{
    struct stat st
    {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return st;
}

// A logdir of 150 000 traces whose index is saved, growing by `step` traces a time.
class GrowingLogdir
{
public:
    GrowingLogdir() : m_set(test::runWithOneOp(m_dir.path()))
    {
        m_set.appendBytes("graph_execution_traces", traces(0, m_count));
        LogdirReader first(m_dir.path(), cachedIn(m_cache.path()));
        first.update();
        REQUIRE(first.saveIndex());
    }

    const fs::path& logdir() const { return m_dir.path(); }
    const fs::path& cache() const { return m_cache.path(); }
    fs::path index() const { return test::onlySavedIndex(m_cache.path()); }

    void append(std::uint64_t step)
    {
        test::appendBytes(test::traceFileOf(m_dir.path()), traces(m_count, m_count + step));
        m_count += step;
        test::letChangesAge();
    }

    // Reopens from the saved index (which must be used), then saves it again.
    void reopenAndSave()
    {
        LogdirReader reader(m_dir.path(), cachedIn(m_cache.path()));
        REQUIRE(reader.update()->traceCount() == m_count);
        REQUIRE(reader.indexCacheStatus() == "used");
        REQUIRE(reader.saveIndex());
    }

    // What a reopen from the saved index shows, and its status.
    std::pair<std::string, std::string> reopen() const
    {
        LogdirReader reader(m_dir.path(), cachedIn(m_cache.path()));
        const auto s = reader.update();
        return {reader.indexCacheStatus(), fingerprint(*s)};
    }

private:
    test::TempDir m_dir;
    test::TempDir m_cache;
    test::FileSetWriter m_set;
    std::uint64_t m_count = 150'000;
};

} // namespace

TEST_CASE("saving again after an append appends to the saved index in place", "[indexcache]")
{
    GrowingLogdir logdir;
    const fs::path index = logdir.index();
    const struct stat whole = statOf(index);
    logdir.append(1000);
    logdir.reopenAndSave();

    const struct stat appended = statOf(index);
    CHECK(appended.st_ino == whole.st_ino); // the same file, not one written whole and renamed
    CHECK(appended.st_size > whole.st_size);
    CHECK(appended.st_size < whole.st_size + whole.st_size / 2);
    // Vouched for as the whole one was: the next reopen need not check its arrays.
    CHECK(checkedBefore(index, appended));
    const auto [status, shown] = logdir.reopen();
    CHECK(status == "used");
    CHECK(shown == readFresh(logdir.logdir()));

    SECTION("checked whole, without the record that vouches for it, it is still used")
    {
        fs::remove(checkedRecord(index));
        const auto [checked, shownChecked] = logdir.reopen();
        CHECK(checked == "used");
        CHECK(shownChecked == readFresh(logdir.logdir()));
    }
    SECTION("and again: the arrays in three extents")
    {
        logdir.append(70'000); // past another whole chunk of every array
        logdir.reopenAndSave();
        CHECK(statOf(index).st_ino == whole.st_ino);
        const auto [again, shownAgain] = logdir.reopen();
        CHECK(again == "used");
        CHECK(shownAgain == readFresh(logdir.logdir()));
    }
    SECTION("a damaged byte in what was appended makes it a miss")
    {
        // The first array's new extent starts at the page after where the file ended.
        const auto at = static_cast<std::uint64_t>((whole.st_size + 4095) / 4096 * 4096 + 8);
        std::string bytes = test::readBytes(index);
        REQUIRE(at < bytes.size());
        bytes[at] = static_cast<char>(bytes[at] ^ 0x10);
        test::writeBytes(index, bytes);
        const auto [damaged, shownDamaged] = logdir.reopen();
        CHECK_THAT(damaged, Catch::StartsWith("not used: it is damaged"));
        CHECK(shownDamaged == readFresh(logdir.logdir()));
    }
}

TEST_CASE("a saved index changed since it was loaded is written whole, not appended to",
          "[indexcache]")
{
    GrowingLogdir logdir;
    const fs::path index = logdir.index();
    logdir.append(1000);
    LogdirReader reader(logdir.logdir(), cachedIn(logdir.cache()));
    reader.update();
    REQUIRE(reader.indexCacheStatus() == "used");
    // Another process writes it meanwhile (here, the same bytes again: a new change time).
    const struct stat loaded = statOf(index);
    test::writeBytes(index, test::readBytes(index));
    REQUIRE(reader.saveIndex());
    CHECK(statOf(index).st_ino != loaded.st_ino);
    const auto [status, shown] = logdir.reopen();
    CHECK(status == "used");
    CHECK(shown == readFresh(logdir.logdir()));
}

TEST_CASE("what an appended index no longer uses stays under half of what it uses", "[indexcache]")
{
    GrowingLogdir logdir;
    const struct stat whole = statOf(logdir.index());
    bool rewritten = false;
    for (int round = 0; round < 8; ++round) {
        logdir.append(500);
        logdir.reopenAndSave();
        const struct stat now = statOf(logdir.index());
        rewritten = rewritten || now.st_ino != whole.st_ino;
        // What it uses grows by 500 traces a round, a few hundred kilobytes in all.
        CHECK(now.st_size <= whole.st_size + whole.st_size / 2 + (std::int64_t{1} << 20));
    }
    CHECK(rewritten);
    const auto [status, shown] = logdir.reopen();
    CHECK(status == "used");
    CHECK(shown == readFresh(logdir.logdir()));
}
