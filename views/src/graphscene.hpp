// SPDX-License-Identifier: GPL-3.0-or-later
// Turns a GraphPicture into graphics items, and keeps them in step with the focus: which op is
// highlighted and what each op last computed.
#pragma once

#include "graphpicture.hpp"

#include <QGraphicsScene>
#include <QStringList>

namespace nanscope::views {

class EdgeItem;
class OpNodeItem;

class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit GraphScene(QObject* parent = nullptr);

    // `edgeLabels`: draw the tensor names on the edges (too busy for whole graphs). `margin`:
    // the scene's room around the picture.
    void setPicture(GraphPicture picture, const QFont& font, bool edgeLabels, qreal margin = 40);
    void clearPicture();
    const GraphPicture& picture() const { return m_picture; }

    // Moves the highlight without laying anything out again; false if the op is not drawn.
    bool setFocusedOp(core::OpId op);
    // Highlights one node by its index (eager pictures, whose boxes have no op).
    void setFocusedNode(std::size_t node);
    // New health per node (in node order), e.g. after the focused trace moved.
    void setLatest(const std::vector<core::OpTrace>& latest);

    std::optional<std::size_t> nodeAt(const QPointF& scenePoint) const;
    std::optional<std::size_t> focusedNode() const;
    QRectF nodeRect(std::size_t node) const;
    const OpNodeItem* nodeItem(std::size_t node) const
    {
        return node < m_nodes.size() ? m_nodes[node] : nullptr;
    }
    // Names of the ops drawn, the focused one first.
    QStringList opNames() const;

private:
    GraphPicture m_picture;
    std::vector<OpNodeItem*> m_nodes;
    std::vector<EdgeItem*> m_edges;
};

} // namespace nanscope::views
