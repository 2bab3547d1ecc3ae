// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/snapshottablemodel.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <climits>

namespace nanscope::items {
namespace {

int clampRows(quint64 rows)
{
    return static_cast<int>(std::min<quint64>(rows, INT_MAX));
}

} // namespace

QVariant columnTitle(const char* context, std::span<const char* const> titles, int section,
                     Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        static_cast<std::size_t>(section) >= titles.size())
        return {};
    return QCoreApplication::translate(context, titles[static_cast<std::size_t>(section)]);
}

int SnapshotTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

void SnapshotTableModel::setSnapshot(SnapshotPtr snapshot)
{
    // A follow poll that finds nothing new hands the same snapshot again: nothing changed, and a
    // reset would lose the view's scroll position and selection.
    if (snapshot == m_snapshot)
        return;
    const int rows = snapshot ? clampRows(rowsIn(*snapshot)) : 0;
    const bool append = snapshot && m_snapshot && rowsOnlyAppend() && rows >= m_rows &&
                        snapshot->generation() > m_snapshot->generation() &&
                        sameLogdir(snapshot, m_snapshot);
    if (!append) {
        beginResetModel();
        m_snapshot = std::move(snapshot);
        m_rows = rows;
        snapshotChanged();
        endResetModel();
        return;
    }
    m_snapshot = std::move(snapshot);
    if (rows > m_rows) {
        beginInsertRows({}, m_rows, rows - 1);
        m_rows = rows;
        snapshotChanged();
        endInsertRows();
    } else {
        snapshotChanged();
    }
    // Rows already shown may read differently now: an op declared after its first traces, hop
    // counts once a producer is known. Views repaint only what is visible.
    if (m_rows > 0 && columnCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(m_rows - 1, columnCount() - 1));
}

} // namespace nanscope::items
