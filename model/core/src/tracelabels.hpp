// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's live non-finite graph traces (intentwalkimpl.hpp) and their labels.
//
// A trace's label lives until the next trace of the same op output replaces it, so an output has
// at most one: the labels are kept by output, where LatestTraces keeps the latest trace of each,
// and a look-up is an index, not a hash (a map of traces took a quarter of the walk on a logdir
// of a million non-finite traces). Outputs past LatestTraces' dense slots go to a map by trace.
#pragma once

#include "intentwalkterms.hpp"
#include "latesttraces.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace nanscope::core::intentwalk {

class TraceLabels
{
public:
    explicit TraceLabels(const LatestTraces& latest)
        : m_latest(latest), m_trace(latest.denseOutputs(), kNoTrace), m_label(latest.denseOutputs())
    {}

    bool empty() const { return m_live == 0; }

    // The live label of `trace`, an output of (op, slot); null when it has none.
    Label* find(std::uint64_t trace, OpId op, std::uint32_t slot)
    {
        const std::uint64_t at = m_latest.denseIndex(op, slot);
        if (at == kNoTrace) {
            const auto it = m_overflow.find(trace);
            return it == m_overflow.end() ? nullptr : &it->second;
        }
        return m_trace[at] == trace ? &m_label[at] : nullptr;
    }

    // Makes `label` the live label of `trace`, in place of any other trace of its output.
    void put(std::uint64_t trace, OpId op, std::uint32_t slot, const Label& label)
    {
        const std::uint64_t at = m_latest.denseIndex(op, slot);
        if (at == kNoTrace) {
            m_live += m_overflow.insert_or_assign(trace, label).second ? 1 : 0;
            return;
        }
        m_live += m_trace[at] == kNoTrace ? 1 : 0;
        m_trace[at] = trace;
        m_label[at] = label;
    }

    void erase(std::uint64_t trace, OpId op, std::uint32_t slot)
    {
        const std::uint64_t at = m_latest.denseIndex(op, slot);
        if (at == kNoTrace) {
            m_live -= m_overflow.erase(trace);
        } else if (m_trace[at] == trace) {
            m_trace[at] = kNoTrace;
            --m_live;
        }
    }

    // f(trace, label) for each live label.
    template <typename F>
    void forEach(const F& f) const
    {
        for (std::uint64_t at = 0; at < m_trace.size(); ++at)
            if (m_trace[at] != kNoTrace)
                f(m_trace[at], m_label[at]);
        for (const auto& [trace, label] : m_overflow)
            f(trace, label);
    }

private:
    const LatestTraces& m_latest;
    std::vector<std::uint64_t> m_trace; // by dense output: the trace whose label is live
    std::vector<Label> m_label;         // by dense output
    std::unordered_map<std::uint64_t, Label> m_overflow; // by trace
    std::size_t m_live = 0;
};

} // namespace nanscope::core::intentwalk
