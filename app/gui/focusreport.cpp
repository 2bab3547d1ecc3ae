// SPDX-License-Identifier: GPL-3.0-or-later
#include "focusreport.hpp"

#include "mainwindow.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/items/stacktracemodel.hpp"
#include "nanscope/items/tensorslicemodel.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/views/sourcepanel.hpp"
#include "nanscope/views/stacktracepanel.hpp"
#include "nanscope/views/tensorpanel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/uniformtableview.hpp"

#include <QJsonArray>
#include <QScreen>

namespace nanscope::app {
namespace {

QJsonValue orNull(bool present, const QJsonValue& value)
{
    return present ? value : QJsonValue(QJsonValue::Null);
}

QJsonValue eventJson(const views::Focus& focus)
{
    if (!focus.event)
        return QJsonValue::Null;
    const bool graph = focus.event->source == core::EventSource::Graph;
    return QJsonObject{
        {QStringLiteral("kind"), graph ? QStringLiteral("trace") : QStringLiteral("execution")},
        {QStringLiteral("index"), static_cast<qint64>(focus.event->index)}};
}

QJsonValue opJson(const items::SnapshotPtr& snapshot, const views::Focus& focus)
{
    if (!snapshot || focus.op == core::kNoOp || focus.op >= snapshot->graphs().ops().size())
        return QJsonValue::Null;
    const core::OpInfo& op = snapshot->graphs().op(focus.op);
    return QJsonObject{
        {QStringLiteral("name"), QString::fromStdString(op.name)},
        {QStringLiteral("type"), QString::fromStdString(op.type)},
        {QStringLiteral("graph"), QString::fromStdString(snapshot->graphs().graph(op.graph).name)}};
}

QJsonValue graphExecutionJson(const views::GraphExecutionPanel& panel)
{
    const qint64 trace = panel.currentTrace();
    if (trace < 0)
        return QJsonValue::Null;
    const auto* model = panel.model();
    auto cell = [model](quint64 row, int column) {
        return model->index(static_cast<int>(row), column).data().toString();
    };
    QJsonArray inputs;
    for (const quint64 row : panel.highlightedInputs())
        inputs.append(cell(row, items::GraphExecutionModel::TensorColumn));
    return QJsonObject{{QStringLiteral("trace"), trace},
                       {QStringLiteral("tensor"), cell(static_cast<quint64>(trace),
                                                       items::GraphExecutionModel::TensorColumn)},
                       {QStringLiteral("op_type"), cell(static_cast<quint64>(trace),
                                                        items::GraphExecutionModel::OpTypeColumn)},
                       {QStringLiteral("health"), cell(static_cast<quint64>(trace),
                                                       items::GraphExecutionModel::HealthColumn)},
                       {QStringLiteral("highlighted_inputs"), inputs}};
}

// The Executions table's current row and the producers and consumers it highlights.
QJsonValue executionsJson(const views::ExecutionsPanel& panel)
{
    const qint64 execution = panel.currentExecution();
    if (execution < 0)
        return QJsonValue::Null;
    const auto* model = panel.model();
    const auto cell = [model, execution](int column, int role = Qt::DisplayRole) {
        return model->index(static_cast<int>(execution), column).data(role).toString();
    };
    QJsonArray neighbours;
    for (const quint64 row : panel.highlightedNeighbours())
        neighbours.append(static_cast<qint64>(row));
    using M = items::ExecutionModel;
    return QJsonObject{{QStringLiteral("execution"), execution},
                       {QStringLiteral("op_type"), cell(M::OpTypeColumn, M::FullOpTypeRole)},
                       {QStringLiteral("module"), cell(M::ModuleColumn)},
                       {QStringLiteral("health"), cell(M::HealthColumn)},
                       {QStringLiteral("rows_shown"), panel.proxy()->rowCount()},
                       {QStringLiteral("highlighted_neighbours"), neighbours}};
}

QJsonValue stackTraceJson(const views::StackTracePanel& panel)
{
    const int row = panel.focusedFrameRow();
    if (row < 0)
        return QJsonObject{{QStringLiteral("frames"), panel.model()->rowCount()},
                           {QStringLiteral("selected_frame"), QJsonValue::Null}};
    const auto* model = panel.model();
    const QModelIndex index = model->index(row, items::StackTraceModel::FileColumn);
    const QJsonObject frame{
        {QStringLiteral("file"), index.data(items::StackTraceModel::FilePathRole).toString()},
        {QStringLiteral("line"), index.data(items::StackTraceModel::LineRole).toInt()},
        {QStringLiteral("function"),
         model->index(row, items::StackTraceModel::FunctionColumn).data().toString()},
        {QStringLiteral("user_frame"), index.data(items::StackTraceModel::UserFrameRole).toBool()}};
    return QJsonObject{{QStringLiteral("frames"), model->rowCount()},
                       {QStringLiteral("selected_frame"), frame}};
}

QJsonValue sourceJson(const views::SourcePanel& panel)
{
    const QString file = panel.currentFilePath();
    if (file.isEmpty())
        return QJsonValue::Null;
    const int line = panel.markedLine();
    return QJsonObject{{QStringLiteral("file"), file},
                       {QStringLiteral("marked_line"), orNull(line > 0, line)},
                       {QStringLiteral("line_text"), orNull(line > 0, panel.lineText(line))}};
}

QJsonValue graphStructureJson(const views::GraphStructurePanel& panel)
{
    const QStringList shown = panel.visibleOpNames(); // the focused op first
    if (shown.isEmpty())
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("focused_op"), shown.first()},
                       {QStringLiteral("neighbours"), QJsonArray::fromStringList(shown.mid(1))}};
}

QJsonArray integers(const std::vector<std::int64_t>& values)
{
    QJsonArray array;
    for (const std::int64_t value : values)
        array.append(static_cast<qint64>(value));
    return array;
}

// The Tensor panel: the tensor's shape, the slice shown, its statistics, the first non-finite
// element and the cell selected; or why it shows no values.
QJsonValue tensorJson(const views::TensorPanel& panel)
{
    const items::TensorSliceModel& model = *panel.model();
    const items::TensorPtr& tensor = model.tensor();
    const auto event = panel.shownEvent();
    if (!tensor || !event) {
        const QString empty = panel.emptyText();
        return QJsonObject{{QStringLiteral("empty"), orNull(!empty.isEmpty(), empty)}};
    }
    const core::TensorStats& stats = tensor->stats();
    QJsonObject json{
        {QStringLiteral("event"), eventJson(views::Focus{.event = event})},
        {QStringLiteral("output"), static_cast<qint64>(panel.shownOutput())},
        {QStringLiteral("dtype"), items::dtypeText(tensor->dtype())},
        {QStringLiteral("shape"), integers(tensor->shape())},
        {QStringLiteral("elements"), static_cast<qint64>(tensor->elementCount())},
        {QStringLiteral("slice"), panel.sliceText()},
        {QStringLiteral("rows_dimension"), orNull(model.rowDimension() >= 0, model.rowDimension())},
        {QStringLiteral("columns_dimension"),
         orNull(model.columnDimension() >= 0, model.columnDimension())},
        {QStringLiteral("nan"), static_cast<qint64>(stats.nan)},
        {QStringLiteral("negative_infinity"), static_cast<qint64>(stats.negativeInfinity)},
        {QStringLiteral("positive_infinity"), static_cast<qint64>(stats.positiveInfinity)},
        {QStringLiteral("zero"), static_cast<qint64>(stats.zero)},
        {QStringLiteral("stats"), panel.statsText()},
        {QStringLiteral("first_non_finite"),
         stats.firstNonFinite ? QJsonValue(integers(tensor->coordinates(*stats.firstNonFinite)))
                              : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("first_non_finite_index"),
         stats.firstNonFinite ? QJsonValue(static_cast<qint64>(*stats.firstNonFinite))
                              : QJsonValue(QJsonValue::Null)}};
    const QModelIndex current = panel.view()->currentIndex();
    json.insert(QStringLiteral("selected"),
                current.isValid()
                    ? QJsonValue(QJsonObject{
                          {QStringLiteral("row"), current.row()},
                          {QStringLiteral("column"), current.column()},
                          {QStringLiteral("index"),
                           integers(tensor->coordinates(model.flatIndex(current)))},
                          {QStringLiteral("value"),
                           current.data(items::TensorSliceModel::ExactTextRole).toString()}})
                    : QJsonValue(QJsonValue::Null));
    return json;
}

// The origin box and the counts, as the Alerts panel shows them: the origin is the first
// non-finite value that was not set aside as intended.
QJsonValue alertsJson(const views::AlertsPanel& panel)
{
    const QString origin = panel.originText();
    return QJsonObject{
        {QStringLiteral("counts"), QJsonArray::fromStringList(panel.countTexts())},
        {QStringLiteral("set_aside"), static_cast<qint64>(panel.setAsideAlertCount())},
        {QStringLiteral("origin"), orNull(!origin.isEmpty(), origin)}};
}

// The window against its screen: whether it fits, and the smallest it can be.
QJsonValue windowJson(const MainWindow& window)
{
    const QScreen* screen = window.screen();
    const QRect available = screen ? screen->availableGeometry() : QRect();
    const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
    return QJsonObject{{QStringLiteral("width"), window.width()},
                       {QStringLiteral("height"), window.height()},
                       {QStringLiteral("minimum_width"), minimum.width()},
                       {QStringLiteral("minimum_height"), minimum.height()},
                       {QStringLiteral("screen_width"), available.width()},
                       {QStringLiteral("screen_height"), available.height()}};
}

} // namespace

QJsonObject focusReport(const MainWindow& window)
{
    const views::Focus& focus = window.navigator()->focus();
    const items::SnapshotPtr snapshot = window.navigator()->snapshot();
    const QString execution = window.timelinePanel()->detailsText();
    return QJsonObject{
        {QStringLiteral("logdir"), window.session()->path()},
        {QStringLiteral("event"), eventJson(focus)},
        {QStringLiteral("op"), opJson(snapshot, focus)},
        {QStringLiteral("graph_execution"), graphExecutionJson(*window.graphExecutionPanel())},
        {QStringLiteral("executions"), executionsJson(*window.executionsPanel())},
        {QStringLiteral("execution"),
         orNull(!execution.isEmpty(), QJsonObject{{QStringLiteral("details"), execution}})},
        {QStringLiteral("stack_trace"), stackTraceJson(*window.stackTracePanel())},
        {QStringLiteral("source"), sourceJson(*window.sourcePanel())},
        {QStringLiteral("graph_structure"), graphStructureJson(*window.graphStructurePanel())},
        {QStringLiteral("alerts"), alertsJson(*window.alertsPanel())},
        {QStringLiteral("tensor"), tensorJson(*window.tensorPanel())},
        {QStringLiteral("window"), windowJson(window)}};
}

} // namespace nanscope::app
