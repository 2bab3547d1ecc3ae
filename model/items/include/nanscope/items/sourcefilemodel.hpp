// SPDX-License-Identifier: GPL-3.0-or-later
// The source files a logdir captured, in the order their records were written.
#pragma once

#include "nanscope/items/snapshottablemodel.hpp"

namespace nanscope::items {

class SourceFileModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column { FileColumn, LinesColumn, HostColumn, ColumnCount };
    enum Role { FilePathRole = FirstModelRole };

    using SnapshotTableModel::SnapshotTableModel;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
};

} // namespace nanscope::items
