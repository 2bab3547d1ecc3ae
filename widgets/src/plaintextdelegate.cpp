// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plaintextdelegate.hpp"

#include "nanscope/widgets/plaintooltip.hpp"
#include "shapedtext.hpp"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QPainter>
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

bool PlainTextDelegate::paintsPlainly(const QStyleOptionViewItem& option)
{
    const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    // The styles whose item cells QCommonStyle paints; others (and style sheets) draw their own.
    const QString name = style->name();
    if (name != QLatin1String("fusion") && name != QLatin1String("windows"))
        return false;
    constexpr auto kDrawnByStyle = QStyleOptionViewItem::HasCheckIndicator |
                                   QStyleOptionViewItem::HasDecoration |
                                   QStyleOptionViewItem::WrapText;
    if (option.features & kDrawnByStyle)
        return false;
    if (option.state & (QStyle::State_HasFocus | QStyle::State_Editing))
        return false;
    // Centred text is placed to a subpixel the style's layout does not tell; no table of ours
    // centres its cells.
    if (option.displayAlignment & Qt::AlignHCenter)
        return false;
    // QStyledItemDelegate turns line breaks into line separators: several lines.
    return !option.text.contains(QChar::LineSeparator) && !option.text.contains(u'\n') &&
           !option.text.contains(u'\t');
}

void PlainTextDelegate::paintText(QPainter* painter, const QStyleOptionViewItem& option,
                                  const QRect& rect, const QString& text)
{
    if (text.isEmpty())
        return;
    QPalette::ColorGroup group =
        (option.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(option.state & QStyle::State_Active))
        group = QPalette::Inactive;
    const QPalette::ColorRole role =
        (option.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text;
    const int available = rect.width();
    QString shown = text;
    if (option.textElideMode != Qt::ElideNone && ShapedText::advance(option.font, text) > available)
        shown = QFontMetrics(option.font).elidedText(text, option.textElideMode, available);
    const QStaticText& layout = ShapedText::layout(option.font, shown);
    const QSizeF size = layout.size();
    const Qt::Alignment alignment =
        QStyle::visualAlignment(option.direction, option.displayAlignment);
    // QTextLayout places a line in fixed point, 1/64 of a pixel, as glyphs are placed.
    const qint64 free = qint64(available) * 64 - qRound64(size.width() * 64);
    qreal x = rect.left();
    if (alignment & Qt::AlignRight)
        x += qreal(free) / 64;
    const QRect line =
        QStyle::alignedRect(option.direction, option.displayAlignment & Qt::AlignVertical_Mask,
                            QSize(available, int(size.height())), rect);
    painter->save();
    painter->setPen(option.palette.color(group, role));
    painter->setFont(option.font);
    painter->drawStaticText(QPointF(x, line.top()), layout);
    painter->restore();
}

void PlainTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    if (!paintsPlainly(opt)) {
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        return;
    }
    // As the style paints a cell: within it, the text inside its margins.
    painter->save();
    painter->setClipRect(opt.rect, Qt::IntersectClip);
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    const int margin = textMargins(widget) / 2;
    paintText(painter, opt, opt.rect.adjusted(margin, 0, -margin, 0), opt.text);
    painter->restore();
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
