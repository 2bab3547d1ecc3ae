// SPDX-License-Identifier: GPL-3.0-or-later
// Executions' widgets, what their signals do, the filters' choices and the column widths.
#include "filteredrows.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/optypetext.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/columnfit.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "placefilters.hpp"
#include "tablesearch.hpp"
#include "viewhelpers.hpp"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <algorithm>

namespace nanscope::views {

using items::fromStd;

namespace {

using Model = items::ExecutionModel;

// A choice's text: its name, and how many of its executions were non-finite when any were.
QString choiceText(const QString& name, const items::ExecutionChoice& choice)
{
    return choice.nonFinite
               ? ExecutionsPanel::tr("%1 — %L2 non-finite").arg(name).arg(choice.nonFinite)
               : name;
}

QString choiceToolTip(const QString& name, const items::ExecutionChoice& choice)
{
    return ExecutionsPanel::tr("%1: %L2 executions, %L3 non-finite")
        .arg(name)
        .arg(choice.executions)
        .arg(choice.nonFinite);
}

} // namespace

// The filters on the left of the tool row; the status and "Go to #" on its right.
QWidget* ExecutionsPanel::buildControls()
{
    m_nonFinite = new QCheckBox(tr("Non-finite only"), this);
    m_nonFinite->setToolTip(tr("Show only executions with an output that holds NaN or ±∞"));
    // The boxes keep one width: a PyTorch run's op types and module paths are long, and boxes
    // as wide as them made the window wider than a 1280-pixel screen. Their lists show whole.
    m_opType = new QComboBox(this);
    m_opType->setToolTip(tr("Show only executions of one op type"));
    m_module = new QComboBox(this);
    m_module->setToolTip(tr("Show only the executions of one module and the modules in it"));
    for (QComboBox* box : {m_opType, m_module}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    m_host = placeChoiceBox(tr("List the executions of another host (rank): the logdir is read "
                               "again with it as the main host"),
                            this);
    connect(m_host, &QComboBox::activated, this, [this](int index) {
        if (index > 0) // 0: the host read now
            Q_EMIT hostRequested(m_host->itemText(index));
    });
    m_status->setToolTip(tr("Rows in yellow made the focused execution's inputs (producers); rows "
                            "in blue read its outputs (consumers)."));
    // The host box goes with the trailing tools, which take a line of their own in a narrow
    // panel: beside the op type and module boxes it made a two-rank PyTorch run's window 1358
    // pixels wide at least.
    auto* tools = new widgets::ToolRow(this);
    tools->leading()->setSpacing(6);
    tools->leading()->addWidget(m_nonFinite);
    tools->leading()->addWidget(m_opType);
    tools->leading()->addWidget(m_module);
    tools->trailing()->setSpacing(6);
    tools->trailing()->addWidget(m_host);
    tools->trailing()->addWidget(m_status);
    tools->trailing()->addWidget(m_search->goToField());
    return tools;
}

// The table: delegates by column, what shows first, widths until rows arrive.
void ExecutionsPanel::buildTable()
{
    createTable(m_model, Model::HealthColumn, Model::NegInfCountRole);
    // Module paths keep their last part ("…fc1.act"); numbers are never cut.
    m_view->setItemDelegateForColumn(Model::ModuleColumn, new widgets::ScopeNameDelegate(m_view));
    for (const int column : {int(Model::IndexColumn), int(Model::OutputsColumn),
                             int(Model::ElementsColumn), int(Model::TimeColumn)})
        m_view->setItemDelegateForColumn(column, new widgets::NumberDelegate(m_view));
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const int widths[] = {digit * 5 + 8, digit * 14, digit * 16, digit * 18,
                          digit * 7,     digit * 9,  digit * 9,  digit * 9};
    static_assert(std::size(widths) == Model::ColumnCount);
    for (int column = 0; column < Model::ColumnCount; ++column)
        m_view->setColumnWidth(column, widths[column]);
    m_view->hideColumn(Model::OutputsColumn); // one output per op, nearly always
    // What a row is and whether it is healthy first; where it ran and the details after.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(Model::HealthColumn),
                        header->visualIndex(Model::ModuleColumn));
    // Sorted only when asked: the run's order costs nothing.
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(Model::IndexColumn, Qt::AscendingOrder);
    m_columns = new widgets::FittedColumns(
        m_view, [this](bool growOnly) { fitColumns(growOnly); }, this);
    m_rows = new FilteredRows(
        m_model, m_proxy,
        [this](FilteredRows::Change change, FilteredRows::Rows&) {
            if (change != FilteredRows::Change::Appended)
                showFocus();
            updateStatus();
        },
        this);
}

void ExecutionsPanel::connectTable()
{
    QHeaderView* header = m_view->horizontalHeader();
    connect(header, &QHeaderView::sortIndicatorChanged, this, &ExecutionsPanel::sortBy);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentRowChanged(current); });
    connect(m_proxy, &RowListProxyModel::sourceRowsAppended, this,
            &ExecutionsPanel::requestChoices);
    // The health counts arrive with the records, after the rows: the columns widen for them,
    // and never narrow while the user scrolls.
    connect(m_model, &QAbstractItemModel::dataChanged, m_columns, [this] { m_columns->fit(true); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        updateStatus();
        requestChoices();
        m_columns->fit();
        // The focused row may only now be revealed (a long load, a filter).
        const Focus& focus = this->navigator()->focus();
        if (focus.event && focus.event->source == core::EventSource::Eager &&
            !m_view->currentIndex().isValid())
            showFocus();
    });
}

void ExecutionsPanel::connectControls()
{
    connect(m_nonFinite, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updatingChoices)
            return;
        m_filter.nonFiniteOnly = on;
        requestRows();
    });
    connect(m_opType, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        m_filter.opType = m_opType->currentData().toString().toStdString();
        requestRows();
    });
    connect(m_module, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        const QVariant choice = m_module->currentData();
        m_filter.module = choice.isValid()
                              ? std::optional<std::string>(choice.toString().toStdString())
                              : std::nullopt;
        requestRows();
    });
    m_search->connectTo(
        m_view, [this](const QString& text, bool backward) { find(text, backward); },
        [this](quint64 index) { return goToIndex(index); });
}

void ExecutionsPanel::showChoices(items::ExecutionChoices choices)
{
    m_choices = std::move(choices);
    m_updatingChoices = true;
    m_opType->clear();
    m_opType->addItem(tr("All op types"), QString());
    for (const items::ExecutionChoice& type : m_choices.opTypes) {
        const QString full = fromStd(type.name);
        m_opType->addItem(choiceText(items::opTypeText(full), type), full);
        m_opType->setItemData(m_opType->count() - 1, choiceToolTip(full, type), Qt::ToolTipRole);
    }
    // The modules as a tree: each under its parent, indented, by its own name.
    m_module->clear();
    m_module->addItem(tr("All modules"));
    if (m_choices.outsideModules > 0 && !m_choices.modules.empty())
        m_module->addItem(tr("(outside every module)"), QString());
    for (const items::ExecutionChoice& module : m_choices.modules) {
        const QString path = fromStd(module.name);
        const qsizetype depth = path.count(QLatin1Char('.'));
        const QString name = path.mid(path.lastIndexOf(QLatin1Char('.')) + 1);
        m_module->addItem(QString(depth * 3, QLatin1Char(' ')) + choiceText(name, module), path);
        m_module->setItemData(m_module->count() - 1, choiceToolTip(path, module), Qt::ToolTipRole);
    }
    for (QComboBox* box : {m_opType, m_module})
        box->view()->setMinimumWidth(box->view()->sizeHintForColumn(0) + 24);
    // A run without modules (TensorFlow's) has nothing to choose.
    m_module->setVisible(!m_choices.modules.empty());
    m_opType->setVisible(!m_choices.opTypes.empty());
    showFilterInControls();
    m_updatingChoices = false;
    requestChoices(); // executions read while these were counted
}

void ExecutionsPanel::showFilterInControls()
{
    m_nonFinite->setChecked(m_filter.nonFiniteOnly);
    const int type = m_filter.opType.empty() ? 0 : m_opType->findData(fromStd(m_filter.opType));
    m_opType->setCurrentIndex(std::max(type, 0));
    const int module = m_filter.module ? m_module->findData(fromStd(*m_filter.module)) : 0;
    m_module->setCurrentIndex(std::max(module, 0));
}

// The hosts of the run, the one read now first, each with its executions.
void ExecutionsPanel::showHosts(const items::SnapshotPtr& snapshot)
{
    m_host->clear();
    const std::size_t hosts = snapshot ? snapshot->layout().fileSets.size() : 0;
    for (std::size_t h = 0; h < hosts; ++h) {
        const QString name = fromStd(snapshot->layout().fileSets[h].hostName);
        const std::uint64_t executions =
            h == 0 ? snapshot->executionCount() : snapshot->hostExecutionCount(h);
        m_host->addItem(name);
        m_host->setItemData(static_cast<int>(h), tr("%1: %L2 executions").arg(name).arg(executions),
                            Qt::ToolTipRole);
    }
    m_host->setVisible(hosts > 1);
}

void ExecutionsPanel::fitColumns(bool growOnly)
{
    const int margin = widgets::PlainTextDelegate::textMargins(m_view);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(Model::IndexColumn,
                           widgets::rowNumberWidth(m_view, m_model->rowCount() - 1, margin));
    // The op type is what tells eager rows apart: whole, up to a third of the pane. Measured on
    // the rows on screen only, which are read for painting anyway.
    const widgets::RowSpan rows = widgets::rowsOnScreen(m_view);
    const int third = m_view->viewport()->width() / 3;
    const auto fit = [&](int column, int least, int most) {
        int width =
            std::clamp(widgets::contentWidth(m_view, column, rows), least, std::max(least, most));
        if (growOnly)
            width = std::max(width, m_view->columnWidth(column));
        m_view->setColumnWidth(column, width);
    };
    // In a pane as narrow as a third of a 1280-pixel window, the health bar keeps its first
    // count ("107 −∞ …", the rest in its tooltip) so that the dtype stays in sight.
    const bool narrow = m_view->viewport()->width() < digit * 72;
    fit(Model::OpTypeColumn, digit * 10, third);
    fit(Model::HealthColumn, digit * (narrow ? 12 : 18), narrow ? digit * 16 : third);
    fit(Model::ModuleColumn, digit * (narrow ? 6 : 10), third);
}

void ExecutionsPanel::resizeEvent(QResizeEvent* event)
{
    Panel::resizeEvent(event);
    m_columns->fit();
}

} // namespace nanscope::views
