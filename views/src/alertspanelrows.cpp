// SPDX-License-Identifier: GPL-3.0-or-later
// Which alerts the Alerts panel lists, in what order: filters, sort, set-aside, Treat as Expected.
#include "alertspanelprivate.hpp"
#include "expectedpattern.hpp"
#include "filteredrows.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/chiplabel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "placefilters.hpp"
#include "viewhelpers.hpp"

#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <algorithm>
#include <numeric>

namespace nanscope::views {

using items::fromStd;

namespace {

std::uint8_t healthBit(AlertsPanel::KindFilter filter)
{
    switch (filter) {
    case AlertsPanel::KindFilter::NaN:
        return core::health::NaN;
    case AlertsPanel::KindFilter::NegativeInfinity:
        return core::health::NegInf;
    case AlertsPanel::KindFilter::PositiveInfinity:
        return core::health::PosInf;
    case AlertsPanel::KindFilter::All:
        break;
    }
    return 0;
}

} // namespace

void AlertsPanel::sortBy(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    requestRows(); // in the new order, and focuses again
}

// m_sortColumn starts at 0, ascending: the model's own order.
static_assert(items::AlertModel::IndexColumn == 0);

bool AlertsPanel::sorted() const
{
    // The model's own order (TensorBoard's) needs no sorting at all.
    return m_sortColumn != items::AlertModel::IndexColumn || m_sortOrder != Qt::AscendingOrder;
}

bool AlertsPanel::filtering() const
{
    return m_filter.active() || hidingSetAside();
}

bool AlertsPanel::hidingSetAside() const
{
    return !m_showSetAside && m_setAsideAlerts > 0;
}

void AlertsPanel::setShowSetAside(bool show)
{
    if (show == m_showSetAside)
        return;
    m_showSetAside = show;
    updateSetAsideToggle();
    refilter();
}

void AlertsPanel::updateSetAsideToggle()
{
    {
        const QSignalBlocker quiet(m_setAsideToggle);
        m_setAsideToggle->setChecked(m_showSetAside);
    }
    m_setAsideToggle->setText(tr("Intended (%L1)").arg(m_setAsideAlerts));
    m_setAsideToggle->setVisible(m_setAsideAlerts > 0);
    m_view->setColumnHidden(items::AlertModel::StatusColumn,
                            !m_showSetAside || m_setAsideAlerts == 0);
    updateListMinimumWidth();
}

QString AlertsPanel::expectedPatternForRow(int row) const
{
    const int source = modelRow(m_rows->index(row, 0));
    const auto& snapshot = m_model->snapshot();
    if (source < 0 || !snapshot)
        return {};
    return expectedPatternFor(*snapshot, snapshot->alert(static_cast<quint64>(source)).event);
}

void AlertsPanel::treatRowAsExpected(int row)
{
    const QString pattern = expectedPatternForRow(row);
    if (!pattern.isEmpty())
        Q_EMIT treatAsExpectedRequested(pattern);
}

void AlertsPanel::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_view->indexAt(position);
    const QString pattern = index.isValid() ? expectedPatternForRow(index.row()) : QString();
    if (pattern.isEmpty())
        return;
    QMenu menu(this);
    connect(addTreatAsExpectedAction(menu, pattern), &QAction::triggered, this,
            [this, row = index.row()] { treatRowAsExpected(row); });
    if (m_setAsideAlerts > 0) {
        QAction* show = menu.addAction(tr("Show Intended Alerts"));
        show->setCheckable(true);
        show->setChecked(m_showSetAside);
        connect(show, &QAction::toggled, this, &AlertsPanel::setShowSetAside);
    }
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

QString AlertsPanel::textFilter() const
{
    return fromStd(m_filter.text);
}

bool AlertsPanel::passesFilter(int modelRow) const
{
    return !filtering() || std::binary_search(m_filterRows.begin(), m_filterRows.end(), modelRow);
}

void AlertsPanel::setKindFilter(KindFilter filter)
{
    m_kindFilter = filter;
    m_filter.kinds = healthBit(filter);
    updateChipStates();
    m_focusFirstOfKind = filter != KindFilter::All;
    refilter();
}

void AlertsPanel::setHostFilter(std::optional<std::uint32_t> host)
{
    m_filter.host = host;
    m_places->showChoice(m_filter.host, m_filter.device);
    m_focusFirstOfKind = host.has_value();
    refilter();
}

void AlertsPanel::setDeviceFilter(std::optional<std::string> device)
{
    m_filter.device = std::move(device);
    m_places->showChoice(m_filter.host, m_filter.device);
    m_focusFirstOfKind = m_filter.device.has_value();
    refilter();
}

void AlertsPanel::setTextFilter(const QString& text)
{
    m_text->setText(text); // refilters
}

void AlertsPanel::refilter()
{
    m_filterRows.clear();
    if (!filtering())
        m_focusFirstOfKind = false;
    requestRows();
}

void AlertsPanel::updateChipStates()
{
    m_total->setChecked(m_kindFilter == KindFilter::All);
    m_nan->setChecked(m_kindFilter == KindFilter::NaN);
    m_negInf->setChecked(m_kindFilter == KindFilter::NegativeInfinity);
    m_posInf->setChecked(m_kindFilter == KindFilter::PositiveInfinity);
}

void AlertsPanel::requestRows()
{
    if (!filtering() && !sorted()) {
        m_filtered->showAll();
        return;
    }
    const int column = sorted() ? m_sortColumn : -1;
    const bool hide = hidingSetAside();
    m_filtered->scan(
        [filter = m_filter, column, order = m_sortOrder, hide](const core::Snapshot& s,
                                                               std::uint64_t, std::uint64_t end,
                                                               const std::atomic_bool& stop) {
            const auto rows = static_cast<int>(end); // the model's, which may trail the snapshot
            FilteredRows::Rows shown;
            // The propagation only of a finished read (as the analysis): a partial one would be
            // worked out again for every step of a load.
            const bool needed = hide || column == items::AlertModel::StatusColumn;
            const core::Propagation* p = needed && s.complete() ? &s.propagation() : nullptr;
            if (filter.active()) {
                shown.matching = core::matchingAlerts(s, filter, end, &stop);
            } else if (hide) {
                shown.matching.resize(static_cast<std::size_t>(rows));
                std::iota(shown.matching.begin(), shown.matching.end(), 0);
            }
            if (hide && p)
                std::erase_if(shown.matching, [&](int k) {
                    return core::alertSetAside(s, *p, static_cast<std::uint64_t>(k));
                });
            if (filter.active() || hide) {
                shown.rows = shown.matching;
            } else {
                shown.rows.resize(static_cast<std::size_t>(rows));
                std::iota(shown.rows.begin(), shown.rows.end(), 0);
            }
            if (column < 0)
                return shown;
            auto ordered =
                items::AlertModel::sortRows(s, std::move(shown.rows), column, order, stop, p);
            if (!ordered)
                return FilteredRows::Rows{}; // stopped: never shown
            shown.rows = std::move(*ordered);
            shown.positions = RowListProxyModel::positionsOf(shown.rows, rows);
            shown.ordered = true;
            return shown;
        },
        false);
}

// The rows as the filters and the sort leave them (m_filterRows), or every row: the focused
// alert in them, or the first of the kind the user just chose.
void AlertsPanel::showRows()
{
    focusChanged(navigator()->focus());
    const auto& snapshot = m_model->snapshot();
    if (!m_focusFirstOfKind || !snapshot || (!filtering() && !sorted()))
        return;
    m_focusFirstOfKind = false;
    // The first alert of the kind in execution order.
    for (const std::uint64_t k : snapshot->alertsByWallTime()) {
        if (k < static_cast<std::uint64_t>(m_model->rowCount()) &&
            passesFilter(static_cast<int>(k))) {
            const QModelIndex shownAlert = shownIndex(static_cast<int>(k));
            if (shownAlert.isValid())
                activateRow(shownAlert.row());
            return;
        }
    }
}

} // namespace nanscope::views
