// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/alertfilter.hpp"

#include <algorithm>
#include <climits>
#include <map>

namespace nanscope::core {
namespace {

TraceFilter traceFilterOf(const AlertFilter& filter)
{
    TraceFilter traces;
    traces.host = filter.host;
    traces.device = filter.device;
    traces.text = filter.text;
    return traces;
}

} // namespace

AlertMatcher::AlertMatcher(const Snapshot& snapshot, AlertFilter filter)
    : m_snapshot(snapshot), m_filter(std::move(filter)), m_needle(lowerCase(m_filter.text)),
      m_traces(snapshot, traceFilterOf(m_filter))
{}

bool AlertMatcher::matches(const Alert& alert) const
{
    const EventRef event = alert.event;
    if (m_filter.kinds != 0 && !m_snapshot.health(event).has(m_filter.kinds))
        return false;
    if (event.source == EventSource::Graph)
        return event.index < m_snapshot.traceCount() &&
               m_traces.matches(m_snapshot.trace(event.index));
    // Executions come from the first host's files only, as TensorFlow reads them.
    if (m_filter.host && *m_filter.host != 0)
        return false;
    if (event.index >= m_snapshot.executionCount())
        return false;
    if (!m_needle.empty() &&
        lowerCase(m_snapshot.execution(event.index).opType).find(m_needle) == std::string::npos)
        return false;
    if (m_filter.device) {
        const auto record = m_snapshot.readExecution(event.index);
        if (!record)
            return false;
        const auto& ids = record->outputTensorDeviceIds;
        return std::any_of(ids.begin(), ids.end(), [this](std::int32_t id) {
            return m_snapshot.graphs().deviceName(id) == *m_filter.device;
        });
    }
    return true;
}

std::vector<int> matchingAlerts(const Snapshot& snapshot, const AlertFilter& filter,
                                std::uint64_t count, const std::atomic_bool* stop)
{
    count = std::min<std::uint64_t>({count, snapshot.alertCount(), INT_MAX});
    const AlertMatcher matcher(snapshot, filter);
    std::vector<int> rows;
    for (std::uint64_t k = 0; k < count; ++k) {
        if (stop && stop->load(std::memory_order_relaxed))
            break;
        if (matcher.matches(snapshot.alert(k)))
            rows.push_back(static_cast<int>(k));
    }
    return rows;
}

std::vector<std::string> deviceNames(const Snapshot& snapshot)
{
    const std::vector<std::string>& traces = snapshot.traceDevices();
    std::vector<std::string> names(traces.begin() + (traces.empty() ? 0 : 1), traces.end());
    // DebuggedDevice ids are given in first-seen order.
    const std::map<std::int32_t, std::string> eager(snapshot.graphs().devices().begin(),
                                                    snapshot.graphs().devices().end());
    for (const auto& [id, name] : eager)
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    return names;
}

} // namespace nanscope::core
