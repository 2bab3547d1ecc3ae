// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/graphexecutionpanel.hpp"

#include "filteredrows.hpp"
#include "nanscope/core/inputtraces.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "placefilters.hpp"
#include "snapshotjob.hpp"
#include "tablesearch.hpp"
#include "viewhelpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace nanscope::views {

using items::fromStd;

namespace {

using Model = items::GraphExecutionModel;

} // namespace

class GraphExecutionPanel::Jobs
{
public:
    struct FindResult
    {
        std::optional<std::uint64_t> trace;
        core::MatchPosition position;
    };

    explicit Jobs(GraphExecutionPanel* panel)
        : find([panel](FindResult result) {
              panel->findBar()->setMatch(result.position.ordinal,
                                         result.trace ? result.position.total : 0);
              if (result.trace)
                  panel->navigator()->focusTrace(*result.trace);
          }),
          callTraces([panel](std::vector<std::uint64_t> traces) {
              panel->showCallTraces(std::move(traces));
          })
    {}

    SnapshotJob<FindResult> find;
    SnapshotJob<std::vector<std::uint64_t>> callTraces; // of the focused tf.function call
};

GraphExecutionPanel::GraphExecutionPanel(Navigator* navigator, QWidget* parent)
    : TablePanel(navigator, tr("Find an op by name or type"),
                 tr("Go to a trace by its index (Ctrl+G)"), parent),
      m_jobs(std::make_unique<Jobs>(this))
{
    setWindowTitle(tr("Graph Execution"));
    m_model = new Model(this);
    widgets::ToolRow* tools = buildControls();
    buildTable();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_search->findBar());

    connectTable();
    connectControls();
    updateFilterChoices(nullptr);
    updateStatus();
}

GraphExecutionPanel::~GraphExecutionPanel() = default;

void GraphExecutionPanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    if (!items::sameLogdir(m_model->snapshot(), snapshot))
        forgetLogdir();
    m_model->setSnapshot(snapshot);
    // A reload resets the model: the focused row and its inputs are shown again.
    const Focus& focus = navigator()->focus();
    if (focus.event && focus.event->source == core::EventSource::Graph) {
        if (!m_view->currentIndex().isValid())
            showFocus(true);
        if (m_proxy->highlightedRows().isEmpty())
            updateInputs();
    }
    const quint64 count = snapshot ? snapshot->traceCount() : 0;
    setWindowTitle(count ? tr("Graph Execution (%L1)").arg(count) : tr("Graph Execution"));
    updateFilterChoices(snapshot);
    updateStatus();
}

// Nothing of one logdir's browsing carries over to the next.
void GraphExecutionPanel::forgetLogdir()
{
    m_jobs->find.cancel();
    m_search->forget();
    m_view->scrollToTop();
    m_message.clear();
    m_knownOps = m_knownGraphs = m_knownDevices = 0;
    m_columns->restart();
    if (m_filter.active())
        setFilter({}); // a filter of another logdir's graphs means nothing here
}

void GraphExecutionPanel::updateFilterChoices(const items::SnapshotPtr& snapshot)
{
    const std::size_t ops = snapshot ? snapshot->graphs().ops().size() : 0;
    const std::size_t graphs = snapshot ? snapshot->graphs().graphs().size() : 0;
    const std::size_t devices =
        snapshot ? snapshot->traceDevices().size() + snapshot->graphs().devices().size() : 0;
    if (snapshot && ops == m_knownOps && graphs == m_knownGraphs && devices == m_knownDevices)
        return;
    m_knownOps = ops;
    m_knownGraphs = graphs;
    m_knownDevices = devices;
    m_updatingChoices = true;
    m_graph->clear();
    m_graph->addItem(tr("All graphs"), -1);
    m_opType->clear();
    m_opType->addItem(tr("All op types"));
    m_places->showColumns(m_view, m_places->fill(snapshot), Model::HostColumn, Model::DeviceColumn);
    if (snapshot) {
        const auto& table = snapshot->graphs();
        for (std::size_t g = 0; g < graphs; ++g) {
            const core::GraphInfo& info = table.graph(static_cast<core::GraphIndex>(g));
            if (info.ops.empty())
                continue; // an outer context with no ops of its own
            const QString name = info.name.empty()
                                     ? tr("(unnamed %1)").arg(fromStd(info.id).left(8))
                                     : fromStd(info.name);
            m_graph->addItem(name, static_cast<int>(g));
        }
        std::set<std::string> types;
        for (const core::OpInfo& op : table.ops())
            if (!op.type.empty())
                types.insert(op.type);
        for (const std::string& type : types)
            m_opType->addItem(fromStd(type));
    }
    showFilterInControls();
    m_updatingChoices = false;
}

void GraphExecutionPanel::showFilterInControls()
{
    m_nonFinite->setChecked(m_filter.nonFiniteOnly);
    const int graphRow = m_filter.graph ? m_graph->findData(static_cast<int>(*m_filter.graph)) : 0;
    m_graph->setCurrentIndex(std::max(graphRow, 0));
    const int typeRow = m_filter.opType.empty() ? 0 : m_opType->findText(fromStd(m_filter.opType));
    m_opType->setCurrentIndex(std::max(typeRow, 0));
    m_places->showChoice(m_filter.host, m_filter.device);
}

void GraphExecutionPanel::setFilter(const core::TraceFilter& filter)
{
    m_filter = filter;
    m_filter.text.clear();
    m_updatingChoices = true;
    showFilterInControls();
    m_updatingChoices = false;
    applyFilter();
}

void GraphExecutionPanel::applyFilter()
{
    m_message.clear();
    if (!m_filter.active()) {
        m_rows->showAll();
        return;
    }
    m_rows->scan(
        [filter = m_filter](const core::Snapshot& s, std::uint64_t begin, std::uint64_t end,
                            const std::atomic_bool& stop) {
            const core::TraceMatcher matcher(s, filter);
            return FilteredRows::Rows{core::matchingRows(s, matcher, begin, end, &stop)};
        },
        true);
    updateStatus();
}

qint64 GraphExecutionPanel::currentTrace() const
{
    return currentSourceRow(m_view, m_proxy);
}

QList<quint64> GraphExecutionPanel::highlightedInputs() const
{
    return sortedHighlightedRows(*m_proxy);
}

bool GraphExecutionPanel::isBusy() const
{
    return !m_rows->idle() || !m_jobs->find.idle() || !m_proxy->allRowsShown();
}

void GraphExecutionPanel::updateStatus()
{
    QString text = m_message;
    if (text.isEmpty() && m_filter.active()) {
        const quint64 total = static_cast<quint64>(m_model->rowCount());
        text = !m_rows->idle() && m_rows->covered() == 0
                   ? tr("Filtering…")
                   : tr("%L1 of %L2 rows").arg(m_proxy->rowCount()).arg(total);
    }
    m_status->setText(text);
}

void GraphExecutionPanel::find(const QString& text, bool backward)
{
    const items::SnapshotPtr snapshot = m_model->snapshot();
    if (text.trimmed().isEmpty() || !snapshot)
        return;
    core::TraceFilter filter = m_filter;
    filter.text = text.trimmed().toStdString();
    const qint64 current = currentTrace();
    const std::optional<std::uint64_t> from =
        current >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(current))
                     : std::nullopt;
    m_search->findBar()->setStatus(tr("Searching…"));
    m_jobs->find.request(
        snapshot, [filter, from, backward](const core::Snapshot& s, const std::atomic_bool& stop) {
            const core::TraceMatcher matcher(s, filter);
            Jobs::FindResult result{core::findTrace(s, matcher, from, backward, &stop), {}};
            if (result.trace)
                result.position = core::matchPosition(s, matcher, *result.trace, &stop);
            return result;
        });
}

bool GraphExecutionPanel::goToIndex(quint64 index)
{
    const items::SnapshotPtr snapshot = m_model->snapshot();
    const quint64 count = snapshot ? snapshot->traceCount() : 0;
    if (index >= count || index >= static_cast<quint64>(m_model->rowCount())) {
        m_message = count ? tr("No trace #%L1 (the last is #%L2)").arg(index).arg(count - 1)
                          : tr("No traces");
        updateStatus();
        return false;
    }
    m_message.clear();
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(static_cast<int>(index), 0));
    if (!shown.isValid() && m_filter.active())
        setFilter({}); // the filters hide it: show everything rather than go nowhere
    navigator()->focusTrace(index);
    updateStatus();
    return true;
}

void GraphExecutionPanel::focusChanged(const Focus&)
{
    showFocus(true);
    updateInputs();
}

void GraphExecutionPanel::showFocus(bool scroll)
{
    const Focus& focus = navigator()->focus();
    QModelIndex index;
    if (focus.event && focus.event->source == core::EventSource::Graph &&
        focus.event->index < static_cast<quint64>(m_model->rowCount()))
        index = m_proxy->mapFromSource(
            m_model->index(static_cast<int>(focus.event->index), Model::TensorColumn));
    m_applyingFocus = true;
    if (!index.isValid()) {
        m_view->selectionModel()->clearSelection();
        m_view->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
    } else {
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
        // Centre a row that moved here from elsewhere unless it is well in sight already; a
        // row the user just clicked stays where it is.
        const QRect rect = m_view->visualRect(index);
        const int margin = 2 * m_view->rowHeight();
        const QRect comfortable = m_view->viewport()->rect().adjusted(0, margin, 0, -margin);
        const bool inSight = rect.isValid() && comfortable.contains(rect);
        if (scroll && !m_userMovedFocus && !inSight) {
            m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
            m_columns->fit(); // for the rows now on screen
        }
    }
    m_applyingFocus = false;
}

void GraphExecutionPanel::updateInputs()
{
    const Focus& focus = navigator()->focus();
    const items::SnapshotPtr snapshot = m_model->snapshot();
    m_jobs->callTraces.cancel();
    if (!m_message.isEmpty()) { // a note about the previous focus
        m_message.clear();
        updateStatus();
    }
    QSet<int> rows;
    if (snapshot && focus.event && focus.event->source == core::EventSource::Graph)
        for (const core::InputTrace& input : core::findInputTraces(*snapshot, focus.event->index))
            if (input.trace < static_cast<quint64>(m_model->rowCount()))
                rows.insert(static_cast<int>(input.trace));
    m_proxy->setHighlightedRows(rows);
    // A focused tf.function call: the graph executions it ran are what this table has to say.
    if (snapshot && focus.event && focus.event->source == core::EventSource::Eager &&
        !snapshot->execution(focus.event->index).graphId.empty()) {
        const std::uint64_t call = focus.event->index;
        m_jobs->callTraces.request(snapshot,
                                   [call](const core::Snapshot& s, const std::atomic_bool& stop) {
                                       return core::tracesOfCall(s, call, kMaxCallTraces, &stop);
                                   });
    }
}

void GraphExecutionPanel::showCallTraces(std::vector<std::uint64_t> traces)
{
    QSet<int> rows;
    for (const std::uint64_t trace : traces)
        if (trace < static_cast<quint64>(m_model->rowCount()))
            rows.insert(static_cast<int>(trace));
    m_proxy->setHighlightedRows(rows);
    m_message = traces.empty()
                    ? tr("No graph execution of this call was recorded")
                    : tr("The call's %L1 graph executions are highlighted").arg(rows.size());
    updateStatus();
    if (rows.isEmpty())
        return;
    // Its first one in sight, without moving the focus off the call.
    const QModelIndex first = m_proxy->mapFromSource(
        m_model->index(static_cast<int>(traces.front()), Model::TensorColumn));
    if (first.isValid())
        m_view->scrollTo(first, QAbstractItemView::PositionAtTop);
}

void GraphExecutionPanel::onCurrentRowChanged(const QModelIndex& current)
{
    if (m_applyingFocus || !current.isValid())
        return;
    const QModelIndex source = m_proxy->mapToSource(current);
    if (!source.isValid())
        return;
    m_userMovedFocus = true;
    navigator()->focusTrace(static_cast<quint64>(source.row()));
    m_userMovedFocus = false;
}

} // namespace nanscope::views
