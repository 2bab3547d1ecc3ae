// SPDX-License-Identifier: GPL-3.0-or-later
// A holder that keeps a widget's layout changes from relaying out the whole window at once.
#pragma once

#include <QWidget>

namespace nanscope::widgets {

// Holds `content`, filling itself with it, and offers the content's size hints, size policy and
// limits as its own. What it adds: Qt shows a child by laying out every ancestor that has a
// layout, up to the window, there and then. In a main window of docks each such pass sizes every
// dock (5 000 queries of their title bars), so a panel that showed three widgets for its first
// content relaid the window out three times in one click. This holder has no layout: a showing
// inside it lays out the content only, and the window's own pass follows once, as a posted
// request, however many widgets were shown.
class LayoutBoundary : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutBoundary(QWidget* content, QWidget* parent = nullptr);

    QWidget* content() const { return m_content; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void adoptLimits();

    QWidget* m_content;
};

} // namespace nanscope::widgets
