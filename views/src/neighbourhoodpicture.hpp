// SPDX-License-Identifier: GPL-3.0-or-later
// The picture of one op's neighbourhood: its input ops in rows above it, its consumers in rows
// below, edges labelled with the tensor they carry.
#pragma once

#include "graphpicture.hpp"

namespace nanscope::views {

// `focusedTrace`: health is what each op last computed at or before it (the end when unset).
GraphPicture neighbourhoodPicture(const core::Snapshot& snapshot, core::OpId op,
                                  std::optional<std::uint64_t> focusedTrace,
                                  const NodeSizer& sizer);

// A downward edge from the bottom of one box to the top of another, with its arrow.
PictureEdge verticalEdge(const PictureNode& from, const PictureNode& to);

} // namespace nanscope::views
