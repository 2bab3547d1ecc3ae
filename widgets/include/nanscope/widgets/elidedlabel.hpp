// SPDX-License-Identifier: GPL-3.0-or-later
// A one-line label that shows plain text, elided to fit (a path keeps its file name visible),
// with the whole text in its tooltip.
#pragma once

#include <QFrame>

namespace nanscope::widgets {

class ElidedLabel : public QFrame
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return m_text; }
    void setElideMode(Qt::TextElideMode mode);
    Qt::TextElideMode elideMode() const { return m_mode; }
    // The text as painted now.
    QString elidedText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_text;
    Qt::TextElideMode m_mode = Qt::ElideMiddle;
};

} // namespace nanscope::widgets
