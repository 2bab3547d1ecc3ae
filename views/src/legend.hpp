// SPDX-License-Identifier: GPL-3.0-or-later
// A row of colour swatches with their meaning, for the panels that colour things by health.
// Where the row has no room for the words, it shows the swatches alone (each says its meaning in
// a tooltip), so that a legend never sets a dock's minimum width.
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

    QSize sizeHint() const override { return m_full; }
    // Nothing at all in a pane too narrow even for the swatches: the toolbar beside it keeps its
    // buttons, and every item explains itself in its tooltip.
    QSize minimumSizeHint() const override { return {0, m_full.height()}; }
    bool showsWords() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    std::vector<QWidget*> m_words;
    std::vector<QWidget*> m_swatches;
    QSize m_full;    // swatches and words
    QSize m_compact; // swatches alone
};

} // namespace nanscope::views
