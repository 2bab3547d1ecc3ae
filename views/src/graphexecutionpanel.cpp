// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/graphexecutionpanel.hpp"

#include "healthstyle.hpp"
#include "nanscope/core/inputtraces.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "snapshotjob.hpp"
#include "viewhelpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpressionValidator>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace nanscope::views {

using items::fromStd;

namespace {

using Model = items::GraphExecutionModel;

} // namespace

struct GraphExecutionPanel::FilterResult
{
    quint64 generation = 0;
    std::uint64_t end = 0;
    std::vector<int> rows;
    bool append = false;
};

class GraphExecutionPanel::Jobs
{
public:
    struct FindResult
    {
        std::optional<std::uint64_t> trace;
        core::MatchPosition position;
    };

    explicit Jobs(GraphExecutionPanel* panel)
        : filter([panel](FilterResult result) { panel->showFilterResult(std::move(result)); }),
          find([panel](FindResult result) {
              panel->m_findBar->setMatch(result.position.ordinal,
                                         result.trace ? result.position.total : 0);
              if (result.trace)
                  panel->navigator()->focusTrace(*result.trace);
          }),
          callTraces([panel](std::vector<std::uint64_t> traces) {
              panel->showCallTraces(std::move(traces));
          })
    {}

    SnapshotJob<FilterResult> filter;
    SnapshotJob<FindResult> find;
    SnapshotJob<std::vector<std::uint64_t>> callTraces; // of the focused tf.function call
};

GraphExecutionPanel::GraphExecutionPanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent), m_jobs(std::make_unique<Jobs>(this))
{
    setWindowTitle(tr("Graph Execution"));
    m_model = new Model(this);
    m_proxy = new RowListProxyModel(this);
    m_proxy->setSourceModel(m_model);

    m_nonFinite = new QCheckBox(tr("Non-finite only"), this);
    m_nonFinite->setToolTip(tr("Show only tensors that hold NaN or ±∞"));
    m_graph = new QComboBox(this);
    m_graph->setToolTip(tr("Show only the ops of one graph"));
    m_graph->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_opType = new QComboBox(this);
    m_opType->setToolTip(tr("Show only ops of one type"));
    m_opType->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_host = new QComboBox(this);
    m_host->setToolTip(tr("Show only the traces one host recorded"));
    m_host->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_host->hide();
    m_device = new QComboBox(this);
    m_device->setToolTip(tr("Show only the traces of ops that ran on one device"));
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_device->hide();
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_goTo = new QLineEdit(this);
    m_goTo->setPlaceholderText(tr("Go to #"));
    m_goTo->setToolTip(tr("Go to a trace by its index (Ctrl+G)"));
    m_goTo->setClearButtonEnabled(true);
    m_goTo->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9,. ]*")), m_goTo));
    m_goTo->setMaximumWidth(m_goTo->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
    auto* tools = new widgets::ToolRow(this);
    tools->leading()->setSpacing(6);
    tools->leading()->addWidget(m_nonFinite);
    tools->leading()->addWidget(m_graph);
    tools->leading()->addWidget(m_opType);
    tools->leading()->addWidget(m_host);
    tools->leading()->addWidget(m_device);
    tools->trailing()->setSpacing(6);
    tools->trailing()->addWidget(m_status);
    tools->trailing()->addWidget(m_goTo);

    m_view = new widgets::CopyableTableView(this);
    m_view->setModel(m_proxy);
    m_view->setColumnsMenuEnabled(true);
    // Long tensor names keep their op ("model/…/dense/MatMul:0"); numbers are never cut.
    m_view->setItemDelegateForColumn(Model::TensorColumn, new widgets::ScopeNameDelegate(m_view));
    for (const int column : {int(Model::IndexColumn), int(Model::ShapeColumn)})
        m_view->setItemDelegateForColumn(column, new widgets::NumberDelegate(m_view));
    m_healthDelegate = new widgets::HealthBarDelegate(healthstyle::graphExecutionSegments(), this);
    m_view->setItemDelegateForColumn(Model::HealthColumn, m_healthDelegate);
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

    m_findBar = new widgets::FindBar(this);
    m_findBar->setPlaceholderText(tr("Find an op by name or type"));
    m_findBar->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_findBar);

    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column, int, int size) {
                // A drag on a key column's edge. Hiding or showing columns is not one, nor is
                // the header stretching its last section to a new width of the table.
                if (!m_fittingColumns && size > 0 && keyColumns().contains(column) &&
                    QGuiApplication::mouseButtons() != Qt::NoButton)
                    m_userSizedColumns = true;
            });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentRowChanged(current); });
    connect(m_proxy, &RowListProxyModel::sourceRowsAppended, this,
            &GraphExecutionPanel::extendFilter);
    connect(m_proxy, &RowListProxyModel::sourceReset, this, &GraphExecutionPanel::applyFilter);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        updateStatus();
        // Fitted once rows arrive, and again when the row numbers grow a digit.
        if (!m_columnsFitted || QString::number(m_model->rowCount()).size() != m_fittedDigits)
            fitKeyColumns();
        // The focused row may only now be revealed (a reload, a long load, a filter).
        const Focus& focus = this->navigator()->focus();
        if (focus.event && focus.event->source == core::EventSource::Graph &&
            !m_view->currentIndex().isValid())
            showFocus(true);
    });
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
    connect(m_host, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        m_filter.host = chosenHost(m_host);
        applyFilter();
    });
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        m_filter.device = chosenDevice(m_device);
        applyFilter();
    });
    connect(m_opType, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingChoices)
            return;
        m_filter.opType =
            m_opType->currentIndex() <= 0 ? std::string() : m_opType->currentText().toStdString();
        applyFilter();
    });
    connect(m_goTo, &QLineEdit::returnPressed, this, [this] {
        QString digits = m_goTo->text();
        digits.remove(QRegularExpression(QStringLiteral("[^0-9]")));
        bool ok = false;
        const quint64 index = digits.toULongLong(&ok);
        if (ok && goToIndex(index))
            m_view->setFocus();
    });
    connect(m_findBar, &widgets::FindBar::findNext, this,
            [this](const QString& text) { find(text, false); });
    connect(m_findBar, &widgets::FindBar::findPrevious, this,
            [this](const QString& text) { find(text, true); });
    connect(m_findBar, &widgets::FindBar::textEdited, this, [this] { m_findBar->setStatus({}); });
    connect(m_findBar, &widgets::FindBar::closed, m_view, [this] { m_view->setFocus(); });

    updateFilterChoices(nullptr);
    updateStatus();
}

GraphExecutionPanel::~GraphExecutionPanel()
{
    // ~QWidget deletes the table after this object is no longer a GraphExecutionPanel, and the
    // header reports its sections resized on the way out: nothing of ours may hear it.
    disconnect(m_view->horizontalHeader(), nullptr, this, nullptr);
}

widgets::CopyableTableView* GraphExecutionPanel::view() const
{
    return m_view;
}

void GraphExecutionPanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    if (!items::sameLogdir(m_model->snapshot(), snapshot)) {
        // Nothing of one logdir's browsing carries over to the next.
        m_jobs->find.cancel();
        m_findBar->setStatus({});
        m_goTo->clear();
        m_view->scrollToTop();
        m_message.clear();
        m_knownOps = m_knownGraphs = m_knownDevices = 0;
        m_columnsFitted = m_userSizedColumns = false;
        if (m_filter.active())
            setFilter({}); // a filter of another logdir's graphs means nothing here
    }
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
    // One host: nothing to tell apart.
    const std::size_t hosts = fillPlaceChoices(m_host, Place::Host, snapshot);
    m_view->setColumnHidden(Model::HostColumn, hosts <= 1);
    if (hosts > 1)
        fitColumnToChoices(m_view, Model::HostColumn, m_host);
    // Several devices: the filter, and the column that tells them apart.
    m_view->setColumnHidden(Model::DeviceColumn,
                            fillPlaceChoices(m_device, Place::Device, snapshot) <= 1);
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
    showPlaceChoice(m_host,
                    m_filter.host ? QVariant(static_cast<int>(*m_filter.host)) : QVariant());
    showPlaceChoice(m_device, m_filter.device ? QVariant(fromStd(*m_filter.device)) : QVariant());
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
    ++m_filterGeneration;
    m_message.clear();
    m_filteredUpTo = 0;
    const items::SnapshotPtr snapshot = m_model->snapshot();
    if (!m_filter.active() || !snapshot) {
        m_jobs->filter.cancel();
        m_proxy->setRows(m_filter.active() ? std::optional<std::vector<int>>(std::vector<int>())
                                           : std::nullopt);
        showFocus(true);
        updateStatus();
        return;
    }
    const quint64 generation = m_filterGeneration;
    const auto end = static_cast<std::uint64_t>(m_model->rowCount());
    m_jobs->filter.request(snapshot, [filter = m_filter, generation,
                                      end](const core::Snapshot& s, const std::atomic_bool& stop) {
        const core::TraceMatcher matcher(s, filter);
        return FilterResult{generation, end, core::matchingRows(s, matcher, 0, end, &stop), false};
    });
    updateStatus();
}

void GraphExecutionPanel::extendFilter()
{
    const items::SnapshotPtr snapshot = m_model->snapshot();
    const auto end = static_cast<std::uint64_t>(m_model->rowCount());
    // A full filter still running covers the new rows when it delivers; then this runs again.
    if (!m_proxy->isFiltered() || !snapshot || !m_jobs->filter.idle() || m_filteredUpTo >= end)
        return;
    const quint64 generation = m_filterGeneration;
    const std::uint64_t begin = m_filteredUpTo;
    m_jobs->filter.request(snapshot, [filter = m_filter, generation, begin,
                                      end](const core::Snapshot& s, const std::atomic_bool& stop) {
        const core::TraceMatcher matcher(s, filter);
        return FilterResult{generation, end, core::matchingRows(s, matcher, begin, end, &stop),
                            true};
    });
}

void GraphExecutionPanel::showFilterResult(FilterResult result)
{
    if (result.generation != m_filterGeneration || !m_filter.active())
        return;
    if (result.append)
        m_proxy->appendRows(result.rows);
    else
        m_proxy->setRows(std::move(result.rows));
    m_filteredUpTo = result.end;
    if (!result.append) {
        showFocus(true);
        updateInputs();
    }
    updateStatus();
    extendFilter();
}

qint64 GraphExecutionPanel::currentTrace() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

QList<quint64> GraphExecutionPanel::highlightedInputs() const
{
    QList<quint64> traces;
    for (const int row : m_proxy->highlightedRows())
        traces << static_cast<quint64>(row);
    std::sort(traces.begin(), traces.end());
    return traces;
}

bool GraphExecutionPanel::isBusy() const
{
    return !m_jobs->filter.idle() || !m_jobs->find.idle() || !m_proxy->allRowsShown();
}

QString GraphExecutionPanel::statusText() const
{
    return m_status->text();
}

void GraphExecutionPanel::updateStatus()
{
    QString text = m_message;
    if (text.isEmpty() && m_filter.active()) {
        const quint64 total = static_cast<quint64>(m_model->rowCount());
        text = !m_jobs->filter.idle() && m_filteredUpTo == 0
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
    m_findBar->setStatus(tr("Searching…"));
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

void GraphExecutionPanel::activateFind()
{
    m_findBar->activate();
}

void GraphExecutionPanel::activateGoTo()
{
    m_goTo->setFocus(Qt::ShortcutFocusReason);
    m_goTo->selectAll();
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
            fitKeyColumns(); // for the rows now on screen
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

int GraphExecutionPanel::initialWidth(int column) const
{
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    switch (column) {
    case Model::IndexColumn:
        return digit * 5 + 8;
    case Model::TensorColumn:
        return digit * 19;
    case Model::HealthColumn:
        return digit * 18;
    case Model::OpTypeColumn:
        return digit * 11;
    case Model::DTypeColumn:
        return digit * 8;
    case Model::ShapeColumn:
        return digit * 13;
    case Model::DeviceColumn:
        return digit * 16;
    default: // graph, host
        return digit * 10;
    }
}

QList<int> GraphExecutionPanel::keyColumns()
{
    return {Model::IndexColumn, Model::TensorColumn, Model::HealthColumn, Model::OpTypeColumn};
}

void GraphExecutionPanel::fitKeyColumns()
{
    if (m_userSizedColumns || m_proxy->rowCount() == 0)
        return;
    m_fittingColumns = true;
    // Room for any row number up to the last one: its digits all as wide as the widest digit,
    // plus two pixels for kerning and the style's fractional layout (a column fitted to
    // "1,999" elided "1,797" to "1…7").
    const QFontMetrics metrics = m_view->fontMetrics();
    QChar widestDigit = u'0';
    for (char16_t digit = u'1'; digit <= u'9'; ++digit)
        if (metrics.horizontalAdvance(QChar(digit)) > metrics.horizontalAdvance(widestDigit))
            widestDigit = QChar(digit);
    QString widest = QLocale().toString(m_model->rowCount() - 1);
    for (QChar& c : widest)
        if (c.isDigit())
            c = widestDigit;
    m_fittedDigits = static_cast<int>(QString::number(m_model->rowCount()).size());
    const int margin = widgets::PlainTextDelegate::textMargins(m_view);
    m_view->setColumnWidth(Model::IndexColumn, metrics.horizontalAdvance(widest) + margin + 2);
    // Only the rows on screen are measured: they are read for painting anyway, where sampling
    // rows elsewhere would read records a jump never shows.
    const int first = std::max(m_view->rowAt(0), 0);
    const int onScreen = m_view->rowAt(m_view->viewport()->height() - 1);
    const int end = onScreen < 0 ? m_proxy->rowCount() : onScreen + 1;
    const auto needed = [this, first, end](int column) {
        QStyleOptionViewItem option;
        option.initFrom(m_view);
        option.widget = m_view;
        int width = m_view->horizontalHeader()->sectionSizeHint(column);
        for (int row = first; row < end; ++row) {
            const QModelIndex index = m_proxy->index(row, column);
            width = std::max(width,
                             m_view->itemDelegateForIndex(index)->sizeHint(option, index).width());
        }
        return width;
    };
    m_view->setColumnWidth(Model::OpTypeColumn, needed(Model::OpTypeColumn));
    // Every op's own name (its last scope, "…/MatMul:0") stays whole; the outer scopes give way.
    int tensor = 0;
    for (int row = first; row < end; ++row) {
        const QString name = m_proxy->index(row, Model::TensorColumn).data().toString();
        const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
        tensor = std::max(tensor, m_view->fontMetrics().horizontalAdvance(
                                      slash < 0 ? name : QStringLiteral("…") + name.mid(slash)));
    }
    tensor += margin;
    // Health as wide as its text, but not past what leaves the op names whole: a row with more
    // kinds of values than fit drops its last (finite) parts, the non-finite ones come first.
    const int fixed =
        m_view->columnWidth(Model::IndexColumn) + m_view->columnWidth(Model::OpTypeColumn);
    const int room = m_view->viewport()->width() - fixed;
    const int health = needed(Model::HealthColumn);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(Model::HealthColumn,
                           std::max(std::min(health, room - tensor), digit * 12));
    // The details columns (dtype, size, graph, …) show too when the pane has room for them beside
    // every op's own name; otherwise the tensor column ends where the pane does and they scroll.
    const int rest = room - m_view->columnWidth(Model::HealthColumn);
    // (Their widths as set, not as shown: the last one stretches to the pane's end.)
    int details = 0;
    const QList<int> keys = keyColumns();
    for (int column = 0; column < Model::ColumnCount; ++column) {
        if (!keys.contains(column) && !m_view->isColumnHidden(column))
            details += initialWidth(column);
    }
    m_view->setColumnWidth(Model::TensorColumn,
                           std::max(rest - details >= tensor ? rest - details : rest, tensor));
    m_fittingColumns = false;
    m_columnsFitted = true;
}

void GraphExecutionPanel::resizeEvent(QResizeEvent* event)
{
    Panel::resizeEvent(event);
    if (m_columnsFitted)
        fitKeyColumns();
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
