// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/executionspanel.hpp"

#include "executionspanelprivate.hpp"
#include "filteredrows.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "tablesearch.hpp"
#include "viewhelpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>

namespace nanscope::views {

namespace {

using Model = items::ExecutionModel;

} // namespace

ExecutionsPanel::ExecutionsPanel(Navigator* navigator, QWidget* parent)
    : TablePanel(navigator, tr("Find an execution by op type or module"),
                 tr("Go to an execution by its index (Ctrl+G)"), parent),
      m_jobs(std::make_unique<Jobs>(this))
{
    setWindowTitle(tr("Executions"));
    m_model = new Model(this);
    QWidget* tools = buildControls();
    buildTable();
    m_empty = emptyStateLabel(
        tr("No executions in this logdir: its ops ran in graphs (see Graph Execution)."), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_search->findBar());

    connectTable();
    connectControls();
    showChoices({});
    updateStatus();
}

ExecutionsPanel::~ExecutionsPanel() = default;

void ExecutionsPanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    if (!items::sameLogdir(m_model->snapshot(), snapshot))
        forgetLogdir();
    m_model->setSnapshot(snapshot);
    showHosts(snapshot);
    const quint64 count = snapshot ? snapshot->executionCount() : 0;
    setWindowTitle(count ? tr("Executions (%L1)").arg(count) : tr("Executions"));
    // A run of graph traces only has nothing to list: say so rather than show an empty table.
    const bool none = snapshot && snapshot->readable() && snapshot->complete() && count == 0;
    m_empty->setVisible(none);
    m_view->setVisible(!none);
    requestChoices();
    const Focus& focus = navigator()->focus();
    if (focus.event && focus.event->source == core::EventSource::Eager &&
        !m_view->currentIndex().isValid()) {
        showFocus();
        requestNeighbours();
    }
    updateStatus();
}

// Nothing of one logdir's browsing carries over to the next.
void ExecutionsPanel::forgetLogdir()
{
    m_jobs->find.cancel();
    m_jobs->choices.cancel();
    m_search->forget();
    m_view->scrollToTop();
    m_message.clear();
    m_neighbours.clear();
    m_choices = {};
    m_columns->restart();
    showChoices({});
    if (m_filter.active())
        setFilter({}); // another run's op types and modules mean nothing here
}

void ExecutionsPanel::requestChoices()
{
    const items::SnapshotPtr snapshot = m_model->snapshot();
    const auto end = static_cast<std::uint64_t>(m_model->rowCount());
    if (!snapshot || end <= m_choices.scanned)
        return;
    // Only the executions read since the last scan: a followed run grows by appends.
    m_jobs->choices.request(snapshot, [choices = m_choices, end](const core::Snapshot& s,
                                                                 const std::atomic_bool& stop) {
        items::ExecutionChoices more = choices;
        if (!items::scanExecutionChoices(s, end, more, &stop))
            return choices;
        return more;
    });
}

bool ExecutionsPanel::sorted() const
{
    return m_sortColumn != Model::IndexColumn || m_sortOrder != Qt::AscendingOrder;
}

void ExecutionsPanel::setFilter(const items::ExecutionFilter& filter)
{
    m_filter = filter;
    m_filter.text.clear();
    m_updatingChoices = true;
    showFilterInControls();
    m_updatingChoices = false;
    requestRows();
}

void ExecutionsPanel::sortBy(int column, Qt::SortOrder order)
{
    // The columns of full records have no value to sort by until read: the sort stays.
    if (!items::executionColumnSortable(column)) {
        const QSignalBlocker quiet(m_view->horizontalHeader());
        m_view->horizontalHeader()->setSortIndicator(m_sortColumn, m_sortOrder);
        return;
    }
    m_sortColumn = column;
    m_sortOrder = order;
    if (m_view->horizontalHeader()->sortIndicatorSection() != column ||
        m_view->horizontalHeader()->sortIndicatorOrder() != order) {
        const QSignalBlocker quiet(m_view->horizontalHeader());
        m_view->horizontalHeader()->setSortIndicator(column, order);
    }
    requestRows();
}

void ExecutionsPanel::requestRows()
{
    if (!m_filter.active() && !sorted()) {
        m_rows->showAll();
        return;
    }
    const int column = sorted() ? m_sortColumn : -1;
    // Filtered in the run's order, the new executions of a followed run are only scanned.
    m_rows->scan(
        [filter = m_filter, column, order = m_sortOrder](const core::Snapshot& s,
                                                         std::uint64_t begin, std::uint64_t end,
                                                         const std::atomic_bool& stop) {
            FilteredRows::Rows shown;
            if (filter.active()) {
                shown.rows = items::matchingExecutions(s, filter, begin, end, &stop);
            } else {
                shown.rows.resize(static_cast<std::size_t>(end - begin));
                std::iota(shown.rows.begin(), shown.rows.end(), static_cast<int>(begin));
            }
            if (column < 0)
                return shown;
            auto ordered = items::sortExecutions(s, std::move(shown.rows), column, order, stop);
            if (!ordered)
                return FilteredRows::Rows{}; // stopped: never shown
            shown.rows = std::move(*ordered);
            shown.positions = RowListProxyModel::positionsOf(shown.rows, static_cast<int>(end));
            shown.ordered = true;
            return shown;
        },
        column < 0);
    updateStatus();
}

qint64 ExecutionsPanel::currentExecution() const
{
    return currentSourceRow(m_view, m_proxy);
}

QList<quint64> ExecutionsPanel::highlightedNeighbours() const
{
    return sortedHighlightedRows(*m_proxy);
}

bool ExecutionsPanel::isBusy() const
{
    return !m_rows->idle() || !m_jobs->find.idle() || !m_jobs->choices.idle() ||
           !m_jobs->neighbours.idle() || !m_proxy->allRowsShown();
}

void ExecutionsPanel::updateStatus()
{
    QString text = m_message;
    if (text.isEmpty() && m_filter.active())
        text = !m_rows->idle() && m_rows->covered() == 0
                   ? tr("Filtering…")
                   : tr("%L1 of %L2 rows").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    if (text.isEmpty())
        text = m_neighbours;
    m_status->setText(text);
}

void ExecutionsPanel::find(const QString& text, bool backward)
{
    const items::SnapshotPtr snapshot = m_model->snapshot();
    if (text.trimmed().isEmpty() || !snapshot)
        return;
    items::ExecutionFilter filter = m_filter;
    filter.text = text.trimmed().toStdString();
    const qint64 current = currentExecution();
    const std::optional<std::uint64_t> from =
        current >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(current))
                     : std::nullopt;
    const auto end = static_cast<std::uint64_t>(m_model->rowCount());
    m_search->findBar()->setStatus(tr("Searching…"));
    m_jobs->find.request(snapshot, [filter, from, backward, end](const core::Snapshot& s,
                                                                 const std::atomic_bool& stop) {
        Jobs::FindResult result{items::findExecution(s, filter, end, from, backward, &stop), {}};
        if (result.execution)
            result.position =
                items::executionMatchPosition(s, filter, end, *result.execution, &stop);
        return result;
    });
}

bool ExecutionsPanel::goToIndex(quint64 index)
{
    const quint64 count = static_cast<quint64>(m_model->rowCount());
    if (index >= count) {
        m_message = count ? tr("No execution #%L1 (the last is #%L2)").arg(index).arg(count - 1)
                          : tr("No executions");
        updateStatus();
        return false;
    }
    m_message.clear();
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(static_cast<int>(index), 0));
    if (!shown.isValid() && m_filter.active())
        setFilter({}); // the filters hide it: show everything rather than go nowhere
    navigator()->focusExecution(index);
    updateStatus();
    return true;
}

void ExecutionsPanel::focusChanged(const Focus&)
{
    showFocus();
    requestNeighbours();
}

void ExecutionsPanel::showFocus()
{
    const Focus& focus = navigator()->focus();
    QModelIndex index;
    if (focus.event && focus.event->source == core::EventSource::Eager &&
        focus.event->index < static_cast<quint64>(m_model->rowCount()))
        index = m_proxy->mapFromSource(
            m_model->index(static_cast<int>(focus.event->index), Model::OpTypeColumn));
    m_applyingFocus = true;
    if (!index.isValid()) {
        m_view->selectionModel()->clearSelection();
        m_view->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
    } else {
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
        // Centre a row focused elsewhere unless it is well in sight; a row the user just
        // clicked stays where it is.
        const QRect rect = m_view->visualRect(index);
        const int margin = 2 * m_view->rowHeight();
        const QRect comfortable = m_view->viewport()->rect().adjusted(0, margin, 0, -margin);
        if (!m_userMovedFocus && !(rect.isValid() && comfortable.contains(rect)))
            m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    }
    m_applyingFocus = false;
}

void ExecutionsPanel::requestNeighbours()
{
    const Focus& focus = navigator()->focus();
    const items::SnapshotPtr snapshot = m_model->snapshot();
    m_jobs->neighbours.cancel();
    if (!m_message.isEmpty() || !m_neighbours.isEmpty()) { // notes about the previous focus
        m_message.clear();
        m_neighbours.clear();
        updateStatus();
    }
    m_proxy->setHighlightedRows({});
    if (!snapshot || !focus.event || focus.event->source != core::EventSource::Eager ||
        focus.event->index >= snapshot->executionCount())
        return;
    // A scan of the index both ways (bounded): on a worker thread, as Graph Structure does.
    const std::uint64_t execution = focus.event->index;
    m_jobs->neighbours.request(snapshot,
                               [execution](const core::Snapshot& s, const std::atomic_bool&) {
                                   core::EagerNeighbourhoodLimits limits;
                                   limits.maxConsumers = 64;
                                   return core::eagerNeighbourhood(s, execution, limits);
                               });
}

void ExecutionsPanel::onCurrentRowChanged(const QModelIndex& current)
{
    if (m_applyingFocus || !current.isValid())
        return;
    const QModelIndex source = m_proxy->mapToSource(current);
    if (!source.isValid())
        return;
    m_userMovedFocus = true;
    navigator()->focusExecution(static_cast<quint64>(source.row()));
    m_userMovedFocus = false;
}

} // namespace nanscope::views
