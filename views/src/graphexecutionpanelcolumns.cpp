// SPDX-License-Identifier: GPL-3.0-or-later
// Graph Execution's column widths: fitted to the rows on screen until the user sizes one.
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/columnfit.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QHeaderView>
#include <algorithm>

namespace nanscope::views {

namespace {

using Model = items::GraphExecutionModel;

} // namespace

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
    m_fittedDigits = static_cast<int>(QString::number(m_model->rowCount()).size());
    const int margin = widgets::PlainTextDelegate::textMargins(m_view);
    m_view->setColumnWidth(Model::IndexColumn,
                           widgets::rowNumberWidth(m_view, m_model->rowCount() - 1, margin));
    // Only the rows on screen are measured: they are read for painting anyway, where sampling
    // rows elsewhere would read records a jump never shows.
    const widgets::RowSpan rows = widgets::rowsOnScreen(m_view);
    const auto needed = [this, rows](int column) {
        return widgets::contentWidth(m_view, column, rows);
    };
    m_view->setColumnWidth(Model::OpTypeColumn, needed(Model::OpTypeColumn));
    // Every op's own name (its last scope, "…/MatMul:0") stays whole; the outer scopes give way.
    int tensor = 0;
    for (int row = rows.first; row < rows.end; ++row) {
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
}

void GraphExecutionPanel::resizeEvent(QResizeEvent* event)
{
    Panel::resizeEvent(event);
    if (m_columns->fitted())
        m_columns->fit();
}

} // namespace nanscope::views
