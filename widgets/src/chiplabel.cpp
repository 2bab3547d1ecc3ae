// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/chiplabel.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

namespace nanscope::widgets {
namespace {

constexpr int kPadding = 7;
constexpr int kRing = 2; // the checked ring's width, inside the chip's rect

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

void ChipLabel::setCheckable(bool checkable)
{
    m_checkable = checkable;
    setFocusPolicy(checkable ? Qt::StrongFocus : Qt::NoFocus);
    if (checkable)
        setCursor(Qt::PointingHandCursor);
    else
        unsetCursor();
    if (!checkable)
        setChecked(false);
}

void ChipLabel::setChecked(bool checked)
{
    if (checked == m_checked || (checked && !m_checkable))
        return;
    m_checked = checked;
    update();
}

void ChipLabel::toggleByUser()
{
    if (!m_checkable || !isEnabled())
        return;
    setChecked(!m_checked);
    Q_EMIT toggled(m_checked);
}

void ChipLabel::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_checkable && event->button() == Qt::LeftButton &&
        rect().contains(event->position().toPoint()))
        toggleByUser();
    else
        QWidget::mouseReleaseEvent(event);
}

void ChipLabel::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if (m_checkable && (key == Qt::Key_Space || key == Qt::Key_Return || key == Qt::Key_Enter))
        toggleByUser();
    else
        QWidget::keyPressEvent(event);
}

QSize ChipLabel::sizeHint() const
{
    const QFontMetrics metrics(font());
    return {metrics.horizontalAdvance(m_text) + 2 * kPadding + 2 * kRing,
            metrics.height() + 4 + 2 * kRing};
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
    // The chip sits inside the ring's room, so that checking it never moves the layout.
    const QRectF outer = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    const QRectF r = outer.adjusted(kRing, kRing, -kRing, -kRing);
    QPainterPath path;
    path.addRoundedRect(r, r.height() / 2, r.height() / 2);
    painter.fillPath(path, background);
    if (m_checked || hasFocus()) {
        QPen ring(palette().color(m_checked ? QPalette::Text : QPalette::Highlight), kRing);
        if (!m_checked)
            ring.setStyle(Qt::DotLine);
        painter.setPen(ring);
        const qreal half = kRing / 2.0;
        const QRectF ringRect = outer.adjusted(half, half, -half, -half);
        painter.drawRoundedRect(ringRect, ringRect.height() / 2, ringRect.height() / 2);
    }
    painter.setPen(foreground);
    painter.drawText(r, Qt::AlignCenter, m_text);
}

} // namespace nanscope::widgets
