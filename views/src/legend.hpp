// SPDX-License-Identifier: GPL-3.0-or-later
// A row of colour swatches with their meaning, for the panels that colour things by health.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace nanscope::views {

struct LegendEntry
{
    QColor fill;
    QColor border;
    QString text;
    bool marker = false; // a downward triangle instead of a square
};

class Legend : public QWidget
{
    Q_OBJECT

public:
    explicit Legend(const std::vector<LegendEntry>& entries, QWidget* parent = nullptr);
};

} // namespace nanscope::views
