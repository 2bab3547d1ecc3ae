// SPDX-License-Identifier: GPL-3.0-or-later
// NaNscope's main window: the six panels as dock widgets arranged like Debugger V2, the start
// page, menus, toolbar and status bar, and the loading session they all share. It wires; the
// panels and models do the work.
#pragma once

#include <QMainWindow>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolButton;

namespace nanscope::items {
class LogdirSession;
}
namespace nanscope::views {
class AlertsPanel;
class ExecutionTimelinePanel;
class GraphExecutionPanel;
class GraphStructurePanel;
class Navigator;
class Panel;
class SourcePanel;
class StackTracePanel;
} // namespace nanscope::views
namespace nanscope::widgets {
class Banner;
class StartPage;
} // namespace nanscope::widgets

namespace nanscope::app {

class DemoRunner;
class RecentLogdirs;

struct MainWindowOptions
{
    // Restore and save the layout, the recent logdirs and the preferences (off for screenshots).
    bool useSettings = true;
};

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    items::LogdirSession* session() const { return m_session; }
    views::Navigator* navigator() const { return m_navigator; }
    views::AlertsPanel* alertsPanel() const { return m_alerts; }
    views::ExecutionTimelinePanel* timelinePanel() const { return m_timeline; }
    views::GraphStructurePanel* graphStructurePanel() const { return m_graphStructure; }
    views::GraphExecutionPanel* graphExecutionPanel() const { return m_graphExecution; }
    views::SourcePanel* sourcePanel() const { return m_source; }
    views::StackTracePanel* stackTracePanel() const { return m_stackTrace; }
    widgets::Banner* banner() const { return m_banner; }
    widgets::StartPage* startPage() const { return m_startPage; }
    DemoRunner* demoRunner() const { return m_demo; }
    QStringList recentLogdirs() const;
    bool isShowingStartPage() const;
    // True while a load runs or a panel works something out off the GUI thread.
    bool isBusy() const;
    // The counts in the status bar.
    QString countsText() const;

public Q_SLOTS:
    void openLogdir(const QString& path);
    void chooseLogdir();
    void openDemo();
    void reload();
    void closeLogdir();
    void setFollowing(bool following);
    void resetLayout();
    // What double-clicking the first alert of the list does; false when there is none.
    bool jumpToFirstAlert();
    void showAbout();

Q_SIGNALS:
    // A load finished (whether or not anything could be read).
    void logdirLoaded();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createPanels();
    QDockWidget* addPanelDock(views::Panel* panel, const QString& name, const QString& objectName);
    void arrangeDocks();
    void applyDefaultDockSizes();
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void connectSession();
    void restoreSettings();
    void saveSettings() const;
    void showWorkspace(bool workspace);
    void updateRecentMenu();
    void updateCounts();
    void updateActions();
    void showNotices();
    void showDiagnostics();
    void onLoadingFinished(bool cancelled);
    void onLoadingFailed(const QString& message);
    void copy();

    MainWindowOptions m_options;
    items::LogdirSession* m_session = nullptr;
    views::Navigator* m_navigator = nullptr;
    DemoRunner* m_demo = nullptr;
    std::unique_ptr<RecentLogdirs> m_recent;

    QMainWindow* m_dockHost = nullptr;
    QStackedWidget* m_pages = nullptr;
    widgets::StartPage* m_startPage = nullptr;
    widgets::Banner* m_banner = nullptr;
    views::AlertsPanel* m_alerts = nullptr;
    views::ExecutionTimelinePanel* m_timeline = nullptr;
    views::GraphStructurePanel* m_graphStructure = nullptr;
    views::GraphExecutionPanel* m_graphExecution = nullptr;
    views::SourcePanel* m_source = nullptr;
    views::StackTracePanel* m_stackTrace = nullptr;
    QList<QDockWidget*> m_docks;

    QLabel* m_counts = nullptr;
    QLabel* m_followState = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_demoAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_copyAction = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_goToAction = nullptr;
    QAction* m_backAction = nullptr;
    QAction* m_forwardAction = nullptr;
    QAction* m_nextAlertAction = nullptr;
    QAction* m_previousAlertAction = nullptr;
    QAction* m_originAction = nullptr;
    QAction* m_followAction = nullptr;
    QAction* m_resetLayoutAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_panelsMenu = nullptr;
    bool m_noticeDismissed = false;
    bool m_defaultSizesPending = true;
};

} // namespace nanscope::app
