// SPDX-License-Identifier: GPL-3.0-or-later
// A small horizontal bar split into coloured parts by amount, e.g. how many elements of a tensor
// fall into each class, and an item delegate that draws one before a cell's text. Unlike
// HealthBarDelegate (one model role per count), the parts come whole in one role, with the
// cell's own text beside them.
#pragma once

#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QColor>
#include <QList>
#include <QMetaType>

class QPainter;

namespace nanscope::widgets {

struct BarSegment
{
    double amount = 0;
    QColor colour;
};
using BarSegments = QList<BarSegment>;

// Every non-zero part gets at least a couple of pixels: one NaN among a million must show.
void paintSegmentBar(QPainter& painter, const QRectF& rect, const BarSegments& segments,
                     const QColor& frame);

class SegmentBarDelegate : public PlainTextDelegate
{
    Q_OBJECT

public:
    // The role that holds a BarSegments value; cells without one are drawn as usual.
    static constexpr int SegmentsRole = Qt::UserRole + 64;
    static constexpr int BarWidth = 64;

    using PlainTextDelegate::PlainTextDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace nanscope::widgets

Q_DECLARE_METATYPE(nanscope::widgets::BarSegments)
