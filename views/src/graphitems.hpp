// SPDX-License-Identifier: GPL-3.0-or-later
// The graphics items of the graph structure panel: op boxes coloured by health, edges with
// arrowheads, and tensor labels on edges. All text is painted as plain text.
#pragma once

#include "graphpicture.hpp"

#include <QGraphicsItem>
#include <QStringList>

namespace nanscope::views {

// Fill and border of a box, by health; fixed light colours so that the dark text stays readable
// in dark themes too.
QColor healthFill(core::NodeHealth health);
QColor healthBorder(core::NodeHealth health);
QColor focusColour();

class OpNodeItem : public QGraphicsItem
{
public:
    OpNodeItem(const PictureNode& node, std::size_t index, const QFont& font);

    std::size_t index() const { return m_index; }
    // The two lines the box shows (name, type), elided to its width as painted.
    QStringList labels() const;
    const QFont& nameFont() const { return m_nameFont; }
    const QFont& typeFont() const { return m_typeFont; }
    void setFocusedOp(bool focused);
    void setLatest(const core::OpTrace& latest);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    // How far a box's drawing reaches past its size: the focus ring, and the health badge on
    // its top-right corner.
    static QMarginsF overhang(const QFont& font);

private:
    void updateToolTip();

    PictureNode m_node;
    std::size_t m_index;
    QFont m_nameFont;
    QFont m_typeFont;
};

// An edge; hovering over it shows the tensor it carries ("dense/MatMul:0") as a tooltip.
class EdgeItem : public QGraphicsItem
{
public:
    explicit EdgeItem(const PictureEdge& edge);

    void setHighlighted(bool highlighted);
    QRectF boundingRect() const override;
    // A band along the line, so that the tooltip is the edge's only near the line itself.
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPainterPath m_path;
    QPainterPath m_shape;
    QPolygonF m_arrow;
    QRectF m_bounds;
    bool m_highlighted = false;
};

class EdgeLabelItem : public QGraphicsItem
{
public:
    EdgeLabelItem(const QString& text, const QFont& font);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_text;
    QFont m_font;
    QRectF m_rect;
};

} // namespace nanscope::views
