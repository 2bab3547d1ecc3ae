// SPDX-License-Identifier: Apache-2.0
#include "recordring.hpp"

#include <utility>

namespace nanscope::detail {
namespace {

// A record's storage kept in an entry for the next record: a FULL_TENSOR record's is let go.
constexpr std::size_t kKeptFramedBytes = std::size_t{64} << 10;

} // namespace

std::string_view RecordRing::Entry::bytes(std::string& scratch) const
{
    if (framed())
        return m_framed;
    wire::frameTrace(m_wallTime, *m_frame, payload(), scratch);
    return scratch;
}

std::string RecordRing::Entry::take()
{
    if (framed())
        return std::move(m_framed);
    std::string record;
    wire::frameTrace(m_wallTime, *m_frame, payload(), record);
    return record;
}

RecordRing::Entry& RecordRing::next()
{
    if (m_entries.size() < m_capacity) {
        ++m_size;
        return m_entries.emplace_back();
    }
    Entry& e = m_entries[m_first];
    m_first = (m_first + 1) % m_entries.size();
    e.m_frame.reset();
    e.m_constantPayload = nullptr;
    return e;
}

void RecordRing::pushTrace(TraceParts&& trace)
{
    Entry& e = next();
    if (e.m_framed.capacity() > kKeptFramedBytes)
        std::string().swap(e.m_framed);
    e.m_frame = std::move(trace.frame);
    e.m_wallTime = trace.wallTime;
    e.m_constantPayload = trace.constantPayload;
    if (!trace.constantPayload)
        std::swap(e.m_ownPayload, *trace.payload);
}

RecordRing RecordRing::takeAll()
{
    RecordRing taken(m_capacity);
    taken.m_entries.swap(m_entries);
    taken.m_first = std::exchange(m_first, 0);
    taken.m_size = std::exchange(m_size, 0);
    return taken;
}

} // namespace nanscope::detail
