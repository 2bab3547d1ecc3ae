// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/stacktracemodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

#include <QFileInfo>
#include <QFont>
#include <QPalette>

namespace nanscope::items {

StackTraceModel::StackTraceModel(QObject* parent) : QAbstractTableModel(parent) {}

void StackTraceModel::setSnapshot(SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    rebuild();
    endResetModel();
}

void StackTraceModel::setFrameIds(std::vector<std::string> frameIds)
{
    beginResetModel();
    m_frameIds = std::move(frameIds);
    rebuild();
    endResetModel();
}

void StackTraceModel::setFrameworkPatterns(const QStringList& patterns)
{
    beginResetModel();
    if (patterns.isEmpty()) {
        m_folding = core::StackFolding();
    } else {
        std::vector<std::string> list;
        for (const auto& p : patterns)
            list.push_back(p.toStdString());
        m_folding = core::StackFolding(std::move(list));
    }
    rebuild();
    endResetModel();
}

void StackTraceModel::rebuild()
{
    m_stack = {};
    if (m_snapshot)
        m_stack = m_folding.fold(m_snapshot->resolveStack(m_frameIds));
}

int StackTraceModel::userFrameRow() const
{
    return m_stack.userFrame ? static_cast<int>(*m_stack.userFrame) : -1;
}

int StackTraceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_stack.frames.size());
}

int StackTraceModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StackTraceModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& folded = m_stack.frames[static_cast<std::size_t>(index.row())];
    const auto& frame = folded.frame;
    const bool user = index.row() == userFrameRow();
    const QString path = fromStd(frame.filePath);
    switch (role) {
    case FilePathRole:
        return path;
    case FileIndexRole:
        return frame.fileIndex ? static_cast<int>(*frame.fileIndex) : -1;
    case LineRole:
        return frame.line;
    case FrameworkRole:
        return folded.framework;
    case UserFrameRole:
        return user;
    case FocusFrameRole:
        return m_stack.focusFrame == static_cast<std::size_t>(index.row());
    case Qt::ToolTipRole:
        return path.isEmpty() ? tr("Unknown frame %1").arg(fromStd(frame.id))
                              : path + QLatin1Char(':') + QString::number(frame.line);
    case Qt::FontRole:
        if (user) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        return folded.framework ? QPalette().brush(QPalette::Disabled, QPalette::Text) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == LineColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case FileColumn:
        return path.isEmpty() ? tr("(unknown)") : QFileInfo(path).fileName();
    case LineColumn:
        return frame.line;
    case FunctionColumn:
        return fromStd(frame.function);
    }
    return {};
}

QVariant StackTraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("File"), QT_TR_NOOP("Line"),
                                             QT_TR_NOOP("Function")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
