// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/graphstructurepanel.hpp"

#include "backgroundpool.hpp"
#include "eagerpicture.hpp"
#include "graphitems.hpp"
#include "graphscene.hpp"
#include "graphstructureview.hpp"
#include "legend.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "neighbourhoodpicture.hpp"
#include "snapshotjob.hpp"
#include "viewhelpers.hpp"
#include "wholegraphpicture.hpp"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace nanscope::views {

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
    buildPicture();
    buildToolBar();
    QHBoxLayout* footer = buildFooter();
    buildFindBar();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(m_bar);
    layout->addLayout(m_captionRow);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_findBar);
    layout->addLayout(footer);

    connect(m_view, &GraphStructureView::nodeClicked, this, &GraphStructurePanel::nodeClicked);
    m_eagerJob = std::make_unique<SnapshotJob<EagerPictureData>>(
        [this](const EagerPictureData& found) { eagerNeighbourhoodFound(found); });
    rebuild();
}

GraphStructurePanel::~GraphStructurePanel() = default;

// The picture, and the placeholder shown instead of it when there is nothing to draw.
void GraphStructurePanel::buildPicture()
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
}

// The legend of the boxes' colours, and the status beside it.
QHBoxLayout* GraphStructurePanel::buildFooter()
{
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
    return footer;
}

void GraphStructurePanel::setMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    (mode == Mode::WholeGraph ? m_wholeGraphButton : m_neighbourhoodButton)->setChecked(true);
    rebuild();
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
    // One layout at a time: a newer request waits for the running one rather than competing
    // with it for the cores.
    static QThreadPool* const layouts =
        newBackgroundPool(QStringLiteral("nanscope-graph-layout"), 1);
    watcher->setFuture(runInBackground(
        layouts, [work = std::move(work)]() mutable { return layOutWholeGraph(std::move(work)); }));
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
