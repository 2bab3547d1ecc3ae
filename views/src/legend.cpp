// SPDX-License-Identifier: GPL-3.0-or-later
#include "legend.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

namespace nanscope::views {
namespace {

QPixmap swatch(const LegendEntry& entry, int size, qreal ratio)
{
    QPixmap pixmap(QSize(size, size) * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(entry.border.isValid() ? QPen(entry.border, 1) : QPen(Qt::NoPen));
    painter.setBrush(entry.fill);
    if (entry.marker) {
        const QPointF points[3] = {{1, 2}, {size - 1.0, 2}, {size / 2.0, size - 2.0}};
        painter.drawPolygon(points, 3);
    } else {
        painter.drawRoundedRect(QRectF(1.5, 1.5, size - 3, size - 3), 2, 2);
    }
    return pixmap;
}

} // namespace

Legend::Legend(const std::vector<LegendEntry>& entries, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    // The widget's own size hints decide, not the words' minimum widths.
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    const int size = fontMetrics().height() - 3;
    for (const LegendEntry& entry : entries) {
        auto* icon = new QLabel(this);
        icon->setPixmap(swatch(entry, size, devicePixelRatioF()));
        icon->setToolTip(entry.text);
        auto* text = new QLabel(entry.text, this);
        text->setTextFormat(Qt::PlainText);
        text->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(icon);
        m_swatches.push_back(icon);
        layout->addWidget(text);
        layout->addSpacing(6);
        m_words.push_back(text);
    }
    m_full = layout->sizeHint();
    const auto entriesCount = static_cast<int>(entries.size());
    m_compact = QSize(entriesCount * (size + layout->spacing() + 6), m_full.height());
}

bool Legend::showsWords() const
{
    return !m_words.empty() && m_words.front()->isVisibleTo(this);
}

void Legend::resizeEvent(QResizeEvent* event)
{
    const bool room = width() >= m_full.width();
    for (QWidget* word : m_words)
        word->setVisible(room);
    const bool swatches = width() >= m_compact.width();
    for (QWidget* swatch : m_swatches)
        swatch->setVisible(swatches);
    QWidget::resizeEvent(event);
}

} // namespace nanscope::views
