// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/segmentbar.hpp"

#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace nanscope::widgets {
namespace {

constexpr qreal kMinPart = 2;
constexpr int kBarGap = 6;

} // namespace

void paintSegmentBar(QPainter& painter, const QRectF& rect, const BarSegments& segments,
                     const QColor& frame)
{
    double total = 0;
    int parts = 0;
    for (const BarSegment& segment : segments) {
        if (segment.amount > 0) {
            total += segment.amount;
            ++parts;
        }
    }
    painter.save();
    painter.setPen(Qt::NoPen);
    if (total > 0) {
        // Reserve the minimum for every part, share the rest by amount.
        const qreal spare = std::max<qreal>(0, rect.width() - parts * kMinPart);
        qreal x = rect.left();
        for (const BarSegment& segment : segments) {
            if (segment.amount <= 0)
                continue;
            const qreal width = kMinPart + spare * (segment.amount / total);
            painter.fillRect(QRectF(x, rect.top(), width, rect.height()), segment.colour);
            x += width;
        }
    }
    painter.setPen(QPen(frame, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    painter.restore();
}

void SegmentBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const
{
    const QVariant value = index.data(SegmentsRole);
    if (!value.canConvert<BarSegments>())
        return PlainTextDelegate::paint(painter, option, index);
    QStyleOptionViewItem textOption = option;
    initStyleOption(&textOption, index);
    const QRect cell = textOption.rect;
    // The background and selection first, then the bar, then the text beside it.
    QStyleOptionViewItem background = textOption;
    background.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);
    const int barHeight = std::min(cell.height() - 6, 10);
    const QRectF bar(cell.left() + 4, cell.top() + (cell.height() - barHeight) / 2.0, BarWidth,
                     barHeight);
    paintSegmentBar(*painter, bar, value.value<BarSegments>(), option.palette.color(QPalette::Mid));
    textOption.rect = cell.adjusted(4 + BarWidth + kBarGap, 0, 0, 0);
    textOption.showDecorationSelected = false;
    textOption.backgroundBrush = Qt::NoBrush;
    style->drawControl(QStyle::CE_ItemViewItem, &textOption, painter, widget);
}

QSize SegmentBarDelegate::sizeHint(const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(SegmentsRole).canConvert<BarSegments>())
        size.rwidth() += 4 + BarWidth + kBarGap;
    return size;
}

} // namespace nanscope::widgets
