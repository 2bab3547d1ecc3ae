// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/sourcefilemodel.hpp"

#include "nanscope/items/healthformat.hpp"

#include <QFileInfo>

namespace nanscope::items {

quint64 SourceFileModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.code().files().size();
}

int SourceFileModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SourceFileModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& file = snapshot()->code().files()[static_cast<std::size_t>(index.row())];
    const QString path = fromStd(file.filePath);
    switch (role) {
    case FilePathRole:
    case Qt::ToolTipRole:
        return path;
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case FileColumn:
        return QFileInfo(path).fileName();
    case LinesColumn:
        return file.lineCount;
    case HostColumn:
        return fromStd(file.hostName);
    }
    return {};
}

QVariant SourceFileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("File"), QT_TR_NOOP("Lines"),
                                             QT_TR_NOOP("Host")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
