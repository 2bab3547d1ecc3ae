// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/scopenamedelegate.hpp"

#include "shapedtext.hpp"

#include <QFontMetrics>

namespace nanscope::widgets {

QString elideScopeName(const QString& name, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    const QString last = name.mid(slash + 1);
    if (slash <= 0 || metrics.horizontalAdvance(last) >= width)
        return metrics.elidedText(last, Qt::ElideLeft, width);
    const QString tail = QLatin1Char('/') + last;
    const int room = width - metrics.horizontalAdvance(tail);
    const QString outer = metrics.elidedText(name.left(slash), Qt::ElideMiddle, room);
    // Too little room for any of the outer scopes: "…/last" rather than a lone "…".
    return outer == QStringLiteral("…") || outer.isEmpty() ? QStringLiteral("…") + tail
                                                           : outer + tail;
}

void ScopeNameDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const
{
    PlainTextDelegate::initStyleOption(option, index);
    const int width = textWidth(*option);
    if (ShapedText::advance(option->font, option->text) > width) // most names fit: measured once
        option->text = elideScopeName(option->text, option->fontMetrics, width);
    option->textElideMode = Qt::ElideNone;
}

} // namespace nanscope::widgets
