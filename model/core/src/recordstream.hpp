// SPDX-License-Identifier: GPL-3.0-or-later
// Record-by-record reading of a file region with both CRCs checked, for the files read on one
// thread (source files, stack frames, graphs, executions).
#pragma once

#include "recordscan.hpp"

#include <string_view>

namespace nanscope::core {

class RecordStream
{
public:
    RecordStream(const FileHandle& file, std::uint64_t begin, std::uint64_t end,
                 std::uint64_t maxPayload = format::kMaxRecordPayload);

    // The next record whose CRCs match; false at the first one that is missing, torn or corrupt.
    bool next(std::string_view& payload, std::uint64_t& offset);

    // Where reading stopped and why (EndOfData, TruncatedTail, CorruptLength, CorruptPayload,
    // TooLarge);
    // stopOffset() is also the offset to resume from.
    format::RecordStatus stopStatus() const { return m_stop; }
    std::uint64_t stopOffset() const { return m_resume; }

private:
    ChunkReader m_reader;
    ReadBuffer m_buffer;
    RecordChunk m_chunk;
    std::size_t m_next = 0;
    std::size_t m_intact = 0; // records of the chunk before its first corrupt payload
    std::uint64_t m_resume;
    bool m_done = false;
    format::RecordStatus m_stop = format::RecordStatus::EndOfData;
};

} // namespace nanscope::core
