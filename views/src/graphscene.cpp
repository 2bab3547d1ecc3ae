// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphscene.hpp"

#include "graphitems.hpp"

#include <QGraphicsSimpleTextItem>

namespace nanscope::views {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {}

void GraphScene::clearPicture()
{
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_picture = {};
    setSceneRect(QRectF());
}

void GraphScene::setPicture(GraphPicture picture, const QFont& font, bool edgeLabels, qreal margin)
{
    clearPicture();
    m_picture = std::move(picture);
    m_nodes.reserve(m_picture.nodes.size());
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        auto* item = new OpNodeItem(m_picture.nodes[i], i, font);
        addItem(item);
        m_nodes.push_back(item);
    }
    m_edges.reserve(m_picture.edges.size());
    for (const PictureEdge& edge : m_picture.edges) {
        auto* item = new EdgeItem(edge);
        addItem(item);
        m_edges.push_back(item);
        if (edgeLabels && !edge.label.isEmpty()) {
            auto* label = new EdgeLabelItem(edge.label, font);
            label->setPos(edge.path.pointAtPercent(0.5));
            addItem(label);
        }
    }
    QRectF bounds = itemsBoundingRect();
    if (!m_picture.note.isEmpty()) {
        auto* note = addSimpleText(m_picture.note, font); // plain text by construction
        note->setBrush(QColor(0x5f, 0x63, 0x68));
        note->setPos(bounds.center().x() - note->boundingRect().width() / 2,
                     bounds.bottom() + margin / 2);
        bounds = itemsBoundingRect();
    }
    setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));
    if (const auto focused = focusedNode())
        setFocusedNode(*focused);
}

void GraphScene::setFocusedNode(std::size_t node)
{
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        m_picture.nodes[i].focused = i == node;
        m_nodes[i]->setFocusedOp(i == node);
    }
    for (std::size_t e = 0; e < m_picture.edges.size(); ++e) {
        const PictureEdge& edge = m_picture.edges[e];
        m_edges[e]->setHighlighted(static_cast<std::size_t>(edge.from) == node ||
                                   static_cast<std::size_t>(edge.to) == node);
    }
}

bool GraphScene::setFocusedOp(core::OpId op)
{
    bool found = false;
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        const bool focused = op != core::kNoOp && m_picture.nodes[i].op == op;
        m_picture.nodes[i].focused = focused;
        m_nodes[i]->setFocusedOp(focused);
        found = found || focused;
    }
    for (std::size_t e = 0; e < m_picture.edges.size(); ++e) {
        const PictureEdge& edge = m_picture.edges[e];
        m_edges[e]->setHighlighted(m_picture.nodes[static_cast<std::size_t>(edge.from)].focused ||
                                   m_picture.nodes[static_cast<std::size_t>(edge.to)].focused);
    }
    return found;
}

void GraphScene::setLatest(const std::vector<core::OpTrace>& latest)
{
    for (std::size_t i = 0; i < m_picture.nodes.size() && i < latest.size(); ++i) {
        m_picture.nodes[i].latest = latest[i];
        m_nodes[i]->setLatest(latest[i]);
    }
}

std::optional<std::size_t> GraphScene::nodeAt(const QPointF& scenePoint) const
{
    for (QGraphicsItem* item : items(scenePoint))
        if (auto* node = dynamic_cast<OpNodeItem*>(item))
            return node->index();
    return std::nullopt;
}

std::optional<std::size_t> GraphScene::focusedNode() const
{
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i)
        if (m_picture.nodes[i].focused)
            return i;
    return std::nullopt;
}

QRectF GraphScene::nodeRect(std::size_t node) const
{
    const PictureNode& n = m_picture.nodes[node];
    return QRectF(n.centre - QPointF(n.size.width() / 2, n.size.height() / 2), n.size);
}

QStringList GraphScene::opNames() const
{
    QStringList names;
    const std::optional<std::size_t> focused = focusedNode();
    if (focused)
        names << m_picture.nodes[*focused].name;
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i)
        if (i != focused)
            names << m_picture.nodes[i].name;
    return names;
}

} // namespace nanscope::views
