// SPDX-License-Identifier: GPL-3.0-or-later
// A panel's row of tools in two parts: the leading ones on the left, the trailing ones (filters,
// a search field) on the right. When the panel is too narrow for both at their preferred widths,
// the trailing part moves to a line of its own below instead of squeezing a field down to "Fi…".
#pragma once

#include <QWidget>

class QHBoxLayout;

namespace nanscope::widgets {

class ToolRow : public QWidget
{
    Q_OBJECT

public:
    explicit ToolRow(QWidget* parent = nullptr);

    QHBoxLayout* leading() const { return m_leadingLayout; }
    QHBoxLayout* trailing() const { return m_trailingLayout; }
    // Whether the trailing part is on a line of its own (as last laid out).
    bool isWrapped() const;

private:
    class Layout;

    QWidget* m_leading;
    QWidget* m_trailing;
    QHBoxLayout* m_leadingLayout;
    QHBoxLayout* m_trailingLayout;
    Layout* m_layout;
};

} // namespace nanscope::widgets
