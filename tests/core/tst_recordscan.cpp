// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file a chunk at a time (ChunkReader): each chunk is read in pieces and scanned piece by
// piece, and must hold exactly the records one scan of the whole file finds, in whichever piece
// their headers, payloads or ends fall.
#include "loaders.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/filesystem.hpp"
#include "nanscope/format/record.hpp"
#include "recordscan.hpp"
#include "tempdir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

using namespace nanscope;
using namespace nanscope::core;

namespace {

// Records of about a hundred bytes, with a few longer than a piece of a chunk and one longer than
// a chunk: their starts, in order, and the file.
struct RecordFile
{
    std::string bytes;
    std::vector<std::uint64_t> starts;
};

RecordFile mixedRecords()
{
    RecordFile file;
    std::mt19937 rng(7);
    for (int i = 0; i < 40'000; ++i) {
        std::size_t size = 60 + rng() % 120;
        if (i % 5000 == 17)
            size = (300u << 10) + rng() % 1000; // more than a piece
        if (i == 23'456)
            size = kReadChunkBytes + 12'345; // more than a chunk
        file.starts.push_back(file.bytes.size());
        format::appendRecord(file.bytes, std::string(size, static_cast<char>('a' + i % 26)));
    }
    return file;
}

struct ChunkedRead
{
    std::vector<std::uint64_t> starts;
    std::vector<std::uint64_t> chunkOffsets;
    format::RecordStatus stop = format::RecordStatus::EndOfData;
    std::uint64_t stopOffset = 0;
};

ChunkedRead readInChunks(const std::filesystem::path& path)
{
    FileHandle handle;
    REQUIRE(handle.open(*realFileSystem(), path, nullptr));
    ChunkReader reader(handle, 0, handle.size(), kReadChunkBytes);
    ReadBuffer buffer;
    RecordChunk chunk;
    ChunkedRead result;
    while (reader.next(buffer, chunk)) {
        result.chunkOffsets.push_back(chunk.fileOffset);
        REQUIRE(chunk.firstCorruptPayload() == chunk.recordCount());
        for (std::size_t r = 0; r < chunk.recordCount(); ++r)
            result.starts.push_back(chunk.recordOffset(r));
    }
    result.stop = reader.stopStatus();
    result.stopOffset = reader.stopOffset();
    return result;
}

} // namespace

TEST_CASE("a file read in chunks and scanned in pieces yields every record once, in order",
          "[reader][chunks]")
{
    const RecordFile file = mixedRecords();
    REQUIRE(file.bytes.size() > 4 * kReadChunkBytes);
    test::TempDir dir;
    const auto path = dir.path() / "records";
    test::writeBytes(path, file.bytes);

    const ChunkedRead intact = readInChunks(path);
    SECTION("an intact file")
    {
        CHECK(intact.chunkOffsets.size() > 4);
        CHECK(intact.starts == file.starts);
        CHECK(intact.stop == format::RecordStatus::EndOfData);
        CHECK(intact.stopOffset == file.bytes.size());
    }
    SECTION("a corrupt length field deep inside a chunk stops the reading at its record")
    {
        // A megabyte into a chunk: only a later piece of that chunk meets it.
        std::uint64_t deep = 0;
        for (std::size_t c = 1; c + 1 < intact.chunkOffsets.size() && deep == 0; ++c)
            if (intact.chunkOffsets[c + 1] - intact.chunkOffsets[c] > (3u << 19))
                deep = intact.chunkOffsets[c] + (1u << 20);
        REQUIRE(deep != 0);
        const std::size_t victim = static_cast<std::size_t>(
            std::lower_bound(file.starts.begin(), file.starts.end(), deep) - file.starts.begin());
        std::string bad = file.bytes;
        bad[file.starts[victim] + 3] ^= 0x20;
        test::writeBytes(path, bad);
        const ChunkedRead read = readInChunks(path);
        CHECK(read.stop == format::RecordStatus::CorruptLength);
        CHECK(read.stopOffset == file.starts[victim]);
        CHECK(read.starts ==
              std::vector<std::uint64_t>(file.starts.begin(), file.starts.begin() + victim));
    }
    SECTION("a file cut inside a record ends at the record before it")
    {
        const std::size_t last = file.starts.size() - 10;
        test::writeBytes(path, std::string_view(file.bytes).substr(0, file.starts[last] + 50));
        const ChunkedRead read = readInChunks(path);
        CHECK(read.stop == format::RecordStatus::TruncatedTail);
        CHECK(read.stopOffset == file.starts[last]);
        CHECK(read.starts ==
              std::vector<std::uint64_t>(file.starts.begin(), file.starts.begin() + last));
    }
}
