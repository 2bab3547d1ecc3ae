// SPDX-License-Identifier: GPL-3.0-or-later
// The base of the table models over a core::Snapshot: rows come from the snapshot, and a newer
// snapshot of the same logdir appends rows instead of resetting the model (views keep their
// selection and scroll position while a logdir is being followed).
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QAbstractTableModel>
#include <span>

namespace nanscope::items {

// Roles every model that shows tensors answers, for shared delegates and proxies.
enum SharedRole {
    HealthBitsRole = Qt::UserRole + 1, // int: core::HealthDigest bits of the row's tensor
    NonFiniteRole,                     // bool: the row's tensor holds NaN or ±inf
    SortRole,                          // a sortable value for the column (numbers as numbers)
    FirstModelRole = Qt::UserRole + 32 // models number their own roles from here
};

// The horizontal header of a table model from its column titles (marked with QT_TR_NOOP in
// the model's context); invalid for anything else, so that the caller falls back to Qt's.
QVariant columnTitle(const char* context, std::span<const char* const> titles, int section,
                     Qt::Orientation orientation, int role);

class SnapshotTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    void setSnapshot(SnapshotPtr snapshot);
    const SnapshotPtr& snapshot() const { return m_snapshot; }

    int rowCount(const QModelIndex& parent = {}) const override;

protected:
    // Rows in `snapshot`; views cannot show more than INT_MAX, so larger counts are clamped.
    virtual quint64 rowsIn(const core::Snapshot& snapshot) const = 0;
    // Whether a newer snapshot only adds rows at the end (true for TensorFlow's append-only
    // lists); otherwise every new snapshot resets the model.
    virtual bool rowsOnlyAppend() const { return true; }
    // Called with the model reset or rows appended, for caches keyed by row.
    virtual void snapshotChanged() {}

private:
    SnapshotPtr m_snapshot;
    int m_rows = 0;
};

} // namespace nanscope::items
