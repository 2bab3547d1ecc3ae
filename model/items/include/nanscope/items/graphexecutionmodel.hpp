// SPDX-License-Identifier: GPL-3.0-or-later
// Every graph execution trace of a snapshot: a virtual table for millions of rows. Columns that
// need the full record (dtype, shape, counts) decode it on demand for the rows shown, and keep
// the last few hundred in a cache. A record larger than core::kInteractiveRecordBytes (a big
// FULL_TENSOR tensor) is read on a pool thread instead: its row shows what the index knows until
// the details arrive (dataChanged), so scrolling never waits for a large record.
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

#include <QCache>
#include <QSet>

namespace nanscope::items {

class GraphExecutionModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        TensorColumn,
        OpTypeColumn,
        GraphColumn,
        HostColumn,   // the host whose file set holds the trace
        DeviceColumn, // the device it ran on (from the record)
        DTypeColumn,
        ShapeColumn,
        HealthColumn,
        ColumnCount
    };
    enum Role {
        OpIdRole = FirstModelRole, // uint: core::OpId of the row's op
        HealthTextRole,            // QString: full counts ("1000 elements: 1 -inf …")
        NegInfCountRole,           // double, or invalid when the mode does not count
        PosInfCountRole,
        NanCountRole,
        NegativeCountRole,
        ZeroCountRole,
        PositiveCountRole,
    };

    using SnapshotTableModel::SnapshotTableModel;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
    void snapshotChanged() override;

private:
    const core::TraceDetails* details(int row) const;
    void readLater(int row) const;
    void deliver(const SnapshotPtr& readFrom, int row, core::ReadResult<core::TraceDetails> read);

    mutable QCache<int, core::TraceDetails> m_details{512};
    mutable QSet<int> m_readsInFlight;
    QSet<int> m_unreadable; // rows whose deferred read failed: not tried again for this snapshot
};

} // namespace nanscope::items
