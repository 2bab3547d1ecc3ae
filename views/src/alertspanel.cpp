// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel: its header, list and origin box, the analysis it shows, next/previous, focus.
#include "nanscope/views/alertspanel.hpp"

#include "alertspanelprivate.hpp"
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

    // Header: the alert type with its count, then which non-finite values the alerts hold.
    m_total = new widgets::ChipLabel(this);
    m_total->setToolTip(tr("Alerts: tensors that hold NaN or ±∞ (TensorBoard's InfNanAlert), "
                           "with no cap on their number. Click to list them all."));
    m_nan = new widgets::ChipLabel(this);
    m_nan->setToolTip(tr("Alerts whose tensor holds NaN. Click to list only them."));
    m_negInf = new widgets::ChipLabel(this);
    m_negInf->setToolTip(tr("Alerts whose tensor holds −∞. Click to list only them."));
    m_posInf = new widgets::ChipLabel(this);
    m_posInf->setToolTip(tr("Alerts whose tensor holds +∞. Click to list only them."));
    const std::pair<widgets::ChipLabel*, KindFilter> badges[] = {
        {m_total, KindFilter::All},
        {m_nan, KindFilter::NaN},
        {m_negInf, KindFilter::NegativeInfinity},
        {m_posInf, KindFilter::PositiveInfinity}};
    for (const auto& [chip, kind] : badges) {
        chip->setCheckable(true);
        // A second click on a kind's badge lists every alert again.
        connect(chip, &widgets::ChipLabel::toggled, this, [this, kind = kind](bool checked) {
            setKindFilter(checked ? kind : KindFilter::All);
        });
    }
    m_total->setChecked(true);
    // The badges on the left, the host, device and text filters on the right (or below them
    // when the panel is narrow).
    auto* tools = new widgets::ToolRow(this);
    QHBoxLayout* chips = tools->leading();
    chips->addWidget(m_total);
    chips->addSpacing(6);
    chips->addWidget(m_nan);
    chips->addWidget(m_negInf);
    chips->addWidget(m_posInf);
    // Alerts set aside (an attention mask's −∞, uninitialised memory) are hidden by default:
    // they are not the bug, and listing them first would send the user the wrong way.
    m_setAsideToggle = new QToolButton(this);
    m_setAsideToggle->setCheckable(true);
    m_setAsideToggle->setAutoRaise(true);
    m_setAsideToggle->setToolTip(
        tr("Alerts whose non-finite values the program made on purpose (a mask's −∞, what "
           "softmax turns into zeros), or an uninitialised tensor's bits, and those you treat "
           "as expected. They are not counted and never the origin. Check to list them, "
           "dimmed."));
    m_setAsideToggle->hide();
    connect(m_setAsideToggle, &QToolButton::toggled, this, &AlertsPanel::setShowSetAside);
    QHBoxLayout* filters = tools->trailing();
    // With the filters, which wrap to a line of their own when the panel is narrow: the badges'
    // line keeps the panel's least width.
    filters->addWidget(m_setAsideToggle);
    m_host = placeChoiceBox(tr("List only the alerts of one host"), this);
    filters->addWidget(m_host);
    connect(m_host, &QComboBox::currentIndexChanged, this,
            [this] { setHostFilter(chosenHost(m_host)); });
    m_device = placeChoiceBox(tr("List only the alerts of one device"), this);
    filters->addWidget(m_device);
    connect(m_device, &QComboBox::currentIndexChanged, this,
            [this] { setDeviceFilter(chosenDevice(m_device)); });
    m_text = new QLineEdit(this);
    m_text->setPlaceholderText(tr("Filter by op"));
    m_text->setToolTip(tr("List only the alerts whose op's name or type holds this text"));
    m_text->setClearButtonEnabled(true);
    m_text->setMaximumWidth(m_text->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 18);
    // Its placeholder whole, with the frame and the clear button's room: beside the host and
    // device boxes it was squeezed to "Fi…".
    m_text->setMinimumWidth(m_text->fontMetrics().horizontalAdvance(m_text->placeholderText()) +
                            40);
    filters->addWidget(m_text);
    connect(m_text, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter.text = text.trimmed().toStdString();
        refilter();
    });

    // The origin: where the first non-finite value was made, why, and what fixes it.
    m_originBox = new OriginBox(this);
    m_originBox->hide();

    m_view = new widgets::CopyableTableView(this);
    m_view->setModel(m_rows);
    m_view->setColumnsMenuEnabled(true);
    // Op names keep their last scope ("gradient_tape/…/mul"); numbers are never cut.
    m_view->setItemDelegateForColumn(items::AlertModel::OpNameColumn,
                                     new widgets::ScopeNameDelegate(m_view));
    for (const int column :
         {int(items::AlertModel::IndexColumn), int(items::AlertModel::SizeColumn),
          int(items::AlertModel::NegInfColumn), int(items::AlertModel::PosInfColumn),
          int(items::AlertModel::NanColumn)})
        m_view->setItemDelegateForColumn(column, new widgets::NumberDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &AlertsPanel::showContextMenu);
    QHeaderView* header = m_view->horizontalHeader();
    // Sorted only when asked: the list's own order (TensorBoard's) costs nothing, where a sort
    // by "#" would sort every alert again for each snapshot of a load.
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(items::AlertModel::IndexColumn, Qt::AscendingOrder);
    connect(header, &QHeaderView::sortIndicatorChanged, this, &AlertsPanel::sortBy);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(items::AlertModel::OpNameColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(items::AlertModel::OpTypeColumn, QHeaderView::Interactive);
    // The status column shows only with the set-aside alerts (updateSetAsideToggle).
    for (const int column :
         {int(items::AlertModel::EventColumn), int(items::AlertModel::SlotColumn),
          int(items::AlertModel::SizeColumn), int(items::AlertModel::StatusColumn)})
        m_view->hideColumn(column);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(items::AlertModel::IndexColumn, digit * 5 + 12);
    m_view->setColumnWidth(items::AlertModel::OpTypeColumn, digit * 11);
    for (const int column :
         {int(items::AlertModel::NegInfColumn), int(items::AlertModel::PosInfColumn),
          int(items::AlertModel::NanColumn)})
        m_view->setColumnWidth(column, digit * 5 + 6); // then as wide as the rows need
    m_view->setColumnWidth(items::AlertModel::StatusColumn, digit * 14);
    // The op before its type, and NaN first among the counts, as in the header's chips.
    header->moveSection(header->visualIndex(items::AlertModel::OpNameColumn),
                        header->visualIndex(items::AlertModel::OpTypeColumn));
    header->moveSection(header->visualIndex(items::AlertModel::NanColumn),
                        header->visualIndex(items::AlertModel::NegInfColumn));

    m_empty = emptyStateLabel(tr("No NaN or ∞ in this logdir."), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);
    layout->addWidget(tools);
    layout->addWidget(m_originBox);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);

    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(m_originBox, &OriginBox::goToOriginClicked, this, &AlertsPanel::goToOrigin);
    // The focused alert may be in a batch of rows revealed only now.
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_view->currentIndex().isValid())
            focusChanged(this->navigator()->focus());
        fitColumns();
    });
    // A rebuilt or longer list is filtered and sorted again.
    connect(m_rows, &RowListProxyModel::sourceReset, this, &AlertsPanel::requestRows);
    connect(m_rows, &RowListProxyModel::sourceRowsAppended, this, &AlertsPanel::requestRows);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AlertsPanel::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &AlertsPanel::updateEmptyState);
    snapshotChanged(nullptr);
}

AlertsPanel::~AlertsPanel() = default;

void AlertsPanel::fitColumns()
{
    // In a run of eager ops (PyTorch's) the op type is what tells the rows apart, so it shows
    // whole, up to half the pane, and the counts as wide as their numbers ("41,500" NaN in a
    // batch); Graph Execution is empty there and gives the room. A graph run keeps the widths
    // set at the start: its op names take the room, and Graph Execution's key columns keep
    // theirs.
    const auto& snapshot = m_model->snapshot();
    if (!snapshot || snapshot->traceCount() > 0 || m_rows->rowCount() == 0)
        return;
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const widgets::RowSpan rows = widgets::rowsOnScreen(m_view);
    for (const int column :
         {int(items::AlertModel::NegInfColumn), int(items::AlertModel::PosInfColumn),
          int(items::AlertModel::NanColumn)})
        m_view->setColumnWidth(
            column, std::max(digit * 5 + 6, widgets::contentWidth(m_view, column, rows, false)));
    const int type = digit * 11;
    m_view->setColumnWidth(
        items::AlertModel::OpTypeColumn,
        std::clamp(widgets::contentWidth(m_view, items::AlertModel::OpTypeColumn, rows), type,
                   std::max(type, m_view->viewport()->width() / 2)));
}

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
    if (!sameLogdir) {
        m_view->scrollToTop();
        m_kindFilter = KindFilter::All;
        m_filter = {};
        {
            const QSignalBlocker quiet(m_text);
            m_text->clear();
        }
        m_filterRows.clear();
        m_jobs->rows.cancel();
        updateChipStates();
        // The hosts of this logdir, to choose among when there are several.
        const QSignalBlocker quiet(m_host);
        const QSignalBlocker quietDevices(m_device);
        const std::size_t hosts = fillPlaceChoices(m_host, Place::Host, snapshot);
        m_view->setColumnHidden(items::AlertModel::HostColumn, hosts <= 1);
        if (hosts > 1)
            fitColumnToChoices(m_view, items::AlertModel::HostColumn, m_host);
        updateListMinimumWidth();
        fillPlaceChoices(m_device, Place::Device, snapshot);
        m_hasOrigin = false;
        m_setAsideAlerts = 0;
        m_setAsideEvents = 0;
        updateSetAsideToggle();
        m_originBox->hide();
        for (widgets::ChipLabel* chip : {m_nan, m_negInf, m_posInf})
            chip->hide();
        Q_EMIT originChanged(false);
        // The model's reset asked for rows under the old filter, and that job is cancelled:
        // every alert of the new logdir, in the order the header shows.
        requestRows();
    }
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
                namespace h = core::health;
                for (std::uint64_t k = 0; k < s.alertCount(); ++k) {
                    if (alertspanel::setAside(s, p, k)) {
                        ++a.setAsideAlerts;
                        continue;
                    }
                    ++a.alerts;
                    const core::EventRef event = s.alert(k).event;
                    const core::HealthDigest health = event.source == core::EventSource::Graph
                                                          ? s.trace(event.index).health
                                                          : s.execution(event.index).health;
                    a.nan += health.has(h::NaN) ? 1 : 0;
                    a.negInf += health.has(h::NegInf) ? 1 : 0;
                    a.posInf += health.has(h::PosInf) ? 1 : 0;
                    a.kindsKnown = a.kindsKnown || health.has(h::NaN | h::NegInf | h::PosInf);
                }
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

void AlertsPanel::showAnalysis(const Analysis& a)
{
    m_model->setPropagationKnown(a.snapshot);
    const bool hidingBefore = hidingSetAside();
    m_setAsideAlerts = a.setAsideAlerts;
    m_setAsideEvents = a.setAsideEvents;
    updateSetAsideToggle();
    // The list hides the set-aside alerts only now that they are known.
    if (hidingSetAside() || hidingBefore)
        refilter();
    setWindowTitle(a.alerts ? tr("Alerts (%L1)").arg(a.alerts) : tr("Alerts"));
    m_total->setText(tr("NaN/∞  %L1").arg(a.alerts));
    m_total->setColor(a.alerts ? healthstyle::nan() : QColor());
    const auto chip = [](widgets::ChipLabel* label, const QString& symbol, quint64 count,
                         const QColor& color, bool known) {
        label->setText(symbol + QStringLiteral("  ") + QLocale().toString(count));
        label->setColor(count ? color : QColor());
        label->setVisible(known);
    };
    chip(m_nan, QStringLiteral("NaN"), a.nan, healthstyle::nan(), a.kindsKnown);
    chip(m_negInf, QStringLiteral("−∞"), a.negInf, healthstyle::negativeInfinity(), a.kindsKnown);
    chip(m_posInf, QStringLiteral("+∞"), a.posInf, healthstyle::positiveInfinity(), a.kindsKnown);

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
    return !m_jobs->analysis.idle() || !m_jobs->rows.idle() || !m_rows->allRowsShown();
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
