// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphnesting.hpp"

#include <utility>

namespace nanscope::core {

GraphNesting::GraphNesting(const GraphTable& graphs)
    : m_graphs(graphs), m_enter(graphs.graphs().size(), kUnnumbered),
      m_leave(graphs.graphs().size(), kUnnumbered)
{
    const auto& all = graphs.graphs();
    std::uint32_t clock = 0;
    // An explicit stack of (graph, next inner graph to visit): no recursion, whatever the depth.
    std::vector<std::pair<GraphIndex, std::size_t>> stack;
    for (GraphIndex root = 0; root < all.size(); ++root) {
        if (all[root].outer != kNoGraph)
            continue;
        m_enter[root] = clock++;
        stack.emplace_back(root, 0);
        while (!stack.empty()) {
            auto& [g, next] = stack.back();
            const auto& inner = all[g].inner;
            if (next < inner.size()) {
                const GraphIndex child = inner[next++];
                if (child < all.size() && m_enter[child] == kUnnumbered) {
                    m_enter[child] = clock++;
                    stack.emplace_back(child, 0);
                }
                continue;
            }
            m_leave[g] = clock++;
            stack.pop_back();
        }
    }
}

bool GraphNesting::within(GraphIndex graph, GraphIndex outer) const
{
    const std::size_t n = m_enter.size();
    if (graph >= n || outer >= n)
        return false;
    if (m_enter[graph] != kUnnumbered && m_enter[outer] != kUnnumbered)
        return m_enter[outer] <= m_enter[graph] && m_leave[graph] <= m_leave[outer];
    // Off the trees: walk the outer ids, at most once around a cycle.
    GraphIndex at = graph;
    for (std::size_t steps = 0; at != kNoGraph && at < n && steps <= n; ++steps) {
        if (at == outer)
            return true;
        at = m_graphs.graph(at).outer;
    }
    return false;
}

} // namespace nanscope::core
