// SPDX-License-Identifier: GPL-3.0-or-later
// The lines of one source file as the logdir captured it (never read from the local disk), with
// the focused line and the lines whose ops produced non-finite values marked.
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QAbstractTableModel>
#include <QSet>
#include <QString>
#include <vector>

namespace nanscope::items {

class SourceLineModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { LineColumn, TextColumn, ColumnCount };
    enum Role {
        MarkedRole = Qt::UserRole + 1, // bool: an op created on this line produced NaN or ±inf
        FocusRole,                     // bool: the focused line
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setSnapshot(SnapshotPtr snapshot);
    // Shows file `fileIndex` of the snapshot's source files (-1: none). Returns false and shows
    // nothing when the file cannot be read from the logdir; error() says why.
    bool setFile(int fileIndex);
    int fileIndex() const { return m_fileIndex; }
    QString error() const { return m_error; }
    // 1-based line numbers.
    void setMarkedLines(const QSet<int>& lines);
    void setFocusLine(int line);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void load();

    SnapshotPtr m_snapshot;
    int m_fileIndex = -1;
    std::vector<QString> m_lines;
    QString m_error;
    QSet<int> m_marked;
    int m_focusLine = 0;
};

} // namespace nanscope::items
