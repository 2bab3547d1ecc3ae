// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: TFRecord framing. Three readers of the same bytes must agree record for record:
// the format library's in-memory parser, its file reader, and the core's chunked scanner with the
// payload CRCs checked as the trace decoders check them. Any disagreement is a bug (abort).
//
// Input: one flags byte, then the file's bytes. Flags bit 0: recompute the CRCs of every record
// that fits first, so that the deep paths (long records, chunk edges) are reached; bits 1-7: the
// core scanner's chunk size.
#include "filehandle.hpp"
#include "fuzzinput.hpp"
#include "nanscope/format/crc32c.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "recordscan.hpp"
#include "recordstream.hpp"

#include <cstdlib>
#include <cstring>

using namespace nanscope;

namespace {

struct Parsed
{
    std::vector<std::pair<std::uint64_t, std::string>> records; // offset, payload
    format::RecordStatus stop = format::RecordStatus::EndOfData;
    std::uint64_t stopOffset = 0;
};

void putU32(char* p, std::uint32_t v)
{
    std::memcpy(p, &v, 4); // little-endian machines only, as the harness runs on x86-64/arm64
}

// Makes every record whose length fits the remaining bytes valid, and the one that does not a
// torn tail with a valid length CRC.
void fixCrcs(std::string& bytes)
{
    std::size_t at = 0;
    while (bytes.size() - at >= format::kRecordHeaderSize) {
        std::uint64_t length = 0;
        std::memcpy(&length, bytes.data() + at, 8);
        putU32(bytes.data() + at + 8, format::maskCrc(format::crc32c(bytes.data() + at, 8)));
        const std::size_t rest = bytes.size() - at;
        if (length > format::kMaxRecordPayload || rest - format::kRecordOverhead < length ||
            rest < format::kRecordOverhead)
            return;
        const auto size = static_cast<std::size_t>(length);
        putU32(
            bytes.data() + at + format::kRecordHeaderSize + size,
            format::maskCrc(format::crc32c(bytes.data() + at + format::kRecordHeaderSize, size)));
        at += format::kRecordOverhead + size;
    }
}

Parsed parseInMemory(std::string_view bytes)
{
    Parsed p;
    const auto span = std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    std::uint64_t offset = 0;
    for (;;) {
        const format::RecordView r = format::parseRecord(span, offset);
        if (r.status != format::RecordStatus::Ok) {
            p.stop = r.status;
            p.stopOffset = offset;
            return p;
        }
        p.records.emplace_back(offset, std::string(r.payload));
        offset = r.nextOffset;
    }
}

Parsed parseWithFileReader(const std::filesystem::path& file)
{
    Parsed p;
    format::RecordFileReader reader;
    if (!reader.open(file))
        std::abort();
    std::string payload;
    for (;;) {
        const std::uint64_t offset = reader.offset();
        const format::RecordStatus s = reader.next(payload);
        if (s != format::RecordStatus::Ok) {
            p.stop = s;
            p.stopOffset = offset;
            return p;
        }
        p.records.emplace_back(offset, payload);
        // Random access gives the same record.
        std::string again;
        if (reader.readAt(offset, again) != format::RecordStatus::Ok || again != payload)
            std::abort();
    }
}

Parsed parseWithChunks(const std::filesystem::path& file, std::size_t chunkBytes)
{
    Parsed p;
    core::FileHandle handle;
    std::string error;
    if (!handle.open(*core::realFileSystem(), file, &error))
        std::abort();
    const std::uint64_t size = handle.size();
    core::ChunkReader reader(handle, 0, size, chunkBytes);
    core::ReadBuffer buffer;
    core::RecordChunk chunk;
    while (reader.next(buffer, chunk)) {
        for (std::size_t i = 0; i < chunk.recordCount(); ++i) {
            const auto body = chunk.payloadAndCrc(i);
            if (!format::payloadCrcMatches(body)) {
                p.stop = format::RecordStatus::CorruptPayload;
                p.stopOffset = chunk.recordOffset(i);
                return p;
            }
            p.records.emplace_back(
                chunk.recordOffset(i),
                std::string(reinterpret_cast<const char*>(body.data()), body.size() - 4));
        }
    }
    p.stop = reader.stopStatus();
    p.stopOffset = reader.stopOffset();
    return p;
}

Parsed parseWithStream(const std::filesystem::path& file)
{
    Parsed p;
    core::FileHandle handle;
    std::string error;
    if (!handle.open(*core::realFileSystem(), file, &error))
        std::abort();
    core::RecordStream stream(handle, 0, handle.size());
    std::string_view payload;
    std::uint64_t offset = 0;
    while (stream.next(payload, offset))
        p.records.emplace_back(offset, std::string(payload));
    p.stop = stream.stopStatus();
    p.stopOffset = stream.stopOffset();
    return p;
}

void requireSame(const Parsed& a, const Parsed& b)
{
    if (a.records != b.records || a.stop != b.stop || a.stopOffset != b.stopOffset)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::uint8_t flags = data[0];
    std::string bytes(fuzz::asText({data + 1, size - 1}));
    if (flags & 1)
        fixCrcs(bytes);
    const auto file = fuzz::scratchDirectory() / "records";
    fuzz::writeFile(file, bytes);

    const Parsed reference = parseInMemory(bytes);
    requireSame(reference, parseWithFileReader(file));
    requireSame(reference, parseWithStream(file));
    const std::size_t chunk = 1 + (std::size_t{flags} >> 1) * 13;
    requireSame(reference, parseWithChunks(file, chunk));
    return 0;
}
