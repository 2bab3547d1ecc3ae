// SPDX-License-Identifier: GPL-3.0-or-later
// The picture of a whole graph: every op of it, laid out by Graphviz. Prepared on the GUI thread
// (box sizes need fonts), laid out on a worker.
#pragma once

#include "graphpicture.hpp"
#include "nanscope/items/logdirsession.hpp"

namespace nanscope::views {

struct WholeGraphJob
{
    items::SnapshotPtr snapshot;
    GraphPicture picture; // nodes named and sized, edges connected; nothing placed yet
    std::optional<std::uint64_t> focusedTrace;
    core::OpId focusedOp = core::kNoOp;
};

WholeGraphJob prepareWholeGraph(items::SnapshotPtr snapshot, core::GraphIndex graph,
                                core::OpId focused, std::optional<std::uint64_t> focusedTrace,
                                const NodeSizer& sizer);

// Any thread. On failure the picture has no nodes and its note says why.
GraphPicture layOutWholeGraph(WholeGraphJob job);

// The ops of a picture, in node order (for tracesAround).
std::vector<core::OpId> pictureOps(const GraphPicture& picture);

} // namespace nanscope::views
