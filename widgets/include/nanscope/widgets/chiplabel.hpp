// SPDX-License-Identifier: GPL-3.0-or-later
// A small rounded badge with a coloured background ("NaN 12"), for counts in panel headers.
#pragma once

#include <QColor>
#include <QWidget>

namespace nanscope::widgets {

class ChipLabel : public QWidget
{
    Q_OBJECT

public:
    explicit ChipLabel(QWidget* parent = nullptr);

    // An invalid colour paints a neutral chip that follows the palette.
    void setColor(const QColor& color);
    QColor color() const { return m_color; }
    void setText(const QString& text);
    QString text() const { return m_text; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_text;
    QColor m_color;
};

} // namespace nanscope::widgets
