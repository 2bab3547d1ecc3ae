// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel's parts: the header's badges and filters, the list and how its columns fit.
#include "alertspanelprivate.hpp"
#include "filteredrows.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/chiplabel.hpp"
#include "nanscope/widgets/columnfit.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "originbox.hpp"
#include "placefilters.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QToolButton>
#include <algorithm>

namespace nanscope::views {

// The badges on the left (the alert type with its count, then which non-finite values the
// alerts hold); the set-aside toggle, the host, device and text filters on the right, or below
// them when the panel is narrow.
widgets::ToolRow* AlertsPanel::buildHeader()
{
    auto* tools = new widgets::ToolRow(this);
    buildBadges(tools->leading());
    buildFilters(tools->trailing());
    return tools;
}

void AlertsPanel::buildBadges(QHBoxLayout* chips)
{
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
    chips->addWidget(m_total);
    chips->addSpacing(6);
    chips->addWidget(m_nan);
    chips->addWidget(m_negInf);
    chips->addWidget(m_posInf);
}

void AlertsPanel::buildFilters(QHBoxLayout* filters)
{
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
    // With the filters, which wrap to a line of their own when the panel is narrow: the badges'
    // line keeps the panel's least width.
    filters->addWidget(m_setAsideToggle);
    m_places = new PlaceFilters(tr("List only the alerts of one host"),
                                tr("List only the alerts of one device"), this);
    filters->addWidget(m_places->hostBox());
    filters->addWidget(m_places->deviceBox());
    connect(m_places, &PlaceFilters::hostChosen, this, &AlertsPanel::setHostFilter);
    connect(m_places, &PlaceFilters::deviceChosen, this, &AlertsPanel::setDeviceFilter);
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
}

void AlertsPanel::buildTable()
{
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

    // In an eager-only run (fitColumns) the columns follow the rows; the user's widths do not
    // stop that.
    m_columns = new widgets::FittedColumns(
        m_view, [this](bool) { fitColumns(); }, this);
    m_columns->setUserSizedColumns({});
    m_filtered = new FilteredRows(
        m_model, m_rows,
        [this](FilteredRows::Change change, FilteredRows::Rows& rows) {
            if (change != FilteredRows::Change::All)
                m_filterRows = std::move(rows.matching);
            showRows();
        },
        this);
}

void AlertsPanel::connectParts()
{
    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex& index) { activateRow(index.row()); });
    connect(m_originBox, &OriginBox::goToOriginClicked, this, &AlertsPanel::goToOrigin);
    // The focused alert may be in a batch of rows revealed only now.
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_view->currentIndex().isValid())
            focusChanged(this->navigator()->focus());
        m_columns->fit();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &AlertsPanel::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &AlertsPanel::updateEmptyState);
}

void AlertsPanel::fitColumns()
{
    // In a run of eager ops (PyTorch's) the op type is what tells the rows apart, so it shows
    // whole, up to half the pane, and the counts as wide as their numbers ("41,500" NaN in a
    // batch); Graph Execution is empty there and gives the room. A graph run keeps the widths
    // set at the start: its op names take the room, and Graph Execution's key columns keep
    // theirs.
    const auto& snapshot = m_model->snapshot();
    if (!snapshot || snapshot->traceCount() > 0)
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

} // namespace nanscope::views
