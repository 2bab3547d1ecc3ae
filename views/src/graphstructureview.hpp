// SPDX-License-Identifier: GPL-3.0-or-later
// The graph view: zoom (Ctrl+wheel, +/-, 0 to fit), pan (drag, scroll bars), and clicks on
// boxes, told apart from drags. Its Find keys are its own.
#pragma once

#include <QGraphicsView>
#include <optional>

namespace nanscope::views {

class GraphScene;

class GraphStructureView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit GraphStructureView(GraphScene* scene, QWidget* parent = nullptr);

    qreal zoom() const { return transform().m11(); }
    void setZoom(qreal zoom);
    // The zoom that fits the whole scene, but readable first: never below 1:1 (where the labels
    // are the UI font's size: a larger graph scrolls, centred on the focused op) and never more
    // than kMaxFitZoom (a small neighbourhood fills the pane without looking swollen).
    void fitAll();
    // Keeps the zoom and brings the rectangle to the middle.
    void centreOnRect(const QRectF& rect);

public Q_SLOTS:
    void zoomIn();
    void zoomOut();

Q_SIGNALS:
    void nodeClicked(std::size_t node);
    // Ctrl+F (the platform's Find keys) while the view has the keyboard: the window's Find
    // action is for Graph Execution, this one finds ops in the picture's graph.
    void findRequested();

protected:
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    GraphScene* m_scene;
    std::optional<QPoint> m_pressPoint;
};

} // namespace nanscope::views
