// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/sourcelinemodel.hpp"

#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

namespace nanscope::items {

void SourceLineModel::setSnapshot(SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    load();
    endResetModel();
}

bool SourceLineModel::setFile(int fileIndex)
{
    beginResetModel();
    m_fileIndex = fileIndex;
    load();
    endResetModel();
    return m_error.isEmpty();
}

void SourceLineModel::load()
{
    m_lines.clear();
    m_error.clear();
    if (!m_snapshot || m_fileIndex < 0)
        return;
    if (static_cast<std::size_t>(m_fileIndex) >= m_snapshot->code().files().size()) {
        m_error = tr("The logdir has no source file %1").arg(m_fileIndex);
        return;
    }
    auto lines = m_snapshot->readSourceLines(static_cast<std::size_t>(m_fileIndex));
    if (!lines) {
        m_error = fromStd(lines.error);
        return;
    }
    m_lines.reserve(lines->size());
    for (const auto& line : *lines)
        m_lines.push_back(fromStd(line));
}

void SourceLineModel::setMarkedLines(const QSet<int>& lines)
{
    m_marked = lines;
    if (!m_lines.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {MarkedRole});
}

void SourceLineModel::setFocusLine(int line)
{
    const int old = m_focusLine;
    m_focusLine = line;
    for (const int l : {old, line})
        if (l >= 1 && l <= rowCount())
            Q_EMIT dataChanged(index(l - 1, 0), index(l - 1, ColumnCount - 1), {FocusRole});
}

int SourceLineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_lines.size());
}

int SourceLineModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SourceLineModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int line = index.row() + 1;
    switch (role) {
    case MarkedRole:
        return m_marked.contains(line);
    case FocusRole:
        return line == m_focusLine;
    case Qt::DisplayRole:
        return index.column() == LineColumn
                   ? QVariant(line)
                   : QVariant(m_lines[static_cast<std::size_t>(index.row())]);
    case Qt::TextAlignmentRole:
        return index.column() == LineColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant();
    default:
        return {};
    }
}

QVariant SourceLineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("Line"), QT_TR_NOOP("Text")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
