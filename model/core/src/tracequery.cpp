// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/tracequery.hpp"

#include <algorithm>
#include <cctype>
#include <climits>

namespace nanscope::core {
namespace {

// How often a long scan looks at its stop flag.
constexpr std::uint64_t kStopCheckInterval = 1u << 16;

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool stopped(const std::atomic_bool* stop)
{
    return stop && stop->load(std::memory_order_relaxed);
}

} // namespace

TraceMatcher::TraceMatcher(const Snapshot& snapshot, TraceFilter filter)
    : m_filter(std::move(filter))
{
    m_allOps = !m_filter.graph && m_filter.opType.empty() && m_filter.text.empty();
    if (m_allOps)
        return;
    const std::string needle = lower(m_filter.text);
    const auto& ops = snapshot.graphs().ops();
    m_ops.assign(ops.size(), 0);
    for (std::size_t id = 0; id < ops.size(); ++id) {
        const OpInfo& op = ops[id];
        if (m_filter.graph && op.graph != *m_filter.graph)
            continue;
        if (!m_filter.opType.empty() && op.type != m_filter.opType)
            continue;
        if (!needle.empty() && lower(op.name).find(needle) == std::string::npos &&
            lower(op.type).find(needle) == std::string::npos)
            continue;
        m_ops[id] = 1;
    }
}

std::vector<int> matchingRows(const Snapshot& snapshot, const TraceMatcher& matcher,
                              std::uint64_t begin, std::uint64_t end, const std::atomic_bool* stop)
{
    end =
        std::min<std::uint64_t>({end, snapshot.traceCount(), static_cast<std::uint64_t>(INT_MAX)});
    std::vector<int> rows;
    for (std::uint64_t i = begin; i < end; ++i) {
        if ((i & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            break;
        if (matcher.matches(snapshot.trace(i)))
            rows.push_back(static_cast<int>(i));
    }
    return rows;
}

std::optional<std::uint64_t> findTrace(const Snapshot& snapshot, const TraceMatcher& matcher,
                                       std::optional<std::uint64_t> from, bool backward,
                                       const std::atomic_bool* stop)
{
    const std::uint64_t count = snapshot.traceCount();
    if (count == 0)
        return std::nullopt;
    // Without a start, forward begins at the first trace and backward at the last.
    std::uint64_t start = from ? std::min(*from, count - 1) : (backward ? 0 : count - 1);
    for (std::uint64_t step = 1; step <= count; ++step) {
        if ((step & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return std::nullopt;
        const std::uint64_t i =
            backward ? (start + count - step % count) % count : (start + step) % count;
        if (matcher.matches(snapshot.trace(i)))
            return i;
    }
    return std::nullopt;
}

MatchPosition matchPosition(const Snapshot& snapshot, const TraceMatcher& matcher,
                            std::uint64_t trace, const std::atomic_bool* stop)
{
    MatchPosition position;
    const std::uint64_t count = snapshot.traceCount();
    for (std::uint64_t i = 0; i < count; ++i) {
        if ((i & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return {};
        if (!matcher.matches(snapshot.trace(i)))
            continue;
        ++position.total;
        if (i == trace)
            position.ordinal = position.total;
    }
    return position;
}

} // namespace nanscope::core
