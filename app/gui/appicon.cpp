// SPDX-License-Identifier: GPL-3.0-or-later
#include "appicon.hpp"

#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSvgRenderer>

namespace nanscope::app {

QIcon appIcon()
{
    // Rendered here rather than through the SVG icon-engine plugin, which a system may lack.
    static const QIcon icon = [] {
        QIcon result;
        QSvgRenderer renderer(QStringLiteral(":/nanscope/nanscope.svg"));
        if (!renderer.isValid())
            return result;
        for (const int size : {16, 24, 32, 48, 64, 96, 128, 192, 256}) {
            QPixmap pixmap(size, size);
            pixmap.fill(Qt::transparent);
            QPainter painter(&pixmap);
            renderer.render(&painter);
            painter.end();
            result.addPixmap(pixmap);
        }
        return result;
    }();
    return icon;
}

QIcon originIcon()
{
    QIcon icon;
    const QColor ring = QGuiApplication::palette().color(QPalette::WindowText);
    for (const int size : {16, 22, 24, 32, 48}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const QPointF centre(size / 2.0, size / 2.0);
        const double pen = std::max(1.5, size / 12.0);
        painter.setPen(QPen(ring, pen));
        painter.drawEllipse(centre, size * 0.40, size * 0.40);
        painter.drawLine(QPointF(centre.x(), 0), QPointF(centre.x(), size * 0.22));
        painter.drawLine(QPointF(centre.x(), size * 0.78), QPointF(centre.x(), size));
        painter.drawLine(QPointF(0, centre.y()), QPointF(size * 0.22, centre.y()));
        painter.drawLine(QPointF(size * 0.78, centre.y()), QPointF(size, centre.y()));
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0xe5, 0x25, 0x92));
        painter.drawEllipse(centre, size * 0.17, size * 0.17);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace nanscope::app
