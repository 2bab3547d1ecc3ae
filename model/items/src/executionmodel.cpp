// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/executionmodel.hpp"

#include "nanscope/items/healthformat.hpp"

namespace nanscope::items {

quint64 ExecutionModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.executionCount();
}

int ExecutionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExecutionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& snap = *snapshot();
    const auto row = static_cast<quint64>(index.row());
    const core::ExecutionDigest e = snap.execution(row);
    switch (role) {
    case HealthBitsRole:
        return e.health.bits;
    case NonFiniteRole:
        return e.health.nonFinite();
    case Qt::BackgroundRole:
        return e.health.nonFinite() ? QVariant(nonFiniteBackground(e.health)) : QVariant();
    case Qt::ToolTipRole:
        return tr("Execution #%1: %2, %3").arg(row).arg(fromStd(e.opType), digestText(e.health));
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn || index.column() == OutputsColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case IndexColumn:
        return static_cast<qulonglong>(row);
    case OpTypeColumn:
        return fromStd(e.opType);
    case GraphColumn: {
        if (e.graphId.empty())
            return {};
        const auto graph = snap.graphs().findGraph(e.graphId);
        return graph ? fromStd(snap.graphs().graph(*graph).name) : fromStd(e.graphId);
    }
    case OutputsColumn:
        return e.numOutputIds;
    case HealthColumn:
        return role == SortRole ? QVariant(e.health.bits) : QVariant(digestText(e.health));
    }
    return {};
}

QVariant ExecutionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("#"), QT_TR_NOOP("Op type"),
                                             QT_TR_NOOP("Function"), QT_TR_NOOP("Outputs"),
                                             QT_TR_NOOP("Health")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
