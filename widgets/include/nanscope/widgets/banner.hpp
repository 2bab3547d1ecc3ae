// SPDX-License-Identifier: GPL-3.0-or-later
// A message strip across the top of a window: an icon, a bold title, a sentence or two that
// explains, an optional action and a close button. Its text is always plain.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace nanscope::widgets {

class Banner : public QFrame
{
    Q_OBJECT

public:
    enum class Kind { Info, Warning, Error };

    explicit Banner(QWidget* parent = nullptr);

    // Shows the banner; an empty `actionText` hides the action button.
    void showMessage(Kind kind, const QString& title, const QString& text,
                     const QString& actionText = {});
    // Hides the banner without emitting dismissed().
    void clear();

    Kind kind() const { return m_kind; }
    QString title() const;
    QString text() const;

Q_SIGNALS:
    void actionTriggered();
    void dismissed();

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateIcon();

    Kind m_kind = Kind::Info;
    QLabel* m_icon = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_action = nullptr;
    QToolButton* m_close = nullptr;
};

} // namespace nanscope::widgets
