// SPDX-License-Identifier: GPL-3.0-or-later
// Graph Execution's widgets and what their signals do.
#include "filteredrows.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "placefilters.hpp"
#include "tablesearch.hpp"
#include "viewhelpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>

namespace nanscope::views {

namespace {

using Model = items::GraphExecutionModel;

} // namespace

// The filters on the left of the tool row; the host and device filters, the status and "Go to #"
// on its right.
widgets::ToolRow* GraphExecutionPanel::buildControls()
{
    m_nonFinite = new QCheckBox(tr("Non-finite only"), this);
    m_nonFinite->setToolTip(tr("Show only tensors that hold NaN or ±∞"));
    m_graph = new QComboBox(this);
    m_graph->setToolTip(tr("Show only the ops of one graph"));
    m_graph->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_opType = new QComboBox(this);
    m_opType->setToolTip(tr("Show only ops of one type"));
    m_opType->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_places = new PlaceFilters(tr("Show only the traces one host recorded"),
                                tr("Show only the traces of ops that ran on one device"), this);
    auto* tools = new widgets::ToolRow(this);
    tools->leading()->setSpacing(6);
    tools->leading()->addWidget(m_nonFinite);
    tools->leading()->addWidget(m_graph);
    tools->leading()->addWidget(m_opType);
    tools->trailing()->setSpacing(6);
    // With the status and Go to, which move to a line of their own when the pane is narrow: on
    // the filters' line, a run of several hosts and devices made the pane wider than a 1280-pixel
    // window has room for.
    tools->trailing()->addWidget(m_places->hostBox());
    tools->trailing()->addWidget(m_places->deviceBox());
    tools->trailing()->addWidget(m_status);
    tools->trailing()->addWidget(m_search->goToField());

    return tools;
}

// The table: delegates by column, widths until rows arrive, key columns first.
void GraphExecutionPanel::buildTable()
{
    createTable(m_model, Model::HealthColumn, Model::NegInfCountRole);
    // Long tensor names keep their op ("model/…/dense/MatMul:0"); numbers are never cut.
    m_view->setItemDelegateForColumn(Model::TensorColumn, new widgets::ScopeNameDelegate(m_view));
    for (const int column : {int(Model::IndexColumn), int(Model::ShapeColumn)})
        m_view->setItemDelegateForColumn(column, new widgets::NumberDelegate(m_view));
    // Until rows arrive; then fitKeyColumns sizes the key columns by what they show.
    for (int column = 0; column < Model::ColumnCount; ++column)
        m_view->setColumnWidth(column, initialWidth(column));
    // Devices elide to their last part ("…/device:GPU:0"); hosts show once there are several.
    m_view->setItemDelegateForColumn(Model::DeviceColumn,
                                     new widgets::PlainTextDelegate(Qt::ElideLeft, m_view));
    m_view->hideColumn(Model::HostColumn);
    m_view->hideColumn(Model::DeviceColumn);
    // What a row is and whether it is healthy first; the details after.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(Model::HealthColumn),
                        header->visualIndex(Model::OpTypeColumn));
    header->moveSection(header->visualIndex(Model::GraphColumn), Model::ColumnCount - 1);
    // Only a drag on a key column's edge is the user's sizing.
    m_columns = new widgets::FittedColumns(
        m_view, [this](bool) { fitKeyColumns(); }, this);
    m_columns->setUserSizedColumns(keyColumns());
    m_rows = new FilteredRows(
        m_model, m_proxy,
        [this](FilteredRows::Change change, FilteredRows::Rows&) {
            if (change != FilteredRows::Change::Appended)
                showFocus(true);
            if (change == FilteredRows::Change::Rows)
                updateInputs();
            updateStatus();
        },
        this);
}

void GraphExecutionPanel::connectTable()
{
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentRowChanged(current); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        updateStatus();
        // Fitted once rows arrive, and again when the row numbers grow a digit.
        if (!m_columns->fitted() || QString::number(m_model->rowCount()).size() != m_fittedDigits)
            m_columns->fit();
        // The focused row may only now be revealed (a reload, a long load, a filter).
        const Focus& focus = this->navigator()->focus();
        if (focus.event && focus.event->source == core::EventSource::Graph &&
            !m_view->currentIndex().isValid())
            showFocus(true);
    });
}

void GraphExecutionPanel::connectControls()
{
    connect(m_nonFinite, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updatingChoices)
            return;
        m_filter.nonFiniteOnly = on;
        applyFilter();
    });
    connect(m_graph, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        const int graph = m_graph->currentData().toInt();
        m_filter.graph =
            graph < 0 ? std::nullopt
                      : std::optional<core::GraphIndex>(static_cast<core::GraphIndex>(graph));
        applyFilter();
    });
    connect(m_places, &PlaceFilters::hostChosen, this, [this](std::optional<std::uint32_t> host) {
        if (m_updatingChoices)
            return;
        m_filter.host = host;
        applyFilter();
    });
    connect(m_places, &PlaceFilters::deviceChosen, this, [this](std::optional<std::string> device) {
        if (m_updatingChoices)
            return;
        m_filter.device = std::move(device);
        applyFilter();
    });
    connect(m_opType, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        m_filter.opType =
            m_opType->currentIndex() <= 0 ? std::string() : m_opType->currentText().toStdString();
        applyFilter();
    });
    m_search->connectTo(
        m_view, [this](const QString& text, bool backward) { find(text, backward); },
        [this](quint64 index) { return goToIndex(index); });
}

} // namespace nanscope::views
