// SPDX-License-Identifier: GPL-3.0-or-later
#include "recordscan.hpp"

#include "nanscope/format/crc32c.hpp"

#include <algorithm>

namespace nanscope::core {
namespace {

struct BoundaryScan
{
    std::size_t consumed = 0; // bytes of complete records from the buffer's start
    format::RecordStatus stop = format::RecordStatus::EndOfData;
    std::uint64_t nextRecordSize = 0; // of the record that did not fit, when its header is valid
};

std::uint64_t littleEndian64(const std::byte* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | std::to_integer<std::uint64_t>(p[i]);
    return v;
}

std::uint32_t littleEndian32(const std::byte* p)
{
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | std::to_integer<std::uint32_t>(p[i]);
    return v;
}

// format::parseRecordHeader's rules, inlined: this loop visits every record of the logdir.
BoundaryScan scanBoundaries(std::span<const std::byte> buffer, std::uint64_t maxPayload,
                            std::vector<std::uint32_t>& starts)
{
    BoundaryScan scan;
    const std::byte* data = buffer.data();
    const std::size_t size = buffer.size();
    std::size_t at = 0;
    while (at < size) {
        const std::size_t rest = size - at;
        if (rest < format::kRecordHeaderSize) {
            scan.stop = format::RecordStatus::TruncatedTail;
            break;
        }
        const std::uint64_t length = littleEndian64(data + at);
        if (format::unmaskCrc(littleEndian32(data + at + 8)) != format::crc32c(data + at, 8)) {
            scan.stop = format::RecordStatus::CorruptLength;
            break;
        }
        // A length whose CRC checks is what the writer meant: over the limit, not corrupt.
        if (length > maxPayload || length > format::kMaxRecordPayload) {
            scan.stop = format::RecordStatus::TooLarge;
            break;
        }
        if (rest < format::kRecordOverhead || rest - format::kRecordOverhead < length) {
            scan.stop = format::RecordStatus::TruncatedTail;
            scan.nextRecordSize = format::kRecordOverhead + length;
            break;
        }
        starts.push_back(static_cast<std::uint32_t>(at));
        at += format::kRecordOverhead + static_cast<std::size_t>(length);
    }
    scan.consumed = at;
    return scan;
}

} // namespace

std::span<const std::byte> RecordChunk::payloadAndCrc(std::size_t i) const
{
    const std::size_t begin = starts[i] + format::kRecordHeaderSize;
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : bytes.size();
    return bytes.subspan(begin, end - begin);
}

ChunkReader::ChunkReader(const FileHandle& file, std::uint64_t begin, std::uint64_t end,
                         std::size_t chunkBytes, std::uint64_t maxPayload)
    : m_file(file), m_position(begin), m_end(end),
      // A window smaller than a header could never be widened past one.
      m_chunkBytes(std::max(chunkBytes, format::kRecordOverhead)), m_maxPayload(maxPayload)
{}

bool ChunkReader::next(std::vector<std::byte>& buffer, RecordChunk& chunk, std::uint64_t maxBytes)
{
    if (m_done)
        return false;
    if (m_position >= m_end) {
        m_done = true;
        m_stop = format::RecordStatus::EndOfData;
        return false;
    }
    auto read = [&](std::size_t want) {
        buffer.resize(want);
        const std::size_t got = m_file.readAt(m_position, buffer.data(), want);
        if (got < want) // the file shrank under us: what is there is all there is
            m_end = m_position + got;
        buffer.resize(got);
        chunk.starts.clear();
        return scanBoundaries(buffer, m_maxPayload, chunk.starts);
    };
    const auto left = m_end - m_position;
    const std::uint64_t want =
        std::min<std::uint64_t>({m_chunkBytes, left, std::max<std::uint64_t>(maxBytes, 1)});
    BoundaryScan scan = read(static_cast<std::size_t>(want));
    if (scan.consumed == 0 && scan.stop == format::RecordStatus::TruncatedTail &&
        scan.nextRecordSize == 0 && want < left) {
        // The window was cut short (a byte budget) inside the header: widen it to the header
        // only, for the budget's sake (the record itself is read whole just below).
        scan = read(
            static_cast<std::size_t>(std::min<std::uint64_t>(format::kRecordHeaderSize, left)));
    }
    if (scan.consumed == 0 && scan.stop == format::RecordStatus::TruncatedTail &&
        scan.nextRecordSize > buffer.size() && scan.nextRecordSize <= m_end - m_position) {
        // One record longer than the window: read it whole. Its size is bounded by the file and
        // by the caller's limit on records.
        scan = read(static_cast<std::size_t>(scan.nextRecordSize));
    }
    if (scan.consumed == 0) {
        m_done = true;
        m_stop = buffer.empty() ? format::RecordStatus::EndOfData : scan.stop;
        return false;
    }
    chunk.fileOffset = m_position;
    chunk.bytes = std::span<const std::byte>(buffer.data(), scan.consumed);
    m_position += scan.consumed;
    if (scan.stop == format::RecordStatus::CorruptLength ||
        scan.stop == format::RecordStatus::TooLarge) {
        m_done = true;
        m_stop = scan.stop;
    }
    return true;
}

} // namespace nanscope::core
