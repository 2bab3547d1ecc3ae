// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plaintextdelegate.hpp"

#include "nanscope/widgets/plaintooltip.hpp"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QToolTip>

namespace nanscope::widgets {

PlainTextDelegate::PlainTextDelegate(Qt::TextElideMode elideMode, QObject* parent)
    : QStyledItemDelegate(parent), m_elideMode(elideMode)
{}

void PlainTextDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (m_elideMode)
        option->textElideMode = *m_elideMode;
}

int PlainTextDelegate::textMargins(const QWidget* widget)
{
    const QStyle* style = widget ? widget->style() : QApplication::style();
    return 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1);
}

int PlainTextDelegate::textWidth(const QStyleOptionViewItem& option)
{
    return option.rect.width() - textMargins(option.widget);
}

bool PlainTextDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view,
                                  const QStyleOptionViewItem& option, const QModelIndex& index)
{
    if (!event || !view || event->type() != QEvent::ToolTip)
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QString text = index.data(Qt::ToolTipRole).toString();
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return false;
    }
    QToolTip::showText(event->globalPos(), plainToolTip(text), view->viewport(),
                       view->visualRect(index));
    return true;
}

} // namespace nanscope::widgets
