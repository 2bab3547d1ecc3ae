// SPDX-License-Identifier: GPL-3.0-or-later
// A creation or call stack, outermost frame first, with framework frames told apart from the
// user's, the user's frame (the innermost non-framework one) and the focus frame marked.
#pragma once

#include "nanscope/core/stackfolding.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QAbstractTableModel>
#include <QStringList>

namespace nanscope::items {

class StackTraceModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { FileColumn, LineColumn, FunctionColumn, ColumnCount };
    enum Role {
        FilePathRole = Qt::UserRole + 1, // QString: the full path
        FileIndexRole,                   // int: index into the logdir's source files, or -1
        LineRole,                        // int
        FrameworkRole,                   // bool: matches a framework pattern
        UserFrameRole,                   // bool: the innermost frame of the user's own code
        FocusFrameRole, // bool: the frame shown for this stack (the user's, or a stand-in)
    };

    explicit StackTraceModel(QObject* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    // Frame ids as recorded (outermost first); an unknown id shows as an unknown frame.
    void setFrameIds(std::vector<std::string> frameIds);
    // Path fragments that mark framework frames; empty restores the defaults.
    void setFrameworkPatterns(const QStringList& patterns);
    // The row of the user's frame, or -1.
    int userFrameRow() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void rebuild();

    SnapshotPtr m_snapshot;
    std::vector<std::string> m_frameIds;
    core::StackFolding m_folding;
    core::FoldedStack m_stack;
};

} // namespace nanscope::items
