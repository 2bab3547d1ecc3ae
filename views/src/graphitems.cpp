// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphitems.hpp"

#include "nanscope/items/healthformat.hpp"
#include "nanscope/widgets/plaintooltip.hpp"

#include <QCursor>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <cmath>

namespace nanscope::views {
namespace {

constexpr qreal kRadius = 6;
constexpr qreal kFocusWidth = 3;
constexpr qreal kLabelPadding = 4;
constexpr qreal kArrowHalfWidth = 4.5;
constexpr qreal kTextInset = 7;      // between a box's side and its text
constexpr qreal kEdgeHoverWidth = 8; // the band along an edge that shows its tooltip
const QColor kText(0x20, 0x21, 0x24);
const QColor kMutedText(0x5f, 0x63, 0x68);

QString healthWords(const core::OpTrace& latest)
{
    if (!latest.trace)
        return QStringLiteral("not traced (up to the focused trace)");
    const QString where = QStringLiteral("trace #%1: ").arg(*latest.trace);
    const core::HealthDigest d = latest.health;
    if (!d.known())
        return where + QStringLiteral("health not recorded");
    if (!d.nonFinite())
        return where + QStringLiteral("finite");
    return where + items::nonFiniteKinds(d);
}

QString badge(core::NodeHealth health, core::HealthDigest digest)
{
    if (health == core::NodeHealth::NaN)
        return digest.has(core::health::NaN) ? QStringLiteral("NaN") : QStringLiteral("NaN/∞");
    if (health == core::NodeHealth::Infinite)
        return digest.has(core::health::NegInf) && !digest.has(core::health::PosInf)
                   ? QStringLiteral("−∞")
                   : QStringLiteral("∞");
    return {};
}

} // namespace

QColor healthFill(core::NodeHealth health)
{
    switch (health) {
    case core::NodeHealth::NaN:
        return {0xfc, 0xdc, 0xd9};
    case core::NodeHealth::Infinite:
        return {0xfe, 0xe9, 0xcc};
    case core::NodeHealth::Finite:
        return {0xfa, 0xfb, 0xfc};
    case core::NodeHealth::Unknown:
        break;
    }
    return {0xe6, 0xe8, 0xeb};
}

QColor healthBorder(core::NodeHealth health)
{
    switch (health) {
    case core::NodeHealth::NaN:
        return {0xd9, 0x30, 0x25};
    case core::NodeHealth::Infinite:
        return {0xe8, 0x71, 0x0a};
    case core::NodeHealth::Finite:
        return {0x80, 0x86, 0x8b};
    case core::NodeHealth::Unknown:
        break;
    }
    return {0xb0, 0xb4, 0xba};
}

QColor focusColour()
{
    return {0x1a, 0x73, 0xe8};
}

OpNodeItem::OpNodeItem(const PictureNode& node, std::size_t index, const QFont& font)
    : m_node(node), m_index(index), m_nameFont(nodeNameFont(font)), m_typeFont(nodeTypeFont(font))
{
    setPos(node.centre);
    setAcceptedMouseButtons(Qt::NoButton); // the view tells clicks from drags
    setZValue(node.focused ? 3 : 2);
    if (node.op != core::kNoOp || node.execution)
        setCursor(Qt::PointingHandCursor);
    updateToolTip();
}

void OpNodeItem::setFocusedOp(bool focused)
{
    if (m_node.focused == focused)
        return;
    m_node.focused = focused;
    setZValue(focused ? 3 : 2);
    update();
}

void OpNodeItem::setLatest(const core::OpTrace& latest)
{
    m_node.latest = latest;
    updateToolTip();
    update();
}

void OpNodeItem::updateToolTip()
{
    QStringList lines{m_node.name, m_node.type};
    if (m_node.op != core::kNoOp || m_node.execution)
        lines << healthWords(m_node.latest);
    setToolTip(widgets::plainToolTip(lines.join(u'\n')));
}

QStringList OpNodeItem::labels() const
{
    const qreal width = m_node.size.width() - 2 * kTextInset;
    return {QFontMetricsF(m_nameFont).elidedText(m_node.name, Qt::ElideMiddle, width),
            QFontMetricsF(m_typeFont).elidedText(m_node.type, Qt::ElideRight, width)};
}

QMarginsF OpNodeItem::overhang(const QFont& font)
{
    // Room for the focus ring, and for the badge that sits on the top-right corner.
    const qreal margin = kFocusWidth + 3;
    const qreal badge = QFontMetricsF(nodeTypeFont(font)).height();
    return {margin, std::max(margin, badge), std::max(margin, badge), margin};
}

QRectF OpNodeItem::boundingRect() const
{
    return QRectF(-m_node.size.width() / 2, -m_node.size.height() / 2, m_node.size.width(),
                  m_node.size.height()) +
           overhang(m_typeFont);
}

void OpNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const core::NodeHealth health = core::nodeHealth(m_node.latest.health);
    const QRectF box(-m_node.size.width() / 2, -m_node.size.height() / 2, m_node.size.width(),
                     m_node.size.height());
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (m_node.focused) {
        painter->setPen(QPen(focusColour(), kFocusWidth));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(box.adjusted(-3, -3, 3, 3), kRadius + 2, kRadius + 2);
    }
    QPen border(healthBorder(health), health == core::NodeHealth::Finite ? 1 : 1.6);
    if (health == core::NodeHealth::Unknown)
        border.setStyle(Qt::DashLine);
    painter->setPen(border);
    painter->setBrush(healthFill(health));
    painter->drawRoundedRect(box, kRadius, kRadius);

    // Text is unreadable when zoomed far out; the colours still tell the story.
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    if (lod < 0.45)
        return;
    const QFontMetricsF nameMetrics(m_nameFont);
    const QFontMetricsF typeMetrics(m_typeFont);
    const QString mark = badge(health, m_node.latest.health);
    const qreal textWidth = box.width() - 2 * kTextInset;
    const qreal top = box.top() + (box.height() - nameMetrics.height() - typeMetrics.height()) / 2;
    const QStringList lines = labels();
    painter->setFont(m_nameFont);
    painter->setPen(health == core::NodeHealth::Unknown ? kMutedText : kText);
    painter->drawText(QRectF(box.left() + kTextInset, top, textWidth, nameMetrics.height()),
                      Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, lines[0]);
    painter->setFont(m_typeFont);
    painter->setPen(kMutedText);
    const QString& type = lines[1];
    const QRectF typeRect(box.left() + kTextInset, top + nameMetrics.height(), textWidth,
                          typeMetrics.height());
    painter->drawText(typeRect, Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, type);
    if (!mark.isEmpty()) {
        // The kind of non-finite value on the corner, for readers who do not see red well.
        const qreal markWidth = typeMetrics.horizontalAdvance(mark) + 10;
        const qreal markHeight = typeMetrics.height();
        const QRectF chip(box.right() - markWidth * 0.6, box.top() - markHeight * 0.6, markWidth,
                          markHeight);
        painter->setPen(QPen(Qt::white, 1.5));
        painter->setBrush(healthBorder(health));
        painter->drawRoundedRect(chip, markHeight / 2, markHeight / 2);
        painter->setPen(Qt::white);
        painter->drawText(chip, Qt::AlignCenter | Qt::TextSingleLine, mark);
    }
}

EdgeItem::EdgeItem(const PictureEdge& edge) : m_path(edge.path)
{
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(0);
    if (edge.hasArrow) {
        const QLineF axis(edge.arrowBase, edge.arrowTip);
        QLineF normal = axis.normalVector();
        normal.setLength(kArrowHalfWidth);
        const QPointF side = normal.p2() - normal.p1();
        m_arrow << edge.arrowTip << edge.arrowBase + side << edge.arrowBase - side;
    }
    m_bounds = m_path.boundingRect().united(m_arrow.boundingRect()).adjusted(-3, -3, 3, 3);
    QPainterPathStroker stroker;
    stroker.setWidth(kEdgeHoverWidth);
    m_shape = stroker.createStroke(m_path);
    m_shape.addPolygon(m_arrow);
    if (!edge.label.isEmpty())
        setToolTip(widgets::plainToolTip(edge.label));
}

QPainterPath EdgeItem::shape() const
{
    return m_shape;
}

void EdgeItem::setHighlighted(bool highlighted)
{
    if (m_highlighted == highlighted)
        return;
    m_highlighted = highlighted;
    setZValue(highlighted ? 1 : 0);
    update();
}

QRectF EdgeItem::boundingRect() const
{
    return m_bounds;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QColor colour = m_highlighted ? QColor(0x3c, 0x40, 0x43) : QColor(0x9a, 0xa0, 0xa6);
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(colour, m_highlighted ? 1.8 : 1.2));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
    if (!m_arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawPolygon(m_arrow);
    }
}

EdgeLabelItem::EdgeLabelItem(const QString& text, const QFont& font)
    : m_text(text), m_font(nodeTypeFont(font))
{
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(1.5);
    const QFontMetricsF metrics(m_font);
    const qreal width = metrics.horizontalAdvance(text) + 2 * kLabelPadding;
    const qreal height = metrics.height() + 2;
    m_rect = QRectF(-width / 2, -height / 2, width, height);
    setToolTip(widgets::plainToolTip(text));
}

QRectF EdgeLabelItem::boundingRect() const
{
    return m_rect.adjusted(-1, -1, 1, 1);
}

void EdgeLabelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    if (option->levelOfDetailFromTransform(painter->worldTransform()) < 0.45)
        return;
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(QColor(0xda, 0xdc, 0xe0), 1));
    painter->setBrush(QColor(0xff, 0xff, 0xff, 0xee));
    painter->drawRoundedRect(m_rect, m_rect.height() / 2, m_rect.height() / 2);
    painter->setFont(m_font);
    painter->setPen(QColor(0x3c, 0x40, 0x43));
    painter->drawText(m_rect, Qt::AlignCenter | Qt::TextSingleLine, m_text);
}

} // namespace nanscope::views
