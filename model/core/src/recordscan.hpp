// SPDX-License-Identifier: GPL-3.0-or-later
// Finds record boundaries in a file region, a chunk at a time, by hopping over length fields
// (each checked by its CRC). Payload CRCs are left to whoever decodes the records, so that this
// cheap pass can run ahead of the decoding threads.
#pragma once

#include "filehandle.hpp"
#include "nanscope/format/record.hpp"
#include "readbuffer.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace nanscope::core {

// A run of complete records read from the file.
struct RecordChunk
{
    std::uint64_t fileOffset = 0;      // of bytes[0]
    std::span<const std::byte> bytes;  // complete records only
    std::vector<std::uint32_t> starts; // where each record starts in `bytes`

    std::size_t recordCount() const { return starts.size(); }
    std::uint64_t recordOffset(std::size_t i) const { return fileOffset + starts[i]; }
    // The payload and its CRC (payload size + 4 bytes) of record i.
    std::span<const std::byte> payloadAndCrc(std::size_t i) const;
    // The payload of record i, whose CRC the caller has checked.
    std::string_view payload(std::size_t i) const
    {
        const auto body = payloadAndCrc(i);
        return {reinterpret_cast<const char*>(body.data()), body.size() - 4};
    }
    // The first record whose payload CRC does not match; recordCount() when all do.
    std::size_t firstCorruptPayload() const { return format::firstCorruptPayload(bytes, starts); }
};

class ChunkReader
{
public:
    // Reads [begin, end) of `file`; `end` is the file's size when the pass started, so a file
    // that keeps growing is read up to there and no further in one pass. Records whose payload is
    // longer than `maxPayload` stop the reading (TooLarge) before anything is allocated for them.
    ChunkReader(const FileHandle& file, std::uint64_t begin, std::uint64_t end,
                std::size_t chunkBytes, std::uint64_t maxPayload = format::kMaxRecordPayload);

    // Reads the next run of complete records into `buffer` and describes it in `chunk`. Returns
    // false when there is none; stopStatus() then says why.
    // `maxBytes` bounds this chunk (a record longer than that is still read whole).
    bool next(ReadBuffer& buffer, RecordChunk& chunk,
              std::uint64_t maxBytes = std::numeric_limits<std::uint64_t>::max());

    // EndOfData: everything up to `end` was records. TruncatedTail: an incomplete record starts
    // at stopOffset() (a writer is still at it, or the file was cut). CorruptLength: the record at
    // stopOffset() has a bad length field.
    format::RecordStatus stopStatus() const { return m_stop; }
    std::uint64_t stopOffset() const { return m_position; }
    // Bytes read from the file so far.
    std::uint64_t position() const { return m_position; }

private:
    const FileHandle& m_file;
    std::uint64_t m_position;
    std::uint64_t m_end;
    std::size_t m_chunkBytes;
    std::uint64_t m_maxPayload;
    bool m_done = false;
    format::RecordStatus m_stop = format::RecordStatus::EndOfData;
};

} // namespace nanscope::core
