// SPDX-License-Identifier: GPL-3.0-or-later
// One op and its neighbourhood in its graph: the ops feeding its inputs, the op itself, and the
// ops consuming its outputs (data edges only).
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QAbstractTableModel>
#include <vector>

namespace nanscope::items {

class OpNeighbourhoodModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { RelationColumn, OpColumn, OpTypeColumn, TensorColumn, ColumnCount };
    enum class Relation { Input, Self, Consumer };
    enum Role {
        RelationRole = Qt::UserRole + 1, // int: Relation
        OpIdRole,                        // uint: core::OpId, or core::kNoOp when not declared
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setSnapshot(SnapshotPtr snapshot);
    // The op to centre on (core::kNoOp: none).
    void setOp(core::OpId op);
    core::OpId op() const { return m_op; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row
    {
        Relation relation;
        core::OpId op;
        QString opName; // kept for inputs that name an op the logdir never declared
        QString tensor; // "probs:0": the tensor on the edge
        int port;       // the op's input index (Input) or output slot (Consumer)
    };
    void rebuild();

    SnapshotPtr m_snapshot;
    core::OpId m_op = core::kNoOp;
    std::vector<Row> m_rows;
};

} // namespace nanscope::items
