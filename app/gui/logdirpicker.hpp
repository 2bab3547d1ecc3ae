// SPDX-License-Identifier: GPL-3.0-or-later
// "Which logdir?": shown when the folder a user opens is not a logdir but holds some in its
// subfolders (a TensorBoard-style parent directory), with what tells runs apart.
#pragma once

#include "nanscope/core/logdirlayout.hpp"

#include <QDialog>
#include <vector>

class QTreeWidget;

namespace nanscope::app {

class LogdirPicker : public QDialog
{
    Q_OBJECT

public:
    enum Column { FolderColumn, RunColumn, HostsColumn, StartedColumn, SizeColumn, ColumnCount };

    LogdirPicker(const QString& root, const std::vector<core::LogdirLayout>& logdirs,
                 QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    // The chosen logdir's directory ("" when none is selected).
    QString selectedPath() const;

private:
    QTreeWidget* m_list = nullptr;
};

} // namespace nanscope::app
