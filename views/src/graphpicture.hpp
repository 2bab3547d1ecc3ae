// SPDX-License-Identifier: GPL-3.0-or-later
// What the graph structure panel draws, before it becomes graphics items: boxes at positions
// and edges as paths. Built on the GUI thread (neighbourhood) or a worker (whole graph).
#pragma once

#include "nanscope/core/tracesaround.hpp"

#include <QFontMetricsF>
#include <QPainterPath>
#include <QString>
#include <optional>
#include <vector>

namespace nanscope::views {

struct PictureNode
{
    core::OpId op = core::kNoOp; // kNoOp: an input the logdir names but never declared
    QString name;
    QString type;
    core::OpTrace latest; // what colours the box, and where a click takes the focus
    std::optional<std::uint64_t> execution; // an eager execution's box: a click focuses it
    bool focused = false;
    QPointF centre;
    QSizeF size;
};

struct PictureEdge
{
    int from = 0; // node indices
    int to = 0;
    QPainterPath path;
    QPointF arrowTip;
    QPointF arrowBase; // the arrow points from its base to its tip
    bool hasArrow = false;
    QString label; // the tensor on the edge ("probs:0"); may be empty
};

struct GraphPicture
{
    std::vector<PictureNode> nodes;
    std::vector<PictureEdge> edges;
    QString note; // shown under the picture, e.g. how many consumers were left out
    core::GraphIndex graph = core::kNoGraph;
};

// Box sizes from a font: the name (bold) on one line, the type under it.
class NodeSizer
{
public:
    NodeSizer(const QFont& font);
    QSizeF size(const QString& name, const QString& type) const;
    static constexpr qreal kMinWidth = 96;
    static constexpr qreal kMaxWidth = 300; // longer names are elided in the middle

private:
    QFontMetricsF m_bold;
    QFontMetricsF m_small;
};

// The fonts the boxes use, from the view's font.
QFont nodeNameFont(const QFont& base);
QFont nodeTypeFont(const QFont& base);

// The type shown in a box: "(not declared)" for ops known only by name.
QString displayType(const core::OpInfo& op);

} // namespace nanscope::views
