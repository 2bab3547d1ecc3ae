// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphstructureview.hpp"

#include "graphscene.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace nanscope::views {
namespace {

constexpr qreal kMinZoom = 0.02;
constexpr qreal kMaxZoom = 4;
constexpr qreal kStep = 1.25;
constexpr qreal kMaxFitZoom = 1.6; // what Fit may enlarge a small picture to

} // namespace

GraphStructureView::GraphStructureView(GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setFrameShape(QFrame::NoFrame);
    setBackgroundBrush(palette().color(QPalette::Base));
    setFocusPolicy(Qt::StrongFocus);
    // User actions only: a scroll bar set by the program emits no action.
    for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()})
        connect(bar, &QAbstractSlider::actionTriggered, this, [this] { m_fitted = false; });
}

void GraphStructureView::setZoom(qreal zoom)
{
    m_fitted = false;
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const qreal factor = zoom / this->zoom();
    if (std::abs(factor - 1) > 1e-6)
        scale(factor, factor);
}

void GraphStructureView::fitAll()
{
    const QRectF rect = sceneRect();
    if (rect.isEmpty())
        return;
    // The room the view has without scroll bars, as fitInView's margin of two pixels leaves it:
    // measured in the viewport, scroll bars left from a smaller pane would keep the picture
    // from fitting and so keep themselves.
    const QSizeF room = QSizeF(contentsRect().size()) - QSizeF(4, 4);
    const qreal fitting = std::min(room.width() / rect.width(), room.height() / rect.height());
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::NoAnchor);
    resetTransform();
    setZoom(std::clamp(fitting, m_fitFloor, kMaxFitZoom));
    const auto focused = fitting < m_fitFloor ? m_scene->focusedNode() : std::nullopt;
    centerOn(focused ? m_scene->nodeRect(*focused).center() : rect.center());
    setTransformationAnchor(anchor);
    m_fitted = true;
}

void GraphStructureView::centreOnRect(const QRectF& rect)
{
    m_fitted = false;
    centerOn(rect.center());
}

void GraphStructureView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_fitted)
        fitAll();
}

void GraphStructureView::zoomIn()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setZoom(zoom() * kStep);
    setTransformationAnchor(anchor);
}

void GraphStructureView::zoomOut()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setZoom(zoom() / kStep);
    setTransformationAnchor(anchor);
}

void GraphStructureView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        setZoom(zoom() * std::pow(kStep, event->angleDelta().y() / 120.0));
        event->accept();
        return;
    }
    m_fitted = false; // it scrolls
    QGraphicsView::wheelEvent(event);
}

bool GraphStructureView::event(QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Find)) {
        event->accept(); // comes back as a key press
        return true;
    }
    return QGraphicsView::event(event);
}

void GraphStructureView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Find)) {
        Q_EMIT findRequested();
        event->accept();
        return;
    }
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fitAll();
        break;
    default:
        QGraphicsView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void GraphStructureView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        m_pressPoint = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void GraphStructureView::mouseMoveEvent(QMouseEvent* event)
{
    // A drag pans the picture (ScrollHandDrag).
    if (m_pressPoint && (event->buttons() & Qt::LeftButton) &&
        (event->position().toPoint() - *m_pressPoint).manhattanLength() >=
            QApplication::startDragDistance())
        m_fitted = false;
    QGraphicsView::mouseMoveEvent(event);
}

void GraphStructureView::mouseReleaseEvent(QMouseEvent* event)
{
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || !m_pressPoint)
        return;
    const QPoint point = event->position().toPoint();
    const bool click =
        (point - *m_pressPoint).manhattanLength() < QApplication::startDragDistance();
    m_pressPoint.reset();
    if (!click)
        return;
    if (const auto node = m_scene->nodeAt(mapToScene(point)))
        Q_EMIT nodeClicked(*node);
}

} // namespace nanscope::views
