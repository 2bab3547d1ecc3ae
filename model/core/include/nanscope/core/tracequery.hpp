// SPDX-License-Identifier: GPL-3.0-or-later
// Which graph execution traces to show or find, by op (graph, type, a piece of the name or type)
// and health, and the scans that answer it straight from the snapshot's digests: filtering ten
// million rows takes a fraction of a second on a worker thread, with no item model involved.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

struct TraceFilter
{
    bool nonFiniteOnly = false;
    std::optional<GraphIndex> graph; // only ops of this graph
    std::string opType;              // exactly this op type; empty: any
    std::string text;                // a piece of the op name or type, case-insensitive; empty: any
    std::optional<std::uint32_t> host; // only traces of this file set (LogdirLayout::fileSets)
    std::optional<std::string> device; // only traces of this device (a name in traceDevices())

    bool active() const
    {
        return nonFiniteOnly || graph || !opType.empty() || !text.empty() || host || device;
    }
    friend bool operator==(const TraceFilter&, const TraceFilter&) = default;
};

class TraceMatcher
{
public:
    TraceMatcher(const Snapshot& snapshot, TraceFilter filter);

    bool matches(const TraceDigest& trace) const
    {
        if (m_filter.nonFiniteOnly && !trace.health.nonFinite())
            return false;
        if (m_filter.host && trace.fileIndex != *m_filter.host)
            return false;
        if (m_device && trace.device != *m_device)
            return false;
        if (m_allOps)
            return true;
        return trace.op < m_ops.size() && m_ops[trace.op];
    }

    // The same for trace `index` of `snapshot`, reading only the fields the filter asks about.
    bool matches(const Snapshot& snapshot, std::uint64_t index) const
    {
        if (m_filter.nonFiniteOnly && !snapshot.health({EventSource::Graph, index}).nonFinite())
            return false;
        if (m_filter.host && snapshot.traceFileIndex(index) != *m_filter.host)
            return false;
        if (m_device && snapshot.traceDevice(index) != *m_device)
            return false;
        if (m_allOps)
            return true;
        const OpId op = snapshot.traceOp(index);
        return op < m_ops.size() && m_ops[op];
    }

private:
    TraceFilter m_filter;
    // The device's index in traceDevices(), or one no trace has when no trace names it.
    std::optional<std::uint32_t> m_device;
    bool m_allOps = true;
    std::vector<std::uint8_t> m_ops; // by OpId: 1 when the op passes the op criteria
};

// The traces in [begin, end) that match, ascending, as view rows. A stop request ends the scan
// early with what was found so far.
std::vector<int> matchingRows(const Snapshot& snapshot, const TraceMatcher& matcher,
                              std::uint64_t begin, std::uint64_t end,
                              const std::atomic_bool* stop = nullptr);

// The first matching trace after `from` (before it when `backward`), wrapping around the end;
// `from` itself is tried last. nullopt when nothing matches (or the scan was stopped).
std::optional<std::uint64_t> findTrace(const Snapshot& snapshot, const TraceMatcher& matcher,
                                       std::optional<std::uint64_t> from, bool backward,
                                       const std::atomic_bool* stop = nullptr);

// The graph execution traces one tf.function call (an eager execution with a graph id) ran: those
// of ops in the called graph, or in graphs nested in it, after the previous call of that graph
// and up to this call's wall time (TensorFlow records a call's Execution once the call has run,
// after its traces). Ascending; at most `limit`; empty for a plain op or when stopped.
std::vector<std::uint64_t> tracesOfCall(const Snapshot& snapshot, std::uint64_t execution,
                                        std::size_t limit, const std::atomic_bool* stop = nullptr);

// By OpId, 1 for the ops of which some graph execution trace is non-finite. Reads two of the
// digests' columns. Empty when stopped.
std::vector<std::uint8_t> opsWithNonFiniteTraces(const Snapshot& snapshot,
                                                 const std::atomic_bool* stop = nullptr);

// Where a matching trace stands among all matches: "ordinal of total", as find bars say.
struct MatchPosition
{
    std::uint64_t ordinal = 0; // 1-based; 0 when `trace` does not match
    std::uint64_t total = 0;
};

// One pass over the digests (nothing when stopped: total 0).
MatchPosition matchPosition(const Snapshot& snapshot, const TraceMatcher& matcher,
                            std::uint64_t trace, const std::atomic_bool* stop = nullptr);

// What a find by text matches in an op: a piece of its name or type, case-insensitive (the
// TraceFilter's `text`). `lowerNeedle` is already lower case; empty matches every op.
bool opMatchesText(const OpInfo& op, std::string_view lowerNeedle);
std::string lowerCase(std::string_view text);

// The ops of one graph that a find for `text` matches, in the graph's order (its ops as
// declared): what a find in the graph picture steps through.
std::vector<OpId> findOpsInGraph(const GraphTable& graphs, GraphIndex graph, std::string_view text);

// Where `op` stands among `matches` ("ordinal of total"); ordinal 0 when it is not one of them.
MatchPosition opMatchPosition(const std::vector<OpId>& matches, OpId op);

} // namespace nanscope::core
