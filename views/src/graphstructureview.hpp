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
    void setZoom(qreal zoom); // also ends the fitted state, as the other moves below do
    // The zoom that fits the whole scene, but readable first: never below the fit floor (a
    // larger picture scrolls, centred on the focused op) and never more than kMaxFitZoom (a
    // small neighbourhood fills the pane without looking swollen).
    void fitAll();
    // The least zoom fitAll() uses: 1:1 for whole graphs (labels at the UI font's size: a big
    // graph scrolls rather than shrinks); less for a neighbourhood, which is seen whole or not
    // at all.
    void setFitFloor(qreal floor) { m_fitFloor = floor; }
    // Whether the picture is as fitAll() left it: then a resized pane fits it again (a dock
    // settling into the window's layout, the user dragging a splitter), until the user zooms
    // or scrolls.
    bool isFitted() const { return m_fitted; }
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
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    GraphScene* m_scene;
    std::optional<QPoint> m_pressPoint;
    qreal m_fitFloor = 1;
    bool m_fitted = false;
};

} // namespace nanscope::views
