// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensortableview.hpp"

#include "nanscope/items/tensorslicemodel.hpp"
#include "tensorcelldelegate.hpp"

#include <QHeaderView>
#include <QScrollBar>
#include <QStringList>
#include <algorithm>
#include <climits>

namespace nanscope::views {

TensorTableView::TensorTableView(QWidget* parent)
    : widgets::CopyableTableView(parent), m_delegate(new TensorCellDelegate(this))
{
    setItemDelegate(m_delegate);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setTextElideMode(Qt::ElideRight);
    setRowHeaderVisible(true);
    // Columns are indices of a dimension: in their order, each as wide as its numbers.
    horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    horizontalHeader()->setSectionsMovable(false);
    horizontalHeader()->setStretchLastSection(false);
}

QString TensorTableView::selectionText() const
{
    if (!model() || !selectionModel())
        return {};
    // The rectangle around the ranges, not selectedIndexes(): a select-all on a slice of
    // millions of rows is one range.
    int top = INT_MAX;
    int bottom = -1;
    int left = INT_MAX;
    int right = -1;
    const QItemSelection selection = selectionModel()->selection();
    for (const QItemSelectionRange& range : selection) {
        top = std::min(top, range.top());
        bottom = std::max(bottom, range.bottom());
        left = std::min(left, range.left());
        right = std::max(right, range.right());
    }
    if (bottom < 0) {
        const QModelIndex current = currentIndex();
        if (!current.isValid())
            return {};
        top = bottom = current.row();
        left = right = current.column();
    }
    const qint64 width = right - left + 1;
    bottom = static_cast<int>(std::min<qint64>(bottom, top + kMaxCopiedCells / width - 1));
    QStringList lines;
    for (int row = top; row <= bottom; ++row) {
        QStringList cells;
        for (int column = left; column <= right; ++column) {
            const QModelIndex index = model()->index(row, column);
            const bool wanted = selection.isEmpty() || selection.contains(index);
            cells << (wanted ? index.data(items::TensorSliceModel::ExactTextRole).toString()
                             : QString());
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void TensorTableView::centerOn(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    setCurrentIndex(index);
    scrollTo(index, QAbstractItemView::PositionAtCenter);
    const QHeaderView* header = horizontalHeader();
    const int width = viewport()->width();
    const int size = header->sectionSize(index.column());
    int offset = header->sectionPosition(index.column()) - std::max(0, (width - size) / 2);
    offset = std::clamp(offset, 0, horizontalScrollBar()->maximum());
    // The column under the new left edge starts there (logicalIndexAt takes viewport positions).
    const int atLeft = header->logicalIndexAt(offset - header->offset());
    if (atLeft >= 0)
        offset = header->sectionPosition(atLeft);
    horizontalScrollBar()->setValue(offset);
}

} // namespace nanscope::views
