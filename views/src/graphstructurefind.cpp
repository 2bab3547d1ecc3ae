// SPDX-License-Identifier: GPL-3.0-or-later
// Graph Structure's find: the bar under the picture (Ctrl+F in it, or the tool bar's Find), and
// the step from the focused op to the next op of its graph whose name or type holds the text.
#include "graphscene.hpp"
#include "graphstructureview.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/widgets/findbar.hpp"

#include <algorithm>

namespace nanscope::views {

namespace {

// From the focused op in the graph's order (`order`): the match after it (before it), wrapping.
// `matches` is not empty and in the graph's order.
std::size_t nextMatch(const std::vector<core::OpId>& order, const std::vector<core::OpId>& matches,
                      core::OpId focused, bool backward)
{
    const auto rank = [&order](core::OpId op) {
        return std::find(order.begin(), order.end(), op) - order.begin();
    };
    const auto here = rank(focused);
    if (backward) {
        for (std::size_t i = matches.size(); i-- > 0;)
            if (rank(matches[i]) < here)
                return i;
        return matches.size() - 1;
    }
    for (std::size_t i = 0; i < matches.size(); ++i)
        if (rank(matches[i]) > here)
            return i;
    return 0;
}

} // namespace

void GraphStructurePanel::buildFindBar()
{
    m_findBar = new widgets::FindBar(this);
    m_findBar->setPlaceholderText(QStringLiteral("Find an op of this graph by name or type"));
    m_findBar->hide();
    connect(m_view, &GraphStructureView::findRequested, this, &GraphStructurePanel::activateFind);
    connect(m_findBar, &widgets::FindBar::findNext, this,
            [this](const QString& text) { findInGraph(text, false); });
    connect(m_findBar, &widgets::FindBar::findPrevious, this,
            [this](const QString& text) { findInGraph(text, true); });
    connect(m_findBar, &widgets::FindBar::textEdited, this, [this] { m_findBar->setStatus({}); });
    connect(m_findBar, &widgets::FindBar::closed, m_view, [this] { m_view->setFocus(); });
}

void GraphStructurePanel::activateFind()
{
    m_findBar->activate();
}

void GraphStructurePanel::findInGraph(const QString& text, bool backward)
{
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    const core::OpId focused = navigator()->focus().op;
    const QString needle = text.trimmed();
    if (needle.isEmpty())
        return;
    if (!snapshot || focused >= snapshot->graphs().ops().size()) {
        m_findBar->setStatus(QStringLiteral("Focus an op of a graph first"));
        return;
    }
    const core::GraphTable& graphs = snapshot->graphs();
    const core::GraphIndex graph = graphs.op(focused).graph;
    const std::vector<core::OpId> matches =
        core::findOpsInGraph(graphs, graph, needle.toStdString());
    if (matches.empty()) {
        m_findBar->setMatch(0, 0);
        return;
    }
    const core::OpId op = matches[nextMatch(graphs.graph(graph).ops, matches, focused, backward)];
    const core::MatchPosition position = core::opMatchPosition(matches, op);
    m_findBar->setMatch(position.ordinal, position.total);
    navigator()->focusOp(op);
    if (const auto node = m_scene->focusedNode())
        m_view->centreOnRect(m_scene->nodeRect(*node));
}

} // namespace nanscope::views
