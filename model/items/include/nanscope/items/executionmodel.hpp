// SPDX-License-Identifier: GPL-3.0-or-later
// Every top-level (eager) execution of a snapshot: the execution timeline's data.
#pragma once

#include "nanscope/items/snapshottablemodel.hpp"

namespace nanscope::items {

class ExecutionModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        OpTypeColumn,
        GraphColumn,
        OutputsColumn,
        HealthColumn,
        ColumnCount
    };

    using SnapshotTableModel::SnapshotTableModel;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
};

} // namespace nanscope::items
