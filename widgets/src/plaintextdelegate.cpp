// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plaintextdelegate.hpp"

#include "nanscope/widgets/plaintooltip.hpp"

#include <QAbstractItemView>
#include <QHelpEvent>
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
