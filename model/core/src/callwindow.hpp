// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's view of a function call's outputs (intentwalkimpl.hpp): per graph, its latest
// non-finite trace since the previous execution. Set at every non-finite trace and cleared at
// every execution, so it is an array by graph with the list of graphs set since the last clear:
// a hash map cost a few per cent of the walk over a million non-finite traces.
#pragma once

#include "latesttraces.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::core::intentwalk {

class CallWindow
{
public:
    explicit CallWindow(std::size_t graphs) : m_latest(graphs, kNoTrace) {}

    bool empty() const { return m_set.empty(); }

    // Graphs the table does not have are never asked about (GraphNesting::within says no).
    void set(GraphIndex graph, std::uint64_t trace)
    {
        if (graph >= m_latest.size())
            return;
        if (m_latest[graph] == kNoTrace)
            m_set.push_back(graph);
        m_latest[graph] = trace;
    }

    void clear()
    {
        for (const GraphIndex g : m_set)
            m_latest[g] = kNoTrace;
        m_set.clear();
    }

    // f(graph, its latest non-finite trace) for each graph set since the last clear.
    template <typename F>
    void forEach(const F& f) const
    {
        for (const GraphIndex g : m_set)
            f(g, m_latest[g]);
    }

private:
    std::vector<std::uint64_t> m_latest; // by graph
    std::vector<GraphIndex> m_set;
};

} // namespace nanscope::core::intentwalk
