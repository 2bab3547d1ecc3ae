// SPDX-License-Identifier: GPL-3.0-or-later
// A small rounded badge with a coloured background ("NaN 12"), for counts in panel headers.
// A checkable chip is also a toggle button (a filter): click, Space or Enter toggles it, and a
// checked chip wears a ring.
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

    void setCheckable(bool checkable);
    bool isCheckable() const { return m_checkable; }
    // Programmatic changes emit nothing; only the user's toggles emit toggled().
    void setChecked(bool checked);
    bool isChecked() const { return m_checked; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

Q_SIGNALS:
    void toggled(bool checked);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void toggleByUser();

    QString m_text;
    QColor m_color;
    bool m_checkable = false;
    bool m_checked = false;
};

} // namespace nanscope::widgets
