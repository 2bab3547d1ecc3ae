// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineStrip's input: the wheel (pan, Ctrl to zoom), clicks and drags, keys, tooltips.
#include "nanscope/widgets/plaintooltip.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "timelinestriprows.hpp"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace nanscope::widgets {

void TimelineStrip::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        zoomBy(event->position().x(), std::pow(1.25, steps));
        event->accept();
        return;
    }
    // Either wheel pans: a mouse has only the vertical one.
    const QPoint pixels = event->pixelDelta();
    const QPoint angle = event->angleDelta();
    double delta = 0;
    if (!pixels.isNull())
        delta = pixels.x() != 0 ? pixels.x() : pixels.y();
    else
        delta = (angle.x() != 0 ? angle.x() : angle.y()) / 120.0 * m_scale.width / 8.0;
    m_scale.setScroll(m_scale.scroll - delta);
    userScrolled();
    event->accept();
}

void TimelineStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    m_pressPoint = event->position().toPoint();
    m_pressScroll = m_scale.scroll;
    m_dragging = false;
    event->accept();
}

void TimelineStrip::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint point = event->position().toPoint();
    if (m_pressPoint && (event->buttons() & Qt::LeftButton)) {
        if (!m_dragging &&
            (point - *m_pressPoint).manhattanLength() >= QApplication::startDragDistance()) {
            m_dragging = true;
            viewport()->setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging) {
            m_scale.setScroll(m_pressScroll - (point.x() - m_pressPoint->x()));
            userScrolled();
        }
        return;
    }
    const std::optional<std::uint64_t> hovered = itemAt(point);
    if (hovered != m_hovered) {
        m_hovered = hovered;
        viewport()->update();
    }
}

void TimelineStrip::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressPoint)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    const bool dragged = m_dragging;
    m_pressPoint.reset();
    m_dragging = false;
    viewport()->unsetCursor();
    if (!dragged)
        if (const auto item = itemAt(event->position().toPoint()))
            activate(*item);
    event->accept();
}

void TimelineStrip::leaveEvent(QEvent* event)
{
    m_hovered.reset();
    viewport()->update();
    QAbstractScrollArea::leaveEvent(event);
}

void TimelineStrip::keyPressEvent(QKeyEvent* event)
{
    const std::uint64_t count = itemCount();
    if (count == 0)
        return QAbstractScrollArea::keyPressEvent(event);
    const TimelineScale::Range visible = m_scale.visibleRange();
    const std::uint64_t page = std::max<std::uint64_t>(visible.size(), 2) - 1;
    const bool control = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Left:
        if (control)
            previousMarker();
        else
            activate(m_current ? (*m_current > 0 ? *m_current - 1 : 0) : visible.last - 1);
        break;
    case Qt::Key_Right:
        if (control)
            nextMarker();
        else
            activate(m_current ? std::min(*m_current + 1, count - 1) : visible.first);
        break;
    case Qt::Key_PageUp:
        activate(m_current ? (*m_current > page ? *m_current - page : 0) : visible.first);
        break;
    case Qt::Key_PageDown:
        activate(m_current ? std::min(*m_current + page, count - 1) : visible.first);
        break;
    case Qt::Key_Home:
        activate(0);
        break;
    case Qt::Key_End:
        activate(count - 1);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fit();
        break;
    default:
        return QAbstractScrollArea::keyPressEvent(event);
    }
    event->accept();
}

bool TimelineStrip::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::optional<std::uint64_t> item = itemAt(help->pos());
        if (item && m_source) {
            const QRect box(toPixels(m_scale.xOf(*item)), rows().markers.top(),
                            std::max(1, toPixels(m_scale.pixelsPerItem)), viewport()->height());
            QToolTip::showText(help->globalPos(), plainToolTip(m_source->toolTip(*item)),
                               viewport(), box);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace nanscope::widgets
