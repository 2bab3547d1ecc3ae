// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/tracequery.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>

namespace nanscope::core {
namespace {

// How often a long scan looks at its stop flag.
constexpr std::uint64_t kStopCheckInterval = 1u << 16;

bool stopped(const std::atomic_bool* stop)
{
    return stop && stop->load(std::memory_order_relaxed);
}

} // namespace

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool opMatchesText(const OpInfo& op, std::string_view lowerNeedle)
{
    return lowerNeedle.empty() || lowerCase(op.name).find(lowerNeedle) != std::string::npos ||
           lowerCase(op.type).find(lowerNeedle) != std::string::npos;
}

std::vector<OpId> findOpsInGraph(const GraphTable& graphs, GraphIndex graph, std::string_view text)
{
    std::vector<OpId> found;
    if (graph >= graphs.graphs().size() || text.empty())
        return found;
    const std::string needle = lowerCase(text);
    for (const OpId op : graphs.graph(graph).ops)
        if (opMatchesText(graphs.op(op), needle))
            found.push_back(op);
    return found;
}

MatchPosition opMatchPosition(const std::vector<OpId>& matches, OpId op)
{
    MatchPosition position;
    position.total = matches.size();
    const auto it = std::find(matches.begin(), matches.end(), op);
    if (it != matches.end())
        position.ordinal = static_cast<std::uint64_t>(it - matches.begin()) + 1;
    return position;
}

TraceMatcher::TraceMatcher(const Snapshot& snapshot, TraceFilter filter)
    : m_filter(std::move(filter))
{
    if (m_filter.device) {
        const std::vector<std::string>& devices = snapshot.traceDevices();
        const auto it = std::find(devices.begin(), devices.end(), *m_filter.device);
        m_device = it == devices.end() || m_filter.device->empty()
                       ? static_cast<std::uint32_t>(kMaxTraceDevices)
                       : static_cast<std::uint32_t>(it - devices.begin());
    }
    m_allOps = !m_filter.graph && m_filter.opType.empty() && m_filter.text.empty();
    if (m_allOps)
        return;
    const std::string needle = lowerCase(m_filter.text);
    const auto& ops = snapshot.graphs().ops();
    m_ops.assign(ops.size(), 0);
    for (std::size_t id = 0; id < ops.size(); ++id) {
        const OpInfo& op = ops[id];
        if (m_filter.graph && op.graph != *m_filter.graph)
            continue;
        if (!m_filter.opType.empty() && op.type != m_filter.opType)
            continue;
        if (!opMatchesText(op, needle))
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
        if (matcher.matches(snapshot, i))
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
        if (matcher.matches(snapshot, i))
            return i;
    }
    return std::nullopt;
}

std::vector<std::uint64_t> tracesOfCall(const Snapshot& snapshot, std::uint64_t execution,
                                        std::size_t limit, const std::atomic_bool* stop)
{
    std::vector<std::uint64_t> traces;
    if (execution >= snapshot.executionCount())
        return traces;
    const ExecutionDigest call = snapshot.execution(execution);
    const GraphTable& graphs = snapshot.graphs();
    const std::optional<GraphIndex> called = graphs.findGraph(call.graphId);
    if (call.graphId.empty() || !called)
        return traces;
    // Per op: whether its graph is the called one or nested in it.
    std::vector<std::uint8_t> inCall(graphs.ops().size(), 0);
    std::vector<int> graphInCall(graphs.graphs().size(), -1);
    for (std::size_t op = 0; op < inCall.size(); ++op) {
        const GraphIndex graph = graphs.op(static_cast<OpId>(op)).graph;
        if (graph >= graphInCall.size())
            continue;
        if (graphInCall[graph] < 0) {
            const std::vector<GraphIndex> chain = graphs.chain(graph);
            graphInCall[graph] = std::find(chain.begin(), chain.end(), *called) != chain.end();
        }
        inCall[op] = static_cast<std::uint8_t>(graphInCall[graph]);
    }
    double after = -std::numeric_limits<double>::infinity(); // the previous call's end
    for (std::uint64_t e = execution; e-- > 0;) {
        if ((e & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return {};
        const ExecutionDigest earlier = snapshot.execution(e);
        if (earlier.graphId == call.graphId) {
            after = earlier.wallTime;
            break;
        }
    }
    const double until = call.wallTime;
    const std::uint64_t count = snapshot.traceCount();
    for (std::uint64_t i = 0; i < count && traces.size() < limit; ++i) {
        if ((i & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return {};
        const OpId op = snapshot.traceOp(i);
        if (op >= inCall.size() || !inCall[op])
            continue;
        const double wallTime = snapshot.wallTime({EventSource::Graph, i});
        if (wallTime > after && wallTime <= until)
            traces.push_back(i);
    }
    return traces;
}

std::vector<std::uint8_t> opsWithNonFiniteTraces(const Snapshot& snapshot,
                                                 const std::atomic_bool* stop)
{
    std::vector<std::uint8_t> made(snapshot.graphs().ops().size(), 0);
    const std::uint64_t count = snapshot.traceCount();
    for (std::uint64_t i = 0; i < count; ++i) {
        if ((i & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return {};
        if (!snapshot.health({EventSource::Graph, i}).nonFinite())
            continue;
        const OpId op = snapshot.traceOp(i);
        if (op < made.size())
            made[op] = 1;
    }
    return made;
}

MatchPosition matchPosition(const Snapshot& snapshot, const TraceMatcher& matcher,
                            std::uint64_t trace, const std::atomic_bool* stop)
{
    MatchPosition position;
    const std::uint64_t count = snapshot.traceCount();
    for (std::uint64_t i = 0; i < count; ++i) {
        if ((i & (kStopCheckInterval - 1)) == 0 && stopped(stop))
            return {};
        if (!matcher.matches(snapshot, i))
            continue;
        ++position.total;
        if (i == trace)
            position.ordinal = position.total;
    }
    return position;
}

} // namespace nanscope::core
