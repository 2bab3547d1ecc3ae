// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/columnfit.hpp"

#include "nanscope/widgets/uniformtableview.hpp"

#include <QAbstractItemDelegate>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLocale>
#include <QStyleOptionViewItem>
#include <algorithm>

namespace nanscope::widgets {

RowSpan rowsOnScreen(const UniformTableView* view)
{
    const int rows = view->model() ? view->model()->rowCount() : 0;
    const int first = std::max(view->rowAt(0), 0);
    const int last = view->rowAt(view->viewport()->height() - 1);
    return {first, last < 0 ? rows : last + 1};
}

int rowNumberWidth(const UniformTableView* view, qint64 largest, int textMargins)
{
    const QFontMetrics metrics = view->fontMetrics();
    QChar widestDigit = u'0';
    for (char16_t digit = u'1'; digit <= u'9'; ++digit)
        if (metrics.horizontalAdvance(QChar(digit)) > metrics.horizontalAdvance(widestDigit))
            widestDigit = QChar(digit);
    QString widest = QLocale().toString(largest);
    for (QChar& c : widest)
        if (c.isDigit())
            c = widestDigit;
    return metrics.horizontalAdvance(widest) + textMargins + 2;
}

int contentWidth(const UniformTableView* view, int column, RowSpan rows, bool withHeader)
{
    QStyleOptionViewItem option;
    option.initFrom(view);
    option.widget = view;
    int width = withHeader ? view->horizontalHeader()->sectionSizeHint(column) : 0;
    for (int row = rows.first; row < rows.end; ++row) {
        const QModelIndex index = view->model()->index(row, column);
        width = std::max(width, view->itemDelegateForIndex(index)->sizeHint(option, index).width());
    }
    return width;
}

} // namespace nanscope::widgets
