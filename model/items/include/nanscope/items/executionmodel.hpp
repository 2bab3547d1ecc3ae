// SPDX-License-Identifier: GPL-3.0-or-later
// Every execution of a snapshot's main host (an eager op or a tf.function call; every op of a
// PyTorch run): a virtual table for millions of rows whose data() costs one digest. The columns
// that need the full record (dtypes, element counts, the health bar's counts) are read on a pool
// thread for the rows that ask, a batch per turn of the event loop, and arrive by dataChanged:
// until then a row shows what its digest knows, so that scrolling never waits for a file.
#pragma once

#include "nanscope/items/healthroles.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

#include <QCache>
#include <QSet>
#include <array>
#include <vector>

namespace nanscope::items {

class ExecutionModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        OpTypeColumn,   // without "aten::" (opTypeText); the full type in the tooltip
        ModuleColumn,   // the nn.Module it ran in ("MLP.fc1"); empty outside modules
        HealthColumn,   // all outputs together
        OutputsColumn,  // how many output tensors
        DTypeColumn,    // the outputs' dtypes (from the record)
        ElementsColumn, // the outputs' elements (from the record)
        TimeColumn,     // seconds since the run's first execution
        ColumnCount
    };
    enum Role {
        HealthTextRole = FirstModelRole, // QString: the outputs' full counts, when read
        NegInfCountRole,                 // double (all outputs), or invalid while unknown
        PosInfCountRole,
        NanCountRole,
        NegativeCountRole,
        ZeroCountRole,
        PositiveCountRole,
        FullOpTypeRole, // QString: "aten::mul"
    };

    using SnapshotTableModel::SnapshotTableModel;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // Whether records asked for are still being read (for tests and busy indicators).
    bool isReadingRecords() const { return !m_requested.isEmpty(); }

    // What a record adds to a row, worked out on the reading thread.
    struct Details
    {
        QString dtypes;      // "float32", "float32, int64"
        QVariant elements;   // qulonglong, or invalid when the mode does not say
        QString healthText;  // one line per output
        HealthCounts counts; // of all outputs together
    };

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
    void snapshotChanged() override;

private:
    const Details* details(int row) const; // null until read; asks for it then
    void readQueued();
    void deliver(const SnapshotPtr& readFrom, std::vector<std::pair<int, Details>>&& read,
                 const std::vector<int>& asked);

    mutable QCache<int, Details> m_details{1024};
    mutable QSet<int> m_requested;    // asked for, not yet delivered
    mutable std::vector<int> m_queue; // asked for, not yet sent to a thread
    mutable bool m_readScheduled = false;
    QSet<int> m_unreadable;  // rows whose read failed: not tried again for this snapshot
    SnapshotPtr m_detailsOf; // the snapshot the cache was filled from
    double m_firstWallTime = 0;
};

} // namespace nanscope::items
