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

inline constexpr std::size_t kMaxPerRow = 8;

// Places `nodes[first, first + count)` in rows of at most kMaxPerRow, centred on x = 0; row 0
// at `y`, later rows `step` further each.
void placeRows(std::vector<PictureNode>& nodes, std::size_t first, std::size_t count, qreal y,
               qreal step);

// A downward edge from the bottom of one box to the top of another, with its arrow.
PictureEdge verticalEdge(const PictureNode& from, const PictureNode& to);

} // namespace nanscope::views
