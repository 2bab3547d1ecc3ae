// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/chiplabel.hpp"

#include <QPainter>
#include <QPainterPath>

namespace nanscope::widgets {
namespace {

constexpr int kPadding = 7;

bool isDark(const QColor& color)
{
    return color.lightnessF() < 0.55;
}

} // namespace

ChipLabel::ChipLabel(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void ChipLabel::setColor(const QColor& color)
{
    m_color = color;
    update();
}

void ChipLabel::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateGeometry();
    update();
}

QSize ChipLabel::sizeHint() const
{
    const QFontMetrics metrics(font());
    return {metrics.horizontalAdvance(m_text) + 2 * kPadding, metrics.height() + 4};
}

void ChipLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor background = m_color;
    QColor foreground;
    if (background.isValid()) {
        foreground = isDark(background) ? Qt::white : QColor(0x21, 0x21, 0x21);
    } else {
        background = palette().color(QPalette::Text);
        background.setAlphaF(0.12f);
        foreground = palette().color(QPalette::Text);
    }
    if (!isEnabled()) {
        background.setAlphaF(background.alphaF() * 0.4f);
        foreground = palette().color(QPalette::Disabled, QPalette::Text);
    }
    QPainterPath path;
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    path.addRoundedRect(r, r.height() / 2, r.height() / 2);
    painter.fillPath(path, background);
    painter.setPen(foreground);
    painter.drawText(rect(), Qt::AlignCenter, m_text);
}

} // namespace nanscope::widgets
