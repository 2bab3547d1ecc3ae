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
// Between one row of boxes and the next: room for an edge's tensor label and its arrow, no
// more, so that a pane of a docked window's height shows an op with its inputs and consumers.
inline constexpr qreal kRowGap = 40;
// Around the picture in the scene: the focus ring and health badges stand out of the boxes.
inline constexpr qreal kNeighbourhoodMargin = 12;

// From one row of boxes to the next: the tallest box and the gap.
qreal rowPitch(const std::vector<PictureNode>& nodes);
// The height of a neighbourhood of three rows (inputs, the op, consumers) of boxes in `font`,
// as drawn, with the scene's margins: what the pane keeps room for.
qreal threeRowHeight(const QFont& font);

// Places `nodes[first, first + count)` in rows of at most kMaxPerRow, centred on x = 0; row 0
// at `y`, later rows `step` further each.
void placeRows(std::vector<PictureNode>& nodes, std::size_t first, std::size_t count, qreal y,
               qreal step);

// A downward edge from the bottom of one box to the top of another, with its arrow.
PictureEdge verticalEdge(const PictureNode& from, const PictureNode& to);

// The star every neighbourhood is drawn as: nodes[0] is the focus, the next `inputCount` nodes
// its inputs (in rows above it) and the rest its consumers (in rows below), each joined to the
// focus by an edge labelled `inputLabel(i)` or `consumerLabel(i)`.
template <typename InputLabel, typename ConsumerLabel>
void layOutStar(GraphPicture& picture, std::size_t inputCount, InputLabel&& inputLabel,
                ConsumerLabel&& consumerLabel)
{
    const std::size_t consumerCount = picture.nodes.size() - 1 - inputCount;
    const std::size_t inputRows = (inputCount + kMaxPerRow - 1) / kMaxPerRow;
    const qreal pitch = rowPitch(picture.nodes);
    placeRows(picture.nodes, 0, 1, 0, pitch);
    placeRows(picture.nodes, 1, inputCount, -pitch * static_cast<qreal>(inputRows), pitch);
    placeRows(picture.nodes, 1 + inputCount, consumerCount, pitch, pitch);
    for (std::size_t i = 0; i < inputCount; ++i) {
        PictureEdge edge = verticalEdge(picture.nodes[1 + i], picture.nodes[0]);
        edge.from = static_cast<int>(1 + i);
        edge.to = 0;
        edge.label = inputLabel(i);
        picture.edges.push_back(std::move(edge));
    }
    for (std::size_t i = 0; i < consumerCount; ++i) {
        const std::size_t index = 1 + inputCount + i;
        PictureEdge edge = verticalEdge(picture.nodes[0], picture.nodes[index]);
        edge.from = 0;
        edge.to = static_cast<int>(index);
        edge.label = consumerLabel(i);
        picture.edges.push_back(std::move(edge));
    }
}

} // namespace nanscope::views
