// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/opneighbourhoodmodel.hpp"

#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

namespace nanscope::items {

void OpNeighbourhoodModel::setSnapshot(SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    if (!m_snapshot || m_op >= m_snapshot->graphs().ops().size())
        m_op = core::kNoOp;
    rebuild();
    endResetModel();
}

void OpNeighbourhoodModel::setOp(core::OpId op)
{
    beginResetModel();
    m_op = m_snapshot && op < m_snapshot->graphs().ops().size() ? op : core::kNoOp;
    rebuild();
    endResetModel();
}

void OpNeighbourhoodModel::rebuild()
{
    m_rows.clear();
    if (!m_snapshot || m_op == core::kNoOp)
        return;
    const auto& graphs = m_snapshot->graphs();
    const core::OpInfo& self = graphs.op(m_op);
    for (std::size_t i = 0; i < self.inputs.size(); ++i) {
        const auto& input = self.inputs[i];
        m_rows.push_back({Relation::Input, input.op, fromStd(input.opName),
                          fromStd(input.opName) + QLatin1Char(':') + QString::number(input.slot),
                          static_cast<int>(i)});
    }
    m_rows.push_back({Relation::Self, m_op, fromStd(self.name), {}, 0});
    for (std::size_t slot = 0; slot < self.consumers.size(); ++slot) {
        for (const auto& consumer : self.consumers[slot]) {
            m_rows.push_back({Relation::Consumer, consumer.op, fromStd(graphs.op(consumer.op).name),
                              fromStd(self.name) + QLatin1Char(':') + QString::number(slot),
                              static_cast<int>(slot)});
        }
    }
}

int OpNeighbourhoodModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OpNeighbourhoodModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpNeighbourhoodModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const core::OpInfo* op = row.op == core::kNoOp ? nullptr : &m_snapshot->graphs().op(row.op);
    switch (role) {
    case RelationRole:
        return static_cast<int>(row.relation);
    case OpIdRole:
        return row.op;
    case Qt::DisplayRole:
        break;
    case Qt::ToolTipRole:
        if (!op)
            return tr("%1 is not declared in this logdir").arg(row.opName);
        return tr("%1 (%2)").arg(row.opName, fromStd(op->type));
    default:
        return {};
    }
    switch (index.column()) {
    case RelationColumn:
        switch (row.relation) {
        case Relation::Input:
            return tr("input %1").arg(row.port);
        case Relation::Self:
            return tr("op");
        case Relation::Consumer:
            return tr("consumer of :%1").arg(row.port);
        }
        return {};
    case OpColumn:
        return row.opName;
    case OpTypeColumn:
        return op ? fromStd(op->type) : QString();
    case TensorColumn:
        return row.tensor;
    }
    return {};
}

QVariant OpNeighbourhoodModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("Relation"), QT_TR_NOOP("Op"),
                                             QT_TR_NOOP("Op type"), QT_TR_NOOP("Tensor")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
