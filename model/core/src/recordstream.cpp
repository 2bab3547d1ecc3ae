// SPDX-License-Identifier: GPL-3.0-or-later
#include "recordstream.hpp"

namespace nanscope::core {
namespace {
constexpr std::size_t kChunkBytes = 4u << 20;
}

RecordStream::RecordStream(const FileHandle& file, std::uint64_t begin, std::uint64_t end,
                           std::uint64_t maxPayload)
    : m_reader(file, begin, end, kChunkBytes, maxPayload), m_resume(begin)
{}

bool RecordStream::next(std::string_view& payload, std::uint64_t& offset)
{
    if (m_done)
        return false;
    if (m_next >= m_chunk.recordCount()) {
        m_next = 0;
        if (!m_reader.next(m_buffer, m_chunk)) {
            m_done = true;
            m_stop = m_reader.stopStatus();
            m_resume = m_reader.stopOffset();
            return false;
        }
        m_intact = m_chunk.firstCorruptPayload();
    }
    offset = m_chunk.recordOffset(m_next);
    if (m_next >= m_intact) {
        m_done = true;
        m_stop = format::RecordStatus::CorruptPayload;
        m_resume = offset;
        return false;
    }
    payload = m_chunk.payload(m_next);
    ++m_next;
    m_resume = offset + format::kRecordOverhead + payload.size();
    return true;
}

} // namespace nanscope::core
