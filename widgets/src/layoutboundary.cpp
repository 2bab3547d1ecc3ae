// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/layoutboundary.hpp"

#include <QEvent>

namespace nanscope::widgets {

LayoutBoundary::LayoutBoundary(QWidget* content, QWidget* parent)
    : QWidget(parent), m_content(content)
{
    m_content->setParent(this);
    m_content->move(0, 0);
    setFocusProxy(m_content);
    adoptLimits();
}

QSize LayoutBoundary::sizeHint() const
{
    return m_content->sizeHint();
}

// What a layout would give the content at least: its own minimum where set, its hint elsewhere.
QSize LayoutBoundary::minimumSizeHint() const
{
    const QSize hint = m_content->minimumSizeHint();
    const QSize set = m_content->minimumSize();
    return {set.width() > 0 ? set.width() : hint.width(),
            set.height() > 0 ? set.height() : hint.height()};
}

bool LayoutBoundary::event(QEvent* event)
{
    // The content's hints may have changed: the layouts above are told now, and lay out later.
    if (event->type() == QEvent::LayoutRequest) {
        adoptLimits();
        updateGeometry();
    }
    return QWidget::event(event);
}

void LayoutBoundary::resizeEvent(QResizeEvent* event)
{
    m_content->setGeometry(rect());
    QWidget::resizeEvent(event);
}

void LayoutBoundary::adoptLimits()
{
    setSizePolicy(m_content->sizePolicy());
    setMaximumSize(m_content->maximumSize());
}

} // namespace nanscope::widgets
