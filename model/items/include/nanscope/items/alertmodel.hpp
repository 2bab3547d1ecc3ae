// SPDX-License-Identifier: GPL-3.0-or-later
// Every InfNan alert of a snapshot, in TensorBoard's order (graph traces, then executions).
#pragma once

#include "nanscope/items/snapshottablemodel.hpp"

#include <atomic>
#include <optional>
#include <vector>

namespace nanscope::items {

class AlertModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        EventColumn,
        OpTypeColumn,
        OpNameColumn,
        HostColumn, // the host that recorded the alert's event
        SlotColumn,
        SizeColumn,
        NegInfColumn,
        PosInfColumn,
        NanColumn,
        ColumnCount
    };
    enum Role {
        EventSourceRole = FirstModelRole, // int: core::EventSource of the alert's event
        EventIndexRole,                   // qulonglong: trace or execution index
    };

    using SnapshotTableModel::SnapshotTableModel;

    // What column `column` of alert `row` shows (`sort`: the value it sorts by, SortRole), from
    // the snapshot alone: callable on any thread.
    static QVariant cellValue(const core::Snapshot& snapshot, quint64 row, int column, bool sort);
    // `rows` (model rows) in the order of `column`'s sort values: stable (equal values keep the
    // model's order), numbers before text, empty cells last in either order. Null once `stop` is
    // set. For a worker thread: a million alerts take about a second.
    static std::optional<std::vector<int>> sortRows(const core::Snapshot& snapshot,
                                                    std::vector<int> rows, int column,
                                                    Qt::SortOrder order,
                                                    const std::atomic_bool& stop);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
    // A trace read after an execution lands before it in TensorBoard's order.
    bool rowsOnlyAppend() const override { return false; }
};

} // namespace nanscope::items
