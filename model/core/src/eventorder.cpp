// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventorder.hpp"

namespace nanscope::core {

EventOrder::EventOrder(const Snapshot::Data& data) : m_data(data)
{
    const std::size_t files = data.layout ? data.layout->fileSets.size() : 0;
    m_streams.resize(files + 1);
    const auto& segments = data.segments;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        const std::uint64_t end =
            k + 1 < segments.size() ? segments[k + 1].firstIndex : data.traces.size();
        if (segments[k].fileIndex < files && end > segments[k].firstIndex)
            m_streams[segments[k].fileIndex].ranges.emplace_back(segments[k].firstIndex, end);
    }
    Stream& executions = m_streams.back();
    executions.source = EventSource::Eager;
    if (data.executions.size() > 0)
        executions.ranges.emplace_back(0, data.executions.size());
    for (auto& s : m_streams)
        if (!s.ranges.empty())
            s.position = s.ranges.front().first;
}

double EventOrder::wallTime(const Stream& s, std::uint64_t index) const
{
    return s.source == EventSource::Graph ? m_data.traces.wallTime[index]
                                          : m_data.executions.wallTime[index];
}

void EventOrder::advance(Stream& s, std::uint64_t to)
{
    s.position = to;
    if (s.position >= s.ranges[s.range].second) {
        ++s.range;
        if (!s.done())
            s.position = s.ranges[s.range].first;
    }
}

bool EventOrder::nextRun(EventRun& run)
{
    // The stream with the earliest head, and the head that must not be overtaken.
    std::size_t first = m_streams.size();
    std::size_t second = m_streams.size();
    auto before = [&](std::size_t a, std::size_t b) { // stream order breaks ties
        const double wa = wallTime(m_streams[a], m_streams[a].position);
        const double wb = wallTime(m_streams[b], m_streams[b].position);
        return wa < wb || (!(wb < wa) && a < b);
    };
    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        if (m_streams[i].done())
            continue;
        if (first == m_streams.size() || before(i, first)) {
            second = first;
            first = i;
        } else if (second == m_streams.size() || before(i, second)) {
            second = i;
        }
    }
    if (first == m_streams.size())
        return false;
    Stream& s = m_streams[first];
    const std::uint64_t rangeEnd = s.ranges[s.range].second;
    std::uint64_t end = s.position + 1;
    if (second == m_streams.size()) {
        end = rangeEnd;
    } else {
        const Stream& other = m_streams[second];
        const double limit = wallTime(other, other.position);
        const bool winsTies = first < second;
        if (s.source == EventSource::Graph) {
            const auto& wall = m_data.traces.wallTime;
            while (end < rangeEnd && (wall[end] < limit || (winsTies && wall[end] == limit)))
                ++end;
        } else {
            const auto& wall = m_data.executions.wallTime;
            while (end < rangeEnd && (wall[end] < limit || (winsTies && wall[end] == limit)))
                ++end;
        }
    }
    run = {s.source, s.position, end};
    advance(s, end);
    return true;
}

} // namespace nanscope::core
