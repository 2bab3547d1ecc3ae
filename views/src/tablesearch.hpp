// SPDX-License-Identifier: GPL-3.0-or-later
// A table panel's two ways to a row: its find bar (Ctrl+F; next, previous, "n of m") and its
// "Go to #" field (Ctrl+G). The panel says what a find and a go to do; this holds the widgets
// and what their keys do.
#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QLineEdit;
class QWidget;

namespace nanscope::widgets {
class FindBar;
}

namespace nanscope::views {

class TableSearch : public QObject
{
    Q_OBJECT

public:
    using Find = std::function<void(const QString& text, bool backward)>;
    // False when there is no such row (the panel says why).
    using GoTo = std::function<bool(quint64 index)>;

    TableSearch(const QString& findPlaceholder, const QString& goToToolTip, QWidget* parent);

    widgets::FindBar* findBar() const { return m_findBar; }
    QLineEdit* goToField() const { return m_goTo; }

    // `table` takes the keyboard back after a go to, or when the find bar closes.
    void connectTo(QWidget* table, const Find& find, GoTo goTo);
    void activateFind();
    void activateGoTo();
    // Another logdir: no "n of m", no index typed.
    void forget();

private:
    widgets::FindBar* m_findBar;
    QLineEdit* m_goTo;
};

} // namespace nanscope::views
