// SPDX-License-Identifier: GPL-3.0-or-later
// The picture of an eager execution's neighbourhood: the executions that produced its inputs
// above, those that consumed its outputs below, edges labelled with the tensor ids that connect
// them. Eager runs (PyTorch, TensorFlow's eager ops) have no graph: this is their structure.
#pragma once

#include "graphpicture.hpp"
#include "nanscope/core/eagerneighbourhood.hpp"

#include <string>
#include <utility>
#include <vector>

namespace nanscope::views {

// What the picture needs, found off the GUI thread: the neighbourhood and each execution's
// module path (read from its record).
struct EagerPictureData
{
    core::EagerNeighbourhood neighbourhood;
    std::vector<std::pair<std::uint64_t, std::string>> modules; // execution -> module path
};

EagerPictureData eagerPictureData(const core::Snapshot& snapshot, std::uint64_t execution);

// Reads only digests: it runs on the GUI thread.
GraphPicture eagerNeighbourhoodPicture(const core::Snapshot& snapshot, const EagerPictureData& data,
                                       const NodeSizer& sizer);

// The box name of an execution: "aten::log #145".
QString executionNodeName(const core::Snapshot& snapshot, std::uint64_t execution);

} // namespace nanscope::views
