// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/runcomparisonmodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"

namespace nanscope::items {
namespace {

bool hasCounts(const core::TensorHealth& h)
{
    return h.detail == core::TensorHealth::Detail::Counts ||
           h.detail == core::TensorHealth::Detail::Full;
}

// A count from a record; "" where the mode counts nothing (CONCISE_HEALTH has no finite classes).
QString count(const core::TensorHealth& h, double value, bool fullOnly)
{
    if (!hasCounts(h) || (fullOnly && h.detail != core::TensorHealth::Detail::Full))
        return {};
    return QString::number(value, 'g', 15);
}

} // namespace

RunComparisonModel::RunComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunComparisonModel::setDivergence(const std::optional<core::Divergence>& divergence)
{
    beginResetModel();
    m_divergence =
        divergence && divergence->kind != core::DivergenceKind::None ? divergence : std::nullopt;
    endResetModel();
}

std::optional<core::EventRef> RunComparisonModel::eventAt(int column) const
{
    if (!m_divergence)
        return std::nullopt;
    if (column == RunAColumn)
        return m_divergence->a.event;
    if (column == RunBColumn)
        return m_divergence->b.event;
    return std::nullopt;
}

int RunComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_divergence ? 0 : RowCount;
}

int RunComparisonModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!m_divergence || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        if (index.column() == FieldColumn)
            return field(index.row());
        return value(index.row(), index.column() == RunAColumn ? m_divergence->a : m_divergence->b);
    }
    if (role == Qt::BackgroundRole && index.column() != FieldColumn && index.row() == StateRow) {
        const core::CompareEvent& e =
            index.column() == RunAColumn ? m_divergence->a : m_divergence->b;
        // No variant for a finite value: an invalid QColor in a variant paints black.
        if (!e.setAside && e.digest.nonFinite())
            return nonFiniteBackground(e.digest);
    }
    return {};
}

QVariant RunComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case FieldColumn:
        return tr("Field");
    case RunAColumn:
        return tr("Run A");
    case RunBColumn:
        return tr("Run B");
    default:
        return {};
    }
}

QString RunComparisonModel::field(int row) const
{
    switch (static_cast<Row>(row)) {
    case EventRow:
        return tr("Event");
    case OpTypeRow:
        return tr("Op type");
    case OpNameRow:
        return tr("Op name");
    case GraphRow:
        return tr("Graph");
    case ModuleRow:
        return tr("Module");
    case StepRow:
        return tr("Step");
    case StateRow:
        return tr("State");
    case HealthRow:
        return tr("Health");
    case NegativeInfinityRow:
        return tr("-inf");
    case PositiveInfinityRow:
        return tr("+inf");
    case NaNRow:
        return tr("NaN");
    case NegativeRow:
        return tr("Negative");
    case ZeroRow:
        return tr("Zero");
    case PositiveRow:
        return tr("Positive");
    case RowCount:
        break;
    }
    return {};
}

QString RunComparisonModel::value(int row, const core::CompareEvent& e) const
{
    const core::TensorHealth& h = e.health;
    switch (static_cast<Row>(row)) {
    case EventRow:
        return (e.event.source == core::EventSource::Graph ? tr("Graph execution trace #%1")
                                                           : tr("Execution #%1"))
            .arg(e.event.index);
    case OpTypeRow:
        return fromStd(e.opType);
    case OpNameRow:
        return fromStd(e.opName);
    case GraphRow:
        return fromStd(e.graphName);
    case ModuleRow:
        return fromStd(e.modulePath);
    case StepRow:
        return QString::number(e.step);
    case StateRow:
        return fromStd(core::describeState(e));
    case HealthRow:
        return h.known() ? healthText(h) : digestText(e.digest);
    case NegativeInfinityRow:
        return count(h, h.negativeInfinity, false);
    case PositiveInfinityRow:
        return count(h, h.positiveInfinity, false);
    case NaNRow:
        return count(h, h.nan, false);
    case NegativeRow:
        return count(h, h.negativeFinite, true);
    case ZeroRow:
        return count(h, h.zero, true);
    case PositiveRow:
        return count(h, h.positiveFinite, true);
    case RowCount:
        break;
    }
    return {};
}

} // namespace nanscope::items
