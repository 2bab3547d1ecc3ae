// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel: its header, list and origin box, the analysis it shows, next/previous, focus.
#include "nanscope/views/alertspanel.hpp"

#include "alertspanelprivate.hpp"
#include "filteredrows.hpp"
#include "healthstyle.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/chiplabel.hpp"
#include "nanscope/widgets/columnfit.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "originbox.hpp"
#include "placefilters.hpp"
#include "viewhelpers.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

namespace nanscope::views {

using items::fromStd;

namespace {

constexpr qint64 kListUpdateIntervalMs = 1000;

QString opLabel(const core::Snapshot& snapshot, const core::EventRef& event)
{
    if (event.source == core::EventSource::Eager)
        return fromStd(snapshot.execution(event.index).opType);
    const core::OpId op = snapshot.trace(event.index).op;
    return op == core::kNoOp ? QString() : fromStd(snapshot.graphs().op(op).name);
}

} // namespace

AlertsPanel::AlertsPanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent), m_jobs(std::make_unique<Jobs>(this))
{
    setWindowTitle(tr("Alerts"));
    m_model = new items::AlertModel(this);
    // Revealed in batches: a million alerts must not stall the window when the list is rebuilt;
    // filtered and sorted on a worker thread, for the same reason.
    m_rows = new RowListProxyModel(this);
    m_rows->setSourceModel(m_model);

    widgets::ToolRow* tools = buildHeader();
    // The origin: where the first non-finite value was made, why, and what fixes it.
    m_originBox = new OriginBox(this);
    m_originBox->hide();
    buildTable();
    m_empty = emptyStateLabel(tr("No NaN or ∞ in this logdir."), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);
    layout->addWidget(tools);
    layout->addWidget(m_originBox);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);

    connectParts();
    snapshotChanged(nullptr);
}

AlertsPanel::~AlertsPanel() = default;

widgets::CopyableTableView* AlertsPanel::view() const
{
    return m_view;
}

QAbstractItemModel* AlertsPanel::proxy() const
{
    return m_rows;
}

int AlertsPanel::modelRow(const QModelIndex& shown) const
{
    const QModelIndex index = m_rows->mapToSource(shown);
    return index.isValid() ? index.row() : -1;
}

QModelIndex AlertsPanel::shownIndex(int modelRow) const
{
    return m_rows->mapFromSource(m_model->index(modelRow, 0));
}

void AlertsPanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    const bool sameLogdir = m_model->snapshot() && snapshot &&
                            m_model->snapshot()->layout().directory == snapshot->layout().directory;
    // The list is rebuilt for every snapshot (a trace read late sorts before executions), so
    // while a load goes on it follows at most once a second; the counts follow at once. A
    // sorted or filtered list that shows rows keeps them until the load's end: its rows are
    // worked out again after every rebuild, which for a million alerts takes about as long as
    // the second between two rebuilds, and it would show nothing meanwhile.
    const bool loading = sameLogdir && !snapshot->complete();
    const bool listBusy =
        m_sinceListUpdate.isValid() && m_sinceListUpdate.elapsed() < kListUpdateIntervalMs;
    const bool keepOrderedRows = (sorted() || filtering()) && m_rows->rowCount() > 0;
    const bool partial = loading && (listBusy || keepOrderedRows);
    if (!partial) {
        m_model->setSnapshot(snapshot);
        m_sinceListUpdate.start();
    }
    // Until the analysis of this snapshot counts again, the alerts set aside last time (a
    // followed logdir keeps its mask) are taken off.
    const quint64 all = snapshot ? snapshot->alertCount() : 0;
    const quint64 alerts = sameLogdir && all >= m_setAsideAlerts ? all - m_setAsideAlerts : all;
    setWindowTitle(alerts ? tr("Alerts (%L1)").arg(alerts) : tr("Alerts"));
    m_total->setText(tr("NaN/∞  %L1").arg(alerts));
    m_total->setColor(alerts ? healthstyle::nan() : QColor());
    if (!sameLogdir)
        forgetLogdir(snapshot);
    updateEmptyState();
    if (!snapshot) {
        m_jobs->analysis.cancel();
        return;
    }
    // In a rebuilt list, the focused alert is selected again.
    focusChanged(navigator()->focus());
    // The analysis walks every alert and the whole index: once per finished read, not per step
    // of a load.
    if (snapshot->complete()) {
        m_jobs->analysis.request(
            snapshot, [snapshot](const core::Snapshot& s, const std::atomic_bool&) {
                Analysis a;
                a.snapshot = snapshot;
                // Worked out here, once: the model, the rows job and the origin read it afterwards.
                const core::Propagation& p = s.propagation();
                a.setAside = OriginBox::setAsideLines(p.setAside);
                a.setAsideEvents = p.intendedEvents + p.uninitialisedEvents;
                a.counts = core::countAlertKinds(s, p);
                a.origin = s.origin();
                (void)s.alertsByWallTime(); // worked out here, so that F3 on the GUI thread needn't
                a.firstAlert = s.tensorBoardFirstAlert();
                if (a.firstAlert) {
                    a.firstAlertOp = opLabel(s, a.firstAlert->event);
                    a.firstAlertSetAside =
                        p.intended(a.firstAlert->event) || p.uninitialised(a.firstAlert->event);
                }
                return a;
            });
    }
}

// Nothing of one logdir's browsing carries over to the next.
void AlertsPanel::forgetLogdir(const items::SnapshotPtr& snapshot)
{
    m_view->scrollToTop();
    m_kindFilter = KindFilter::All;
    m_filter = {};
    {
        const QSignalBlocker quiet(m_text);
        m_text->clear();
    }
    m_filterRows.clear();
    updateChipStates();
    // The hosts and devices of this logdir, to choose among when there are several.
    m_places->showColumns(m_view, m_places->fill(snapshot), items::AlertModel::HostColumn);
    updateListMinimumWidth();
    m_hasOrigin = false;
    m_setAsideAlerts = 0;
    m_setAsideEvents = 0;
    updateSetAsideToggle();
    m_originBox->hide();
    for (widgets::ChipLabel* chip : {m_nan, m_negInf, m_posInf})
        chip->hide();
    Q_EMIT originChanged(false);
    // The model's reset asked for rows under the old filter: every alert of the new logdir, in
    // the order the header shows.
    requestRows();
}

void AlertsPanel::showAnalysis(const Analysis& a)
{
    m_model->setPropagationKnown(a.snapshot);
    const bool hidingBefore = hidingSetAside();
    m_setAsideAlerts = a.counts.setAside;
    m_setAsideEvents = a.setAsideEvents;
    updateSetAsideToggle();
    // The list hides the set-aside alerts only now that they are known.
    if (hidingSetAside() || hidingBefore)
        refilter();
    const core::AlertKindCounts& counts = a.counts;
    setWindowTitle(counts.counted ? tr("Alerts (%L1)").arg(counts.counted) : tr("Alerts"));
    m_total->setText(tr("NaN/∞  %L1").arg(counts.counted));
    m_total->setColor(counts.counted ? healthstyle::nan() : QColor());
    const auto chip = [](widgets::ChipLabel* label, const QString& symbol, quint64 count,
                         const QColor& color, bool known) {
        label->setText(symbol + QStringLiteral("  ") + QLocale().toString(count));
        label->setColor(count ? color : QColor());
        label->setVisible(known);
    };
    const bool known = counts.kindsKnown;
    chip(m_nan, QStringLiteral("NaN"), counts.nan, healthstyle::nan(), known);
    chip(m_negInf, QStringLiteral("−∞"), counts.negInf, healthstyle::negativeInfinity(), known);
    chip(m_posInf, QStringLiteral("+∞"), counts.posInf, healthstyle::positiveInfinity(), known);

    m_hasOrigin = a.origin.has_value();
    if (a.origin)
        m_originBox->showOrigin(*a.origin, a.firstAlert, a.firstAlertOp, a.firstAlertSetAside);
    else if (a.setAsideEvents > 0)
        m_originBox->showNoUnintended(a.setAsideEvents); // not "no NaN": there were some
    m_originBox->showSetAside(a.setAside);
    m_originBox->setVisible(a.origin || a.setAsideEvents > 0);
    Q_EMIT originChanged(m_hasOrigin);
}

QString AlertsPanel::originText() const
{
    if (m_originBox->isHidden())
        return {};
    return m_originBox->text();
}

QStringList AlertsPanel::countTexts() const
{
    QStringList texts{m_total->text()};
    for (widgets::ChipLabel* chip : {m_nan, m_negInf, m_posInf})
        if (!chip->isHidden())
            texts << chip->text();
    return texts;
}

bool AlertsPanel::isBusy() const
{
    return !m_jobs->analysis.idle() || !m_filtered->idle() || !m_rows->allRowsShown();
}

// The list's narrowest useful width: every shown column at its width but the op's name, which
// stretches and keeps ten characters; without it a narrow window would elide names to "…g" to
// make room for the header's filters (which wrap to a second line instead).
void AlertsPanel::updateListMinimumWidth()
{
    const QHeaderView* header = m_view->horizontalHeader();
    int width = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 10;
    for (int column = 0; column < header->count(); ++column)
        if (column != items::AlertModel::OpNameColumn && !header->isSectionHidden(column))
            width += header->sectionSize(column);
    width += m_view->verticalScrollBar()->sizeHint().width() + 2 * m_view->frameWidth();
    m_view->setMinimumWidth(width);
}

void AlertsPanel::updateEmptyState()
{
    const auto& snapshot = m_model->snapshot();
    const bool empty = snapshot && snapshot->complete() && snapshot->alertCount() == 0 &&
                       (snapshot->traceCount() > 0 || snapshot->executionCount() > 0);
    m_empty->setVisible(empty);
    m_view->setVisible(!empty);
}

void AlertsPanel::activateRow(int row)
{
    const QModelIndex index = m_rows->index(row, 0);
    const int source = modelRow(index);
    if (source < 0)
        return;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    // The alert's own event: the navigator's snapshot may be newer than this list.
    const QModelIndex alert = m_model->index(source, 0);
    navigator()->focusEvent(core::EventRef{
        static_cast<core::EventSource>(alert.data(items::AlertModel::EventSourceRole).toInt()),
        alert.data(items::AlertModel::EventIndexRole).toULongLong()});
}

void AlertsPanel::stepAlert(int delta)
{
    const auto& snapshot = m_model->snapshot();
    if (!snapshot || m_rows->rowCount() == 0)
        return;
    // Execution order: the alerts by wall time (worked out by the analysis job beforehand).
    const std::vector<std::uint64_t>& order = snapshot->alertsByWallTime();
    const auto count =
        static_cast<std::size_t>(std::min<std::uint64_t>(order.size(), m_model->rowCount()));
    if (count == 0)
        return;
    const int current = modelRow(m_view->currentIndex());
    std::size_t position = delta > 0 ? count - 1 : 0; // no current alert: start at an end
    if (current >= 0) {
        // Usually where the last step left off; otherwise found once.
        if (m_stepPosition >= count ||
            order[m_stepPosition] != static_cast<std::uint64_t>(current)) {
            const auto it =
                std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count),
                          static_cast<std::uint64_t>(current));
            m_stepPosition = static_cast<std::size_t>(it - order.begin());
        }
        position = m_stepPosition < count ? m_stepPosition : position;
    }
    for (std::size_t tried = 0; tried < count; ++tried) {
        position = (position + count + static_cast<std::size_t>(delta > 0 ? 1 : count - 1)) % count;
        const int row = static_cast<int>(order[position]);
        if (!passesFilter(row))
            continue;
        const QModelIndex shown = shownIndex(row);
        if (!shown.isValid())
            continue; // not revealed yet
        m_stepPosition = position;
        activateRow(shown.row());
        return;
    }
}

void AlertsPanel::nextAlert()
{
    stepAlert(1);
}

void AlertsPanel::previousAlert()
{
    stepAlert(-1);
}

bool AlertsPanel::goToOrigin()
{
    return m_hasOrigin && navigator()->focusOrigin();
}

int AlertsPanel::rowForEvent(const core::EventRef& event) const
{
    const auto& snapshot = m_model->snapshot();
    if (!snapshot)
        return -1;
    const std::uint64_t count = std::min<std::uint64_t>(snapshot->alertCount(), INT_MAX);
    // Alerts list graph traces by index, then executions by index: two sorted runs.
    auto before = [&](std::uint64_t k) {
        const core::EventRef e = snapshot->alert(k).event;
        if (e.source != event.source)
            return e.source == core::EventSource::Graph;
        return e.index < event.index;
    };
    std::uint64_t low = 0, high = count;
    while (low < high) {
        const std::uint64_t mid = low + (high - low) / 2;
        if (before(mid))
            low = mid + 1;
        else
            high = mid;
    }
    if (low < count && snapshot->alert(low).event == event)
        return static_cast<int>(low);
    return -1;
}

void AlertsPanel::focusChanged(const Focus& focus)
{
    if (m_applyingFocus)
        return;
    const int source = focus.event ? rowForEvent(*focus.event) : -1;
    const QModelIndex index = source < 0 ? QModelIndex() : shownIndex(source);
    if (!index.isValid()) {
        m_view->selectionModel()->clearSelection();
        return;
    }
    m_applyingFocus = true;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    m_applyingFocus = false;
}

} // namespace nanscope::views
