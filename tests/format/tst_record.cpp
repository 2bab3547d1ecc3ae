// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/format/crc32c.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/format/recordfilereader.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <string>
#include <vector>

using namespace nanscope::format;

namespace {

std::span<const std::byte> bytesOf(const std::string& s)
{
    return std::as_bytes(std::span(s.data(), s.size()));
}

std::vector<std::string> samplePayloads()
{
    std::vector<std::string> payloads = {"", "a", std::string(1000, 'x')};
    std::mt19937 rng(99);
    for (int i = 0; i < 20; ++i) {
        std::string p(rng() % 300, '\0');
        for (auto& c : p)
            c = static_cast<char>(rng());
        payloads.push_back(p);
    }
    return payloads;
}

struct TempFile
{
    std::filesystem::path path;
    explicit TempFile(const std::string& contents)
    {
        path = std::filesystem::temp_directory_path() /
               ("nanscope-record-" + std::to_string(std::random_device{}()));
        std::ofstream(path, std::ios::binary) << contents;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

} // namespace

TEST_CASE("framed records parse back in order", "[record]")
{
    const auto payloads = samplePayloads();
    std::string file;
    for (const auto& p : payloads)
        appendRecord(file, p);

    std::uint64_t offset = 0;
    for (const auto& p : payloads) {
        const RecordView r = parseRecord(bytesOf(file), offset);
        REQUIRE(r.status == RecordStatus::Ok);
        REQUIRE(r.payload == p);
        REQUIRE(r.nextOffset == offset + kRecordOverhead + p.size());
        offset = r.nextOffset;
    }
    CHECK(parseRecord(bytesOf(file), offset).status == RecordStatus::EndOfData);
}

TEST_CASE("every cut inside the last record is a torn tail, never corruption", "[record]")
{
    std::string file;
    appendRecord(file, "first record");
    const std::size_t firstEnd = file.size();
    appendRecord(file, "second, longer record payload");
    for (std::size_t cut = firstEnd + 1; cut < file.size(); ++cut) {
        const std::string torn = file.substr(0, cut);
        REQUIRE(parseRecord(bytesOf(torn), 0).status == RecordStatus::Ok);
        const RecordView tail = parseRecord(bytesOf(torn), firstEnd);
        INFO("cut at " << cut);
        REQUIRE(tail.status == RecordStatus::TruncatedTail);
        REQUIRE(tail.nextOffset == firstEnd);
        REQUIRE(isRetryable(tail.status));
    }
}

TEST_CASE("a flipped bit anywhere is detected", "[record]")
{
    std::string file;
    appendRecord(file, "payload that must be protected");
    for (std::size_t byte = 0; byte < file.size(); ++byte) {
        for (int bit = 0; bit < 8; ++bit) {
            std::string bad = file;
            bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
            const RecordStatus s = parseRecord(bytesOf(bad), 0).status;
            INFO("byte " << byte << " bit " << bit);
            // A flip in the length bytes may also make the record look longer than the file;
            // what matters is that it is never accepted.
            REQUIRE(s != RecordStatus::Ok);
            if (byte >= kRecordHeaderSize)
                REQUIRE(s == RecordStatus::CorruptPayload);
            if (byte >= 8 && byte < kRecordHeaderSize)
                REQUIRE(s == RecordStatus::CorruptLength);
        }
    }
}

// A length whose CRC checks is what the writer wrote: a record over the size limit, not a corrupt
// one (nor a torn tail to wait for).
TEST_CASE("an absurd length with a valid CRC is over the size limit, not a torn tail", "[record]")
{
    for (std::uint64_t length :
         {std::uint64_t{1} << 63, kMaxRecordPayload + 1, ~std::uint64_t{0}}) {
        std::string file(kRecordHeaderSize, '\0');
        for (int i = 0; i < 8; ++i)
            file[i] = static_cast<char>((length >> (8 * i)) & 0xff);
        const std::uint32_t masked = maskCrc(crc32c(file.data(), 8));
        for (int i = 0; i < 4; ++i)
            file[8 + i] = static_cast<char>((masked >> (8 * i)) & 0xff);
        file += "some bytes that follow";
        INFO("length " << length);
        REQUIRE(parseRecord(bytesOf(file), 0).status == RecordStatus::TooLarge);

        TempFile f(file);
        RecordFileReader reader;
        REQUIRE(reader.open(f.path));
        std::string payload;
        REQUIRE(reader.next(payload) == RecordStatus::TooLarge);
        REQUIRE(reader.offset() == 0);
    }
}

TEST_CASE("the file reader resumes a torn tail once the writer finishes it", "[record]")
{
    std::string full;
    appendRecord(full, "one");
    appendRecord(full, "two");
    const std::size_t cut = full.size() - 5;

    TempFile f(full.substr(0, cut));
    RecordFileReader reader;
    REQUIRE(reader.open(f.path));
    std::string payload;
    REQUIRE(reader.next(payload) == RecordStatus::Ok);
    REQUIRE(payload == "one");
    const auto resumeAt = reader.offset();
    REQUIRE(reader.next(payload) == RecordStatus::TruncatedTail);
    REQUIRE(reader.offset() == resumeAt);

    std::ofstream(f.path, std::ios::binary | std::ios::app) << full.substr(cut);
    REQUIRE(reader.next(payload) == RecordStatus::Ok);
    REQUIRE(payload == "two");
    REQUIRE(reader.next(payload) == RecordStatus::EndOfData);
}

TEST_CASE("the file reader reads large records and random offsets", "[record]")
{
    std::string full;
    std::vector<std::uint64_t> offsets;
    std::vector<std::string> payloads;
    for (int i = 0; i < 50; ++i) {
        offsets.push_back(full.size());
        payloads.push_back(
            std::string(static_cast<std::size_t>(i) * 20000 + 1, static_cast<char>('a' + i % 26)));
        appendRecord(full, payloads.back());
    }
    TempFile f(full);
    RecordFileReader reader;
    REQUIRE(reader.open(f.path));
    std::string payload;
    for (int i = 49; i >= 0; i -= 7) {
        REQUIRE(reader.readAt(offsets[i], payload) == RecordStatus::Ok);
        REQUIRE(payload == payloads[i]);
    }
    for (const auto& p : payloads) {
        REQUIRE(reader.next(payload) == RecordStatus::Ok);
        REQUIRE(payload == p);
    }
    REQUIRE(reader.next(payload) == RecordStatus::EndOfData);
}

TEST_CASE("the file reader reports files it cannot open", "[record]")
{
    RecordFileReader reader;
    std::string error;
    CHECK_FALSE(reader.open("/nonexistent/nanscope/file", &error));
    CHECK(error.find("cannot open") != std::string::npos);
    CHECK_FALSE(reader.open(std::filesystem::temp_directory_path(), &error));
    CHECK(error.find("not a regular file") != std::string::npos);
}

TEST_CASE("a scan resumed where it stopped finds the starts of one scan of the whole", "[record]")
{
    // A reader scans each piece of a chunk as it arrives: every cut must give the same starts,
    // end and stop as scanning the whole chunk at once.
    const auto payloads = samplePayloads();
    std::string file;
    for (const auto& p : payloads)
        appendRecord(file, p);
    std::vector<std::uint32_t> whole;
    const RecordStarts once = scanRecordStarts(bytesOf(file), kMaxRecordPayload, whole);
    for (std::size_t cut = 0; cut <= file.size(); ++cut) {
        std::vector<std::uint32_t> starts;
        const RecordStarts first =
            scanRecordStarts(bytesOf(file).first(cut), kMaxRecordPayload, starts);
        INFO("cut at " << cut);
        REQUIRE(first.consumed <= cut);
        const RecordStarts rest =
            scanRecordStarts(bytesOf(file), kMaxRecordPayload, starts, first.consumed);
        REQUIRE(starts == whole);
        REQUIRE(rest.consumed == once.consumed);
        REQUIRE(rest.stop == once.stop);
    }
    std::vector<std::uint32_t> none;
    const RecordStarts past = scanRecordStarts(bytesOf(file), kMaxRecordPayload, none, file.size());
    CHECK(none.empty());
    CHECK(past.consumed == file.size());
    CHECK(past.stop == RecordStatus::EndOfData);
}

TEST_CASE("record starts are found by hopping over checked lengths", "[record]")
{
    const auto payloads = samplePayloads();
    std::string file;
    std::vector<std::uint32_t> expected;
    for (const auto& p : payloads) {
        expected.push_back(static_cast<std::uint32_t>(file.size()));
        appendRecord(file, p);
    }
    std::vector<std::uint32_t> starts;
    RecordStarts scan = scanRecordStarts(bytesOf(file), kMaxRecordPayload, starts);
    CHECK(starts == expected);
    CHECK(scan.consumed == file.size());
    CHECK(scan.stop == RecordStatus::EndOfData);
    CHECK(firstCorruptPayload(bytesOf(file).first(scan.consumed), starts) == payloads.size());

    SECTION("a cut inside the last record")
    {
        const std::string cut = file.substr(0, file.size() - 3);
        starts.clear();
        scan = scanRecordStarts(bytesOf(cut), kMaxRecordPayload, starts);
        CHECK(starts.size() == payloads.size() - 1);
        CHECK(scan.consumed == expected.back());
        CHECK(scan.stop == RecordStatus::TruncatedTail);
        CHECK(scan.nextRecordSize == kRecordOverhead + payloads.back().size());
    }
    SECTION("a cut inside a header")
    {
        const std::string cut = file.substr(0, expected[5] + 7);
        starts.clear();
        scan = scanRecordStarts(bytesOf(cut), kMaxRecordPayload, starts);
        CHECK(starts.size() == 5);
        CHECK(scan.stop == RecordStatus::TruncatedTail);
        CHECK(scan.nextRecordSize == 0);
    }
    SECTION("a corrupt length stops the hopping there")
    {
        std::string bad = file;
        bad[expected[7] + 2] ^= 0x10;
        starts.clear();
        scan = scanRecordStarts(bytesOf(bad), kMaxRecordPayload, starts);
        CHECK(starts.size() == 7);
        CHECK(scan.consumed == expected[7]);
        CHECK(scan.stop == RecordStatus::CorruptLength);
    }
    SECTION("a length over the caller's limit is too large, not corrupt")
    {
        starts.clear();
        scan = scanRecordStarts(bytesOf(file), 999, starts);
        CHECK(starts.size() == 2); // "", "a", then 1000 bytes
        CHECK(scan.stop == RecordStatus::TooLarge);
    }
    SECTION("the first corrupt payload is found wherever it lies in a group of three")
    {
        for (std::size_t victim = 0; victim < payloads.size(); ++victim) {
            if (payloads[victim].empty())
                continue;
            std::string bad = file;
            bad[expected[victim] + kRecordHeaderSize] ^= 0x01;
            CHECK(firstCorruptPayload(bytesOf(bad), starts) == victim);
            // A stored CRC that is wrong counts as well.
            std::string badCrc = file;
            badCrc[expected[victim] + kRecordHeaderSize + payloads[victim].size()] ^= 0x01;
            CHECK(firstCorruptPayload(bytesOf(badCrc), starts) == victim);
        }
    }
}
