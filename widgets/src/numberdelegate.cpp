// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/numberdelegate.hpp"

#include "nanscope/widgets/numberformat.hpp"
#include "nanscope/widgets/plaintooltip.hpp"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QLocale>
#include <QToolTip>

namespace nanscope::widgets {
namespace {

bool isNumber(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Double:
        return true;
    default:
        return false;
    }
}

} // namespace

void NumberDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    PlainTextDelegate::initStyleOption(option, index);
    const QVariant value = index.data(Qt::DisplayRole);
    if (!isNumber(value))
        return;
    option->text = countThatFits(value.toDouble(), option->font, textWidth(*option));
    option->displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
}

bool NumberDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view,
                               const QStyleOptionViewItem& option, const QModelIndex& index)
{
    const QVariant value = index.data(Qt::DisplayRole);
    if (!event || !view || event->type() != QEvent::ToolTip || !isNumber(value))
        return PlainTextDelegate::helpEvent(event, view, option, index);
    const QString exact = value.typeId() == QMetaType::Double
                              ? QLocale().toString(value.toDouble(), 'g', 17)
                              : QLocale().toString(value.toULongLong());
    const QString own = index.data(Qt::ToolTipRole).toString();
    QToolTip::showText(event->globalPos(),
                       plainToolTip(own.isEmpty() ? exact : exact + QLatin1Char('\n') + own),
                       view->viewport(), view->visualRect(index));
    return true;
}

} // namespace nanscope::widgets
