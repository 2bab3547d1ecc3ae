// SPDX-License-Identifier: GPL-3.0-or-later
// What Graph Structure shows, read back from its scene and labels: the boxes, edges, texts and
// tooltips that tests and end-to-end checks look at.
#include "graphitems.hpp"
#include "graphscene.hpp"
#include "graphstructureview.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/widgets/elidedlabel.hpp"

#include <QFontMetricsF>
#include <QStackedWidget>
#include <algorithm>

namespace nanscope::views {

using items::fromStd;

QStringList GraphStructurePanel::visibleOpNames() const
{
    return m_stack->currentWidget() == m_view ? m_scene->opNames() : QStringList();
}

std::vector<GraphStructurePanel::NodeState> GraphStructurePanel::nodes() const
{
    std::vector<NodeState> result;
    if (m_stack->currentWidget() != m_view)
        return result;
    const std::vector<PictureNode>& nodes = m_scene->picture().nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const PictureNode& node = nodes[i];
        NodeState state{node.name,
                        node.type,
                        fromStd(core::toString(core::nodeHealth(node.latest.health))),
                        node.latest.trace,
                        node.execution,
                        node.focused,
                        node.centre};
        if (const OpNodeItem* item = m_scene->nodeItem(i)) {
            state.labels = item->labels();
            const qreal smaller = std::min(QFontMetricsF(item->nameFont()).height(),
                                           QFontMetricsF(item->typeFont()).height());
            state.labelPixels = smaller * m_view->zoom();
        }
        result.push_back(std::move(state));
    }
    return result;
}

std::vector<GraphStructurePanel::EdgeState> GraphStructurePanel::edges() const
{
    std::vector<EdgeState> result;
    if (m_stack->currentWidget() != m_view)
        return result;
    for (const PictureEdge& edge : m_scene->picture().edges)
        result.push_back({static_cast<std::size_t>(edge.from), static_cast<std::size_t>(edge.to),
                          edge.label, edge.path.pointAtPercent(0.5)});
    return result;
}

QString GraphStructurePanel::toolTipAt(const QPointF& scenePoint) const
{
    for (const QGraphicsItem* item : m_scene->items(scenePoint))
        if (!item->toolTip().isEmpty())
            return item->toolTip();
    return {};
}

QGraphicsScene* GraphStructurePanel::scene() const
{
    return m_scene;
}

QGraphicsView* GraphStructurePanel::view() const
{
    return m_view;
}

QString GraphStructurePanel::statusText() const
{
    return m_status->text();
}

QString GraphStructurePanel::caption() const
{
    return m_caption->text();
}

QString GraphStructurePanel::captionShown() const
{
    return m_caption->elidedText();
}

} // namespace nanscope::views
