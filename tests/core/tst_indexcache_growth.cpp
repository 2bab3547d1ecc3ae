// SPDX-License-Identifier: GPL-3.0-or-later
// A saved index reopened after the logdir grew: the reopen compares a sample of what was indexed
// in proportion to the growth, saving it again reads only what was appended (the checksums of
// what the load checked are kept), and those kept checksums still tell a file rewritten in the
// middle from the one that was indexed.
#include "indexcacheformat.hpp"
#include "indexcachetesting.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tempdir.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <thread>
#include <tuple>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;
namespace fs = std::filesystem;
using test::cachedIn;
using test::letChangesAge;
using test::traceFileOf;

namespace {

std::string framedTrace(int i, bool nonFinite)
{
    return test::framedOneOpTrace(static_cast<std::uint64_t>(i), nonFinite);
}

// The disk, counting the bytes read from files named *.graph_execution_traces.
class CountingFileSystem : public FileSystem
{
public:
    Kind kind(const fs::path& path) const override { return m_disk->kind(path); }
    bool list(const fs::path& dir, std::vector<Entry>& out, std::string& error) const override
    {
        return m_disk->list(dir, out, error);
    }
    std::unique_ptr<OpenFile> open(const fs::path& path, std::string& error) const override
    {
        auto file = m_disk->open(path, error);
        if (!file || path.extension() != ".graph_execution_traces")
            return file;
        return std::make_unique<Counted>(std::move(file), m_traceBytesRead);
    }

    std::uint64_t traceBytesRead() const { return m_traceBytesRead; }
    void reset() { m_traceBytesRead = 0; }

private:
    class Counted : public OpenFile
    {
    public:
        Counted(std::unique_ptr<OpenFile> file, std::atomic<std::uint64_t>& read)
            : m_file(std::move(file)), m_read(read)
        {}
        std::uint64_t size() const override { return m_file->size(); }
        std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const override
        {
            const std::size_t n = m_file->readAt(offset, buffer, size);
            m_read += n;
            return n;
        }
        std::int64_t modificationTime() const override { return m_file->modificationTime(); }
        Identity identity() const override { return m_file->identity(); }

    private:
        std::unique_ptr<OpenFile> m_file;
        std::atomic<std::uint64_t>& m_read;
    };

    std::shared_ptr<const FileSystem> m_disk = realFileSystem();
    mutable std::atomic<std::uint64_t> m_traceBytesRead{0};
};

} // namespace

TEST_CASE("saving a reopened index after an append reads only what was appended", "[indexcache]")
{
    // 40 000 traces: several MiB, several pieces of the checksums (1 MiB each).
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    std::string traces;
    for (int i = 0; i < 40'000; ++i)
        traces += framedTrace(i, i == 20'000);
    set.appendBytes("graph_execution_traces", traces);
    const fs::path file = traceFileOf(dir.path());
    const std::uint64_t indexedBytes = fs::file_size(file);
    REQUIRE(indexedBytes > (std::uint64_t{3} << 20));
    {
        LogdirReader first(dir.path(), cachedIn(cache.path()));
        first.update();
        REQUIRE(first.saveIndex());
    }
    std::string appended;
    for (int i = 40'000; i < 40'100; ++i)
        appended += framedTrace(i, false);
    test::appendBytes(file, appended);
    letChangesAge();

    const auto counting = std::make_shared<CountingFileSystem>();
    LogdirReader reopened(dir.path(), cachedIn(cache.path(), counting));
    const auto snapshot = reopened.update();
    REQUIRE(reopened.indexCacheStatus() == "used");
    REQUIRE(snapshot->traceCount() == 40'100);
    counting->reset();
    REQUIRE(reopened.saveIndex());
    // The last, partial piece of what was indexed, the appended bytes and the ends; not the
    // whole file again (as before: 7.9 MB for these 4.4 MB).
    CHECK(counting->traceBytesRead() < (std::uint64_t{3} << 20));
    CHECK(counting->traceBytesRead() >= appended.size());

    LogdirReader again(dir.path(), cachedIn(cache.path()));
    CHECK(again.update()->traceCount() == 40'100);
    CHECK(again.indexCacheStatus() == "used");

    SECTION("the kept checksums still tell a rewrite in the middle")
    {
        const std::string nan = framedTrace(10'000, true);
        const std::uint64_t header = indexedBytes - traces.size();
        std::uint64_t middle = 0;
        for (int i = 0; i < 10'000; ++i)
            middle += framedTrace(i, i == 20'000).size();
        REQUIRE(nan.size() == framedTrace(10'000, false).size());
        FILE* f = std::fopen(file.c_str(), "r+b");
        REQUIRE(f != nullptr);
        REQUIRE(std::fseek(f, static_cast<long>(header + middle), SEEK_SET) == 0);
        REQUIRE(std::fwrite(nan.data(), 1, nan.size(), f) == nan.size());
        std::fclose(f);
        test::appendBytes(file, framedTrace(40'100, false));
        LogdirReader rewritten(dir.path(), cachedIn(cache.path()));
        const auto s = rewritten.update();
        CHECK(rewritten.indexCacheStatus() ==
              "not used: " + file.filename().string() + " holds other data");
        CHECK(s->alertCount() == 2); // the NaN written in, read afresh
    }
}

TEST_CASE("a reopen after an append compares a sample of what was indexed, in proportion",
          "[indexcache]")
{
    // 48.5 MiB of traces (one record over and over: what is compared is bytes), past the smallest
    // sample of pieces (kMinSampledPieces), the last piece half a piece long.
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    const std::string record = framedTrace(1, false);
    const std::size_t records = ((std::size_t{97} << 20) / 2) / record.size();
    std::string traces;
    traces.reserve(records * record.size());
    for (std::size_t i = 0; i < records; ++i)
        traces += record;
    set.appendBytes("graph_execution_traces", traces);
    const fs::path file = traceFileOf(dir.path());
    const std::uint64_t indexedBytes = fs::file_size(file);
    {
        LogdirReader first(dir.path(), cachedIn(cache.path()));
        REQUIRE(first.update()->traceCount() == records);
        REQUIRE(first.saveIndex());
    }
    std::string appended;
    for (int i = 0; i < 1000; ++i)
        appended += framedTrace(i, i == 500);
    const auto reopen = [&] {
        const auto counting = std::make_shared<CountingFileSystem>();
        LogdirReader reader(dir.path(), cachedIn(cache.path(), counting));
        const auto snapshot = reader.update();
        return std::tuple{reader.indexCacheStatus(), snapshot->traceCount(), snapshot->alertCount(),
                          counting->traceBytesRead()};
    };

    SECTION("an append: a sample and what was appended are read, not the whole file")
    {
        test::appendBytes(file, appended);
        letChangesAge();
        const auto [status, count, alerts, bytesRead] = reopen();
        CHECK(status == "used");
        CHECK(count == records + 1000);
        CHECK(alerts == 1);
        const std::uint64_t sample = (indexfile::kMinSampledPieces + 1) * indexfile::kContentChunk;
        CHECK(bytesRead >= sample / 2);
        CHECK(bytesRead <= sample + appended.size() + 2 * indexfile::kEndWindow);
        CHECK(bytesRead < indexedBytes / 2);
    }
    SECTION("the file rewritten in place from its start and longer: not used")
    {
        FILE* f = std::fopen(file.c_str(), "r+b");
        REQUIRE(f != nullptr);
        const std::string other = framedTrace(2, false); // another step, same length
        REQUIRE(other.size() == record.size());
        REQUIRE(std::fseek(f, static_cast<long>(indexedBytes - traces.size()), SEEK_SET) == 0);
        REQUIRE(std::fwrite(other.data(), 1, other.size(), f) == other.size());
        std::fclose(f);
        test::appendBytes(file, appended);
        const auto [status, count, alerts, bytesRead] = reopen();
        CHECK(status == "not used: " + file.filename().string() + " holds other data");
        CHECK(count == records + 1000);
    }
    SECTION("a change in the last piece, short of the end compared whole: not used")
    {
        // The last piece is always in the sample; the last 64 KiB are compared whole anyway.
        const std::uint64_t at = indexedBytes - indexfile::kEndWindow - 4 * record.size();
        const std::uint64_t recordStart =
            at - (at - (indexedBytes - traces.size())) % record.size();
        REQUIRE(recordStart / indexfile::kContentChunk ==
                (indexedBytes - 1) / indexfile::kContentChunk);
        FILE* f = std::fopen(file.c_str(), "r+b");
        REQUIRE(f != nullptr);
        const std::string nan = framedTrace(1, true);
        REQUIRE(nan.size() == record.size());
        REQUIRE(std::fseek(f, static_cast<long>(recordStart), SEEK_SET) == 0);
        REQUIRE(std::fwrite(nan.data(), 1, nan.size(), f) == nan.size());
        std::fclose(f);
        test::appendBytes(file, appended);
        const auto [status, count, alerts, bytesRead] = reopen();
        CHECK(status == "not used: " + file.filename().string() + " holds other data");
        CHECK(alerts == 2); // the NaN written in, read afresh
    }
    SECTION("truncated and written again, longer: not used")
    {
        const std::string head = [&] {
            std::ifstream in(file, std::ios::binary);
            std::string bytes(static_cast<std::size_t>(indexedBytes - traces.size()), '\0');
            in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            return bytes;
        }();
        fs::resize_file(file, 0);
        test::appendBytes(file, head + appended + traces);
        const auto [status, count, alerts, bytesRead] = reopen();
        CHECK(status == "not used: " + file.filename().string() + " holds other data");
        CHECK(count == records + 1000);
    }
}

TEST_CASE("the sample of pieces grows with the append and reaches every piece", "[indexcache]")
{
    using indexfile::kContentChunk;
    using indexfile::kMinSampledPieces;
    using indexfile::sampledPieces;
    // A file of few pieces is compared whole.
    std::vector<std::size_t> all(kMinSampledPieces);
    std::iota(all.begin(), all.end(), std::size_t{0});
    CHECK(sampledPieces(kMinSampledPieces, 1) == all);
    CHECK(sampledPieces(3, 1) == std::vector<std::size_t>{0, 1, 2});
    CHECK(sampledPieces(0, 1).empty());
    // A large one: at least the smallest sample, more for a larger append, and the last piece.
    for (const std::uint64_t grown : {std::uint64_t{1}, 100 * kContentChunk, 999 * kContentChunk}) {
        const auto s = sampledPieces(1000, grown);
        const std::size_t wanted =
            std::max<std::size_t>(kMinSampledPieces, (grown + kContentChunk - 1) / kContentChunk);
        CHECK(s.size() >= wanted);
        CHECK(s.size() <= wanted + 1);
        CHECK(std::is_sorted(s.begin(), s.end()));
        CHECK(std::adjacent_find(s.begin(), s.end()) == s.end());
        CHECK(s.back() == 999);
    }
    // Spread from a random start: over many reopens, no piece is always skipped.
    std::vector<bool> seen(1000);
    for (int round = 0; round < 2000; ++round)
        for (const std::size_t k : sampledPieces(1000, 1))
            seen[k] = true;
    CHECK(std::count(seen.begin(), seen.end(), false) == 0);
}
