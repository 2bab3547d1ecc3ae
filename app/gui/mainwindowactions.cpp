// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindowactions.hpp"

#include "appicon.hpp"
#include "recentlogdirs.hpp"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

namespace nanscope::app {

MainWindowActions::MainWindowActions(QMainWindow* window) : QObject(window)
{
    QStyle* s = window->style();
    const auto make = [window](const QString& text, const QKeySequence& shortcut = {},
                               const QString& toolTip = {}, const QIcon& icon = {}) {
        auto* action = new QAction(icon, text, window);
        action->setShortcut(shortcut);
        if (!toolTip.isEmpty())
            action->setToolTip(toolTip);
        return action;
    };

    open = make(tr("&Open Logdir…"), QKeySequence::Open, tr("Open a tfdbg2 logdir (Ctrl+O)"),
                s->standardIcon(QStyle::SP_DialogOpenButton));
    demo = make(tr("Open the &Demo"), {},
                tr("Run the tutorial's buggy network into a temporary logdir and open it"));
    compareWith = make(tr("Compare &With…"), {},
                       tr("Compare this logdir (run A) with another run of the same program "
                          "(run B): the first op that is finite in one and NaN or ±inf in the "
                          "other"));
    reload = make(tr("&Reload"), Qt::Key_F5, tr("Read the logdir again (F5)"),
                  s->standardIcon(QStyle::SP_BrowserReload));
    close = make(tr("&Close Logdir"), QKeySequence::Close);
    quit = make(tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    copy = make(tr("&Copy"), QKeySequence::Copy);
    find = make(tr("&Find Op…"), QKeySequence::Find,
                tr("Find a graph execution by op name or type, or an execution by op type or "
                   "module (Ctrl+F)"));
    goTo = make(tr("&Go to Index…"), Qt::CTRL | Qt::Key_G);
    expectedValues = make(tr("&Expected Values…"), {},
                          tr("The non-finite values this logdir's program makes on purpose: "
                             "set aside, not counted, never the origin"));

    back = make(tr("&Back"), QKeySequence::Back, tr("Back to the previous focus (Alt+Left)"),
                s->standardIcon(QStyle::SP_ArrowBack));
    forward = make(tr("&Forward"), QKeySequence::Forward, tr("Forward again (Alt+Right)"),
                   s->standardIcon(QStyle::SP_ArrowForward));
    previousAlert =
        make(tr("&Previous Alert"), Qt::SHIFT | Qt::Key_F3,
             tr("Focus the previous alert (Shift+F3)"), s->standardIcon(QStyle::SP_ArrowUp));
    nextAlert = make(tr("&Next Alert"), Qt::Key_F3, tr("Focus the next alert (F3)"),
                     s->standardIcon(QStyle::SP_ArrowDown));
    origin = make(tr("Go to &Origin"), Qt::CTRL | Qt::SHIFT | Qt::Key_O,
                  tr("Focus the op that made the first NaN or ∞ from finite inputs "
                     "(Ctrl+Shift+O)"),
                  originIcon());

    follow = make(tr("F&ollow Logdir"), Qt::CTRL | Qt::SHIFT | Qt::Key_F,
                  tr("Read events as the program appends them (Ctrl+Shift+F)"),
                  s->standardIcon(QStyle::SP_MediaPlay));
    follow->setCheckable(true);
    resetLayout = make(tr("&Reset Layout"));

    about = make(tr("&About NaNscope"));
    about->setMenuRole(QAction::AboutRole);

    m_recentMenu = new QMenu(tr("Open &Recent"), window);
}

void MainWindowActions::addMenus(QMenuBar* bar, const QList<QDockWidget*>& docks)
{
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(open);
    file->addMenu(m_recentMenu);
    file->addAction(demo);
    file->addSeparator();
    file->addAction(compareWith);
    file->addSeparator();
    file->addAction(reload);
    file->addAction(close);
    file->addSeparator();
    file->addAction(quit);

    QMenu* edit = bar->addMenu(tr("&Edit"));
    edit->addAction(copy);
    edit->addSeparator();
    edit->addAction(find);
    edit->addAction(goTo);
    edit->addSeparator();
    edit->addAction(expectedValues);

    QMenu* view = bar->addMenu(tr("&View"));
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : docks) {
        QAction* toggle = dock->toggleViewAction();
        // The dock's title gains a count ("Alerts (34)"); the menu keeps naming the panel.
        const QString name = dock->windowTitle();
        connect(dock, &QDockWidget::windowTitleChanged, toggle,
                [toggle, name] { toggle->setText(name); });
        panels->addAction(toggle);
    }
    view->addAction(resetLayout);
    view->addSeparator();
    view->addAction(follow);

    QMenu* go = bar->addMenu(tr("&Go"));
    go->addAction(back);
    go->addAction(forward);
    go->addSeparator();
    go->addAction(nextAlert);
    go->addAction(previousAlert);
    go->addAction(origin);
    go->addSeparator();
    go->addAction(goTo);

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(about);
}

void MainWindowActions::addToolBar(QMainWindow* window)
{
    QToolBar* bar = window->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setIconSize(QSize(18, 18));
    bar->addAction(open);
    bar->addAction(reload);
    bar->addSeparator();
    bar->addAction(back);
    bar->addAction(forward);
    bar->addSeparator();
    // The alert actions and Follow with their names beside the icons.
    for (QAction* action : {previousAlert, nextAlert, origin, follow}) {
        if (action == follow)
            bar->addSeparator();
        bar->addAction(action);
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action)))
            button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    }
}

void MainWindowActions::setRecentLogdirs(const QStringList& paths)
{
    m_recentMenu->clear();
    for (const QString& path : paths) {
        QString label = displayPath(path);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* action = m_recentMenu->addAction(label);
        connect(action, &QAction::triggered, this, [this, path] { Q_EMIT recentActivated(path); });
    }
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("No recent logdirs"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("Clear List"));
    clear->setEnabled(!paths.isEmpty());
    connect(clear, &QAction::triggered, this, &MainWindowActions::clearRecentRequested);
}

} // namespace nanscope::app
