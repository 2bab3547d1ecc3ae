// SPDX-License-Identifier: GPL-3.0-or-later
#include "recordscan.hpp"

#include <algorithm>

namespace nanscope::core {

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

bool ChunkReader::next(ReadBuffer& buffer, RecordChunk& chunk, std::uint64_t maxBytes)
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
        return format::scanRecordStarts(buffer, m_maxPayload, chunk.starts);
    };
    const auto left = m_end - m_position;
    const std::uint64_t want =
        std::min<std::uint64_t>({m_chunkBytes, left, std::max<std::uint64_t>(maxBytes, 1)});
    format::RecordStarts scan = read(static_cast<std::size_t>(want));
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
