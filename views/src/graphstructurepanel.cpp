// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/graphstructurepanel.hpp"

#include "eagerpicture.hpp"
#include "graphitems.hpp"
#include "graphscene.hpp"
#include "graphstructureview.hpp"
#include "legend.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "neighbourhoodpicture.hpp"
#include "snapshotjob.hpp"
#include "viewhelpers.hpp"
#include "wholegraphpicture.hpp"

#include <QButtonGroup>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

namespace nanscope::views {

using items::fromStd;

namespace {

// Small whole graphs are shown entirely; bigger ones open at 1:1 around the focused op. Tensor
// names on edges are for the neighbourhood: in a whole graph they pile up on short edges.
constexpr std::size_t kSmallGraph = 60;
// How far Fit may shrink a neighbourhood to show it whole: its labels at 60 % of the UI font's
// size are still read, and an op cut off from its inputs or consumers tells nothing. The pane
// keeps the height that shows one row of each at this zoom.
constexpr qreal kNeighbourhoodFitFloor = 0.6;

QString graphTitle(const core::GraphInfo& graph)
{
    if (!graph.name.empty())
        return QStringLiteral("“%1”").arg(QString::fromStdString(graph.name));
    return QStringLiteral("%1 (unnamed)").arg(QString::fromStdString(graph.id));
}

} // namespace

GraphStructurePanel::GraphStructurePanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent)
{
    m_scene = new GraphScene(this);
    m_view = new GraphStructureView(m_scene, this);
    m_placeholder = widgets::plainLabel({}, this);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setMargin(16);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_view);
    keepNeighbourhoodRoom();

    m_neighbourhoodButton =
        toolButton(QStringLiteral("Neighbourhood"),
                   QStringLiteral("The focused op, its inputs and consumers"), this);
    m_wholeGraphButton = toolButton(
        QStringLiteral("Whole graph"),
        QStringLiteral("Every op of the focused op's graph, laid out by Graphviz"), this);
    for (QToolButton* button : {m_neighbourhoodButton, m_wholeGraphButton})
        button->setCheckable(true);
    m_neighbourhoodButton->setChecked(true);
    auto* modes = new QButtonGroup(this);
    modes->addButton(m_neighbourhoodButton);
    modes->addButton(m_wholeGraphButton);
    connect(m_neighbourhoodButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::Neighbourhood);
    });
    connect(m_wholeGraphButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::WholeGraph);
    });

    // Elided, not clipped: a narrow pane shows the op and the end of the graph's name.
    m_caption = new widgets::ElidedLabel(this);
    auto* zoomOut = toolButton(QStringLiteral("−"), QStringLiteral("Zoom out (-)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), QStringLiteral("Zoom in (+)"), this);
    auto* fit = toolButton(QStringLiteral("Fit"), QStringLiteral("Show everything (0)"), this);
    auto* find =
        toolButton(QStringLiteral("Find"),
                   QStringLiteral("Find an op of this graph by name or type (Ctrl+F)"), this);
    connect(find, &QToolButton::clicked, this, &GraphStructurePanel::activateFind);
    connect(zoomOut, &QToolButton::clicked, m_view, &GraphStructureView::zoomOut);
    connect(zoomIn, &QToolButton::clicked, m_view, &GraphStructureView::zoomIn);
    connect(fit, &QToolButton::clicked, m_view, &GraphStructureView::fitAll);

    m_bar = new QHBoxLayout;
    m_bar->setContentsMargins(4, 2, 4, 2);
    m_bar->setSpacing(2);
    m_bar->addWidget(m_neighbourhoodButton);
    m_bar->addWidget(m_wholeGraphButton);
    m_bar->addSpacing(8);
    m_captionSlot = new QHBoxLayout;
    m_captionSlot->setContentsMargins(0, 0, 0, 0);
    m_captionSlot->addWidget(m_caption, 1);
    m_captionSlot->addStretch(); // keeps the buttons right-aligned when the caption moves out
    m_bar->addLayout(m_captionSlot, 1);
    m_bar->addWidget(zoomOut);
    m_bar->addWidget(zoomIn);
    m_bar->addWidget(fit);
    m_bar->addSpacing(8);
    m_bar->addWidget(find);
    m_captionRow = new QHBoxLayout;
    m_captionRow->setContentsMargins(6, 0, 6, 2);

    m_status = new widgets::ElidedLabel(this);
    m_status->setElideMode(Qt::ElideRight);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    auto* legend =
        new Legend({{healthFill(core::NodeHealth::NaN), healthBorder(core::NodeHealth::NaN),
                     QStringLiteral("NaN")},
                    {healthFill(core::NodeHealth::Infinite),
                     healthBorder(core::NodeHealth::Infinite), QStringLiteral("±∞")},
                    {healthFill(core::NodeHealth::Finite), healthBorder(core::NodeHealth::Finite),
                     QStringLiteral("finite")},
                    {healthFill(core::NodeHealth::Unknown), healthBorder(core::NodeHealth::Unknown),
                     QStringLiteral("no health")},
                    {Qt::transparent, focusColour(), QStringLiteral("focused")}},
                   this);
    auto* footer = new QHBoxLayout;
    footer->setContentsMargins(6, 2, 6, 2);
    footer->addWidget(legend);
    footer->addSpacing(12);
    footer->addWidget(m_status, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(m_bar);
    layout->addLayout(m_captionRow);
    layout->addWidget(m_stack, 1);
    m_findBar = new widgets::FindBar(this);
    m_findBar->setPlaceholderText(QStringLiteral("Find an op of this graph by name or type"));
    m_findBar->hide();
    layout->addWidget(m_findBar);
    layout->addLayout(footer);
    connect(m_view, &GraphStructureView::findRequested, this, &GraphStructurePanel::activateFind);
    connect(m_findBar, &widgets::FindBar::findNext, this,
            [this](const QString& text) { findInGraph(text, false); });
    connect(m_findBar, &widgets::FindBar::findPrevious, this,
            [this](const QString& text) { findInGraph(text, true); });
    connect(m_findBar, &widgets::FindBar::textEdited, this, [this] { m_findBar->setStatus({}); });
    connect(m_findBar, &widgets::FindBar::closed, m_view, [this] { m_view->setFocus(); });

    connect(m_view, &GraphStructureView::nodeClicked, this, &GraphStructurePanel::nodeClicked);
    m_eagerJob = std::make_unique<SnapshotJob<EagerPictureData>>(
        [this](const EagerPictureData& found) { eagerNeighbourhoodFound(found); });
    rebuild();
}

GraphStructurePanel::~GraphStructurePanel() = default;

void GraphStructurePanel::setMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    (mode == Mode::WholeGraph ? m_wholeGraphButton : m_neighbourhoodButton)->setChecked(true);
    rebuild();
}

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

void GraphStructurePanel::resizeEvent(QResizeEvent* event)
{
    Panel::resizeEvent(event);
    placeCaption();
}

void GraphStructurePanel::changeEvent(QEvent* event)
{
    Panel::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        keepNeighbourhoodRoom();
}

void GraphStructurePanel::keepNeighbourhoodRoom()
{
    // The view's least height, so that other docks of the column (a timeline of many hosts)
    // cannot squeeze the picture down to the focused box alone; a few pixels more, as the view
    // rounds the picture's edges outwards and a scroll bar shown for a pixel takes fourteen.
    const qreal picture = threeRowHeight(m_view->font());
    m_view->setMinimumHeight(static_cast<int>(std::ceil(picture * kNeighbourhoodFitFloor)) + 4);
}

void GraphStructurePanel::setCaption(const QString& text)
{
    m_caption->setText(text);
    placeCaption(); // its room depends on its length
}

void GraphStructurePanel::placeCaption()
{
    // Beside the buttons when it fits there whole (or, if long, when forty characters fit);
    // otherwise on a row of its own: a docked pane at 1280 px left it a few pixels, cut
    // mid-letter, and at 1920 px a long graph name lost its middle.
    int buttons = 0;
    for (int i = 0; i < m_bar->count(); ++i)
        if (m_bar->itemAt(i)->layout() != m_captionSlot)
            buttons += m_bar->itemAt(i)->sizeHint().width() + m_bar->spacing();
    const QMargins margins = m_bar->contentsMargins();
    const int room = width() - buttons - margins.left() - margins.right();
    const int wanted = std::min(fontMetrics().horizontalAdvance(m_caption->text()),
                                fontMetrics().averageCharWidth() * 40);
    const bool ownRow = room < wanted;
    if (ownRow == m_captionOnItsOwnRow)
        return;
    m_captionOnItsOwnRow = ownRow;
    if (ownRow) {
        m_captionSlot->removeWidget(m_caption);
        m_captionRow->addWidget(m_caption);
    } else {
        m_captionRow->removeWidget(m_caption);
        m_captionSlot->insertWidget(0, m_caption, 1);
    }
}

void GraphStructurePanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    // A different logdir, or more ops in the graph shown: lay it out again. Otherwise (more
    // traces while following) the boxes only change colour.
    if (m_showingWholeGraph &&
        (!snapshot || m_shownGraph >= snapshot->graphs().graphs().size() ||
         snapshot->graphs().graph(m_shownGraph).ops.size() != m_shownOpCount))
        m_showingWholeGraph = false;
    if (!snapshot)
        m_showingWholeGraph = false;
    m_eagerShown.reset(); // later executions may read its outputs
    rebuild();
}

void GraphStructurePanel::focusChanged(const Focus&)
{
    rebuild();
}

void GraphStructurePanel::setStatus(const QString& text)
{
    m_status->setText(text); // the whole text is its tooltip
}

void GraphStructurePanel::showPlaceholder(const QString& text)
{
    m_pendingJob = 0;
    m_showingWholeGraph = false;
    m_eagerShown.reset();
    m_eagerJob->cancel();
    m_scene->clearPicture();
    m_placeholder->setText(text);
    m_stack->setCurrentWidget(m_placeholder);
    setCaption({});
    setStatus({});
}

void GraphStructurePanel::rebuild()
{
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    const Focus& focus = navigator()->focus();
    if (!snapshot)
        return showPlaceholder(QStringLiteral("No logdir is open."));
    if (focus.op == core::kNoOp || focus.op >= snapshot->graphs().ops().size()) {
        if (focus.event && focus.event->source == core::EventSource::Eager &&
            focus.event->index < snapshot->executionCount())
            return showEagerNeighbourhood(focus.event->index);
        return showPlaceholder(
            QStringLiteral("No graph op is focused. Focus a graph execution or an alert to see "
                           "its op with the ops that feed it (above) and consume it (below)."));
    }
    m_eagerShown.reset();
    m_eagerJob->cancel();
    std::optional<std::uint64_t> trace;
    if (focus.event && focus.event->source == core::EventSource::Graph)
        trace = focus.event->index;
    const core::OpInfo& op = snapshot->graphs().op(focus.op);
    const core::GraphInfo& graph = snapshot->graphs().graph(op.graph);
    setCaption(
        QStringLiteral("%1 in graph %2").arg(QString::fromStdString(op.name), graphTitle(graph)));
    if (m_mode == Mode::WholeGraph && graph.ops.size() <= kMaxWholeGraphOps)
        return showWholeGraph(focus.op, trace);
    m_pendingJob = 0;
    if (m_mode == Mode::Neighbourhood)
        return showNeighbourhood(focus.op, trace);
    const QString refusal = QStringLiteral("Graph %1 has %2 ops: whole graphs of more than %3 ops "
                                           "are not laid out. This is the neighbourhood.")
                                .arg(graphTitle(graph), QString::number(graph.ops.size()),
                                     QString::number(kMaxWholeGraphOps));
    showNeighbourhood(focus.op, trace, refusal);
    setStatus(refusal);
    Q_EMIT layoutFinished();
}

void GraphStructurePanel::showNeighbourhood(core::OpId op, std::optional<std::uint64_t> trace,
                                            const QString& note)
{
    // The same op again (another of its traces, or more data while following): the user's zoom
    // and scroll stay.
    const std::optional<std::size_t> previous = m_scene->focusedNode();
    const bool sameOp = !m_showingWholeGraph && m_stack->currentWidget() == m_view && previous &&
                        m_scene->picture().nodes[*previous].op == op;
    const QTransform transform = m_view->transform();
    const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
    m_showingWholeGraph = false;
    GraphPicture picture =
        neighbourhoodPicture(*navigator()->snapshot(), op, trace, NodeSizer(m_view->font()));
    if (!note.isEmpty())
        picture.note = picture.note.isEmpty() ? note : note + u'\n' + picture.note;
    m_scene->setPicture(std::move(picture), m_view->font(), true, kNeighbourhoodMargin);
    m_stack->setCurrentWidget(m_view);
    m_view->setFitFloor(kNeighbourhoodFitFloor);
    if (sameOp) {
        m_view->setTransform(transform);
        m_view->centerOn(centre);
    } else {
        m_view->fitAll();
    }
    setStatus(
        trace
            ? QStringLiteral("Colours: what each op computed in the run of trace #%1.").arg(*trace)
            : QStringLiteral("Colours: what each op computed last."));
}

void GraphStructurePanel::showWholeGraph(core::OpId op, std::optional<std::uint64_t> trace)
{
    const items::SnapshotPtr snapshot = navigator()->snapshot();
    const core::GraphIndex graph = snapshot->graphs().op(op).graph;
    const std::size_t opCount = snapshot->graphs().graph(graph).ops.size();
    if (m_showingWholeGraph && m_shownGraph == graph && m_shownOpCount == opCount) {
        // The same picture: move the highlight, recolour, bring the op into view.
        m_scene->setFocusedOp(op);
        const std::vector<core::OpId> ops = pictureOps(m_scene->picture());
        m_scene->setLatest(core::tracesAround(
            *snapshot, ops, core::downstreamOf(snapshot->graphs(), ops, op), trace));
        if (const auto node = m_scene->focusedNode())
            m_view->ensureVisible(m_scene->nodeRect(*node), 80, 60);
        m_stack->setCurrentWidget(m_view);
        return;
    }
    // The neighbourhood meanwhile: the focused op is on screen at once.
    showNeighbourhood(op, trace);
    setStatus(QStringLiteral("Laying out %1 ops with Graphviz…").arg(opCount));
    if (m_pendingJob != 0 && m_pendingGraph == graph)
        return; // on its way; it takes the focus as it is when it arrives
    const std::uint64_t job = m_nextJob++;
    m_pendingJob = job;
    m_pendingGraph = graph;
    WholeGraphJob work = prepareWholeGraph(snapshot, graph, op, trace, NodeSizer(m_view->font()));
    auto* watcher = new QFutureWatcher<GraphPicture>(this);
    connect(watcher, &QFutureWatcher<GraphPicture>::finished, this, [this, watcher, job] {
        wholeGraphLaidOut(job, watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(layOutWholeGraph, std::move(work)));
}

void GraphStructurePanel::wholeGraphLaidOut(std::uint64_t job, GraphPicture picture)
{
    if (job != m_pendingJob)
        return; // a newer request, or the mode changed
    m_pendingJob = 0;
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    if (m_mode != Mode::WholeGraph || !snapshot)
        return;
    if (picture.nodes.empty()) {
        setStatus(picture.note);
        Q_EMIT layoutFinished();
        return;
    }
    const std::size_t count = picture.nodes.size();
    const core::GraphIndex graph = picture.graph;
    m_scene->setPicture(std::move(picture), m_view->font(), false);
    m_showingWholeGraph = true;
    m_shownGraph = graph;
    m_shownOpCount = count;
    m_stack->setCurrentWidget(m_view);
    m_view->setFitFloor(1);
    if (count <= kSmallGraph) {
        m_view->fitAll();
    } else {
        m_view->setZoom(1);
    }
    setStatus(QStringLiteral("Graph %1: %2 ops, %3 edges.")
                  .arg(graphTitle(snapshot->graphs().graph(graph)), QString::number(count),
                       QString::number(m_scene->picture().edges.size())));
    // The focus may have moved while Graphviz worked.
    rebuild();
    if (const auto node = m_scene->focusedNode())
        m_view->centreOnRect(m_scene->nodeRect(*node));
    Q_EMIT layoutFinished();
}

void GraphStructurePanel::showEagerNeighbourhood(std::uint64_t execution)
{
    m_pendingJob = 0;
    m_showingWholeGraph = false;
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    setCaption(
        QStringLiteral("%1, an eager execution").arg(executionNodeName(*snapshot, execution)));
    if (m_eagerShown == execution && m_stack->currentWidget() == m_view)
        return;
    m_eagerShown = execution;
    setStatus(QStringLiteral("Finding the executions around #%1…").arg(execution));
    m_eagerJob->request(snapshot, [execution](const core::Snapshot& s, const std::atomic_bool&) {
        return eagerPictureData(s, execution);
    });
}

void GraphStructurePanel::eagerNeighbourhoodFound(const EagerPictureData& found)
{
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    if (!snapshot || m_eagerShown != found.neighbourhood.execution)
        return;
    m_scene->setPicture(eagerNeighbourhoodPicture(*snapshot, found, NodeSizer(m_view->font())),
                        m_view->font(), true, kNeighbourhoodMargin);
    m_stack->setCurrentWidget(m_view);
    m_view->setFitFloor(kNeighbourhoodFitFloor);
    m_view->fitAll();
    setStatus(QStringLiteral("Executions that produced its inputs (above) and read its outputs "
                             "(below), through tensor ids. Colours: what each computed."));
    Q_EMIT layoutFinished();
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
    // From the focused op in the graph's order: the match after it (before it), wrapping.
    const std::vector<core::OpId>& order = graphs.graph(graph).ops;
    const auto rank = [&order](core::OpId op) {
        return std::find(order.begin(), order.end(), op) - order.begin();
    };
    const auto here = rank(focused);
    std::size_t next = 0;
    if (backward) {
        next = matches.size() - 1;
        for (std::size_t i = matches.size(); i-- > 0;)
            if (rank(matches[i]) < here) {
                next = i;
                break;
            }
    } else {
        for (std::size_t i = 0; i < matches.size(); ++i)
            if (rank(matches[i]) > here) {
                next = i;
                break;
            }
    }
    const core::OpId op = matches[next];
    const core::MatchPosition position = core::opMatchPosition(matches, op);
    m_findBar->setMatch(position.ordinal, position.total);
    navigator()->focusOp(op);
    if (const auto node = m_scene->focusedNode())
        m_view->centreOnRect(m_scene->nodeRect(*node));
}

void GraphStructurePanel::nodeClicked(std::size_t index)
{
    const std::vector<PictureNode>& nodes = m_scene->picture().nodes;
    if (index >= nodes.size())
        return;
    if (nodes[index].execution) {
        const std::uint64_t execution = *nodes[index].execution;
        navigator()->focusExecution(execution);
        return;
    }
    if (nodes[index].op == core::kNoOp)
        return;
    const PictureNode node = nodes[index]; // the focus change rebuilds the scene
    if (node.latest.trace)
        navigator()->focusTrace(*node.latest.trace);
    else
        navigator()->focusOp(node.op);
}

} // namespace nanscope::views
