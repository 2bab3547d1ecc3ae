// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's actions, menus and toolbar: their names, icons, shortcuts, tooltips and
// order. What an action does is the window's business: it connects them.
#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QMenuBar;

namespace nanscope::app {

class MainWindowActions : public QObject
{
    Q_OBJECT

public:
    // The actions take `window`'s shortcut context and style.
    explicit MainWindowActions(QMainWindow* window);

    // File, Edit, View (the docks' toggles under Panels), Go and Help.
    void addMenus(QMenuBar* bar, const QList<QDockWidget*>& docks);
    void addToolBar(QMainWindow* window);
    // File › Open Recent, about to show: the window fills it with setRecentLogdirs().
    QMenu* recentMenu() const { return m_recentMenu; }
    void setRecentLogdirs(const QStringList& paths);

    // File
    QAction* open = nullptr;
    QAction* demo = nullptr;
    QAction* compareWith = nullptr;
    QAction* reload = nullptr;
    QAction* close = nullptr;
    QAction* quit = nullptr;
    // Edit
    QAction* copy = nullptr;
    QAction* find = nullptr;
    QAction* goTo = nullptr;
    QAction* expectedValues = nullptr;
    // View
    QAction* resetLayout = nullptr;
    QAction* follow = nullptr; // checkable
    // Go
    QAction* back = nullptr;
    QAction* forward = nullptr;
    QAction* nextAlert = nullptr;
    QAction* previousAlert = nullptr;
    QAction* origin = nullptr;
    // Help
    QAction* about = nullptr;

Q_SIGNALS:
    void recentActivated(const QString& path);
    void clearRecentRequested();

private:
    QMenu* m_recentMenu = nullptr;
};

} // namespace nanscope::app
