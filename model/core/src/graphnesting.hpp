// SPDX-License-Identifier: GPL-3.0-or-later
// Which graph lies inside which, in constant time per question: graphs nest by outer context ids
// into chains that hostile or generated logdirs make 100 000 deep, so walking a chain per
// question (per execution, per graph) would be quadratic.
#pragma once

#include "nanscope/core/graphtable.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::core {

class GraphNesting
{
public:
    explicit GraphNesting(const GraphTable& graphs);

    // Whether `graph` is `outer` or nested (at any depth) inside it.
    bool within(GraphIndex graph, GraphIndex outer) const;

private:
    static constexpr std::uint32_t kUnnumbered = UINT32_MAX;

    const GraphTable& m_graphs;
    // Depth-first entry and exit numbers over the outermost graphs' trees; graphs on (or nested
    // under) a cycle of outer ids belong to no tree and are answered by a bounded walk.
    std::vector<std::uint32_t> m_enter;
    std::vector<std::uint32_t> m_leave;
};

} // namespace nanscope::core
