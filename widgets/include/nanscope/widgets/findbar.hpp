// SPDX-License-Identifier: GPL-3.0-or-later
// A find strip that sits under a view: a search field, previous/next, a status text and a close
// button. Enter (or F3) finds the next match, Shift+Enter (Shift+F3) the previous one, Escape
// closes. While the field has the keyboard, F3 is the bar's, not a window shortcut's.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace nanscope::widgets {

class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    QString text() const;
    void setText(const QString& text);
    void setPlaceholderText(const QString& text);
    // "No match", "Searching…", … (plain text); empty hides it.
    void setStatus(const QString& status);
    QString status() const;
    // The status of a find that went somewhere: "3 of 12", or "No match" when total is 0.
    void setMatch(quint64 ordinal, quint64 total);
    QLineEdit* lineEdit() const { return m_edit; }

public Q_SLOTS:
    // Shows the bar and puts the cursor in the field with its text selected.
    void activate();

Q_SIGNALS:
    void findNext(const QString& text);
    void findPrevious(const QString& text);
    void textEdited(const QString& text);
    void closed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QLineEdit* m_edit = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QToolButton* m_close = nullptr;
};

} // namespace nanscope::widgets
