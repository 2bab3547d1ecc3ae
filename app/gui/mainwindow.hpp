// SPDX-License-Identifier: GPL-3.0-or-later
// NaNscope's main window: the panels in their docks (DockLayout), the start page and the
// banner (CentralArea), the actions, menus and toolbar (MainWindowActions), the status bar
// (LogdirStatus), and the loading session they all share. It wires; they do the work.
#pragma once

#include "nanscope/core/logdirlayout.hpp"
#include "windowsettings.hpp"

#include <QMainWindow>
#include <memory>
#include <vector>

class QDockWidget;

namespace nanscope::core {
class Snapshot;
}
namespace nanscope::items {
class LogdirSession;
}
namespace nanscope::views {
class AlertsPanel;
class ExecutionTimelinePanel;
class ExecutionsPanel;
class GraphExecutionPanel;
class GraphStructurePanel;
class Navigator;
class SourcePanel;
class StackTracePanel;
class TensorPanel;
} // namespace nanscope::views
namespace nanscope::widgets {
class Banner;
class StartPage;
} // namespace nanscope::widgets

namespace nanscope::app {

class CentralArea;
class CompareDialog;
class DemoRunner;
class DockLayout;
class ExpectedValues;
class LogdirStatus;
class MainWindowActions;
class RecentLogdirs;
enum class Dock;

struct MainWindowOptions
{
    // Restore and save the layout, the recent logdirs and the preferences (off for screenshots).
    bool useSettings = true;
    // Where indexes of large logdirs are saved and found again (core::IndexCacheOptions). Empty:
    // the user's cache directory with useSettings, none without (a scripted run leaves nothing).
    QString indexCacheDirectory;
    // Where a large logdir's index keeps its arrays, mapped (core::SpillOptions). Empty: the
    // user's cache directory with useSettings, memory without.
    QString spillDirectory;
};

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    items::LogdirSession* session() const { return m_session; }
    views::Navigator* navigator() const { return m_navigator; }
    views::AlertsPanel* alertsPanel() const { return m_alerts; }
    views::ExecutionTimelinePanel* timelinePanel() const { return m_timeline; }
    views::GraphStructurePanel* graphStructurePanel() const { return m_graphStructure; }
    views::GraphExecutionPanel* graphExecutionPanel() const { return m_graphExecution; }
    views::ExecutionsPanel* executionsPanel() const { return m_executions; }
    views::SourcePanel* sourcePanel() const { return m_source; }
    views::StackTracePanel* stackTracePanel() const { return m_stackTrace; }
    views::TensorPanel* tensorPanel() const { return m_tensor; }
    widgets::Banner* banner() const { return m_banner; }
    widgets::StartPage* startPage() const { return m_startPage; }
    DemoRunner* demoRunner() const { return m_demo; }
    // File › Compare With…'s dialog; null until first used.
    CompareDialog* compareDialog() const { return m_compare; }
    QDockWidget* dock(Dock dock) const;
    MainWindowActions* actions() const { return m_actions; }
    QStringList recentLogdirs() const;
    bool isShowingStartPage() const;
    // True while a load runs or a panel works something out off the GUI thread.
    bool isBusy() const;
    // The counts in the status bar.
    QString countsText() const;
    // The non-finite values treated as expected in each logdir (kept in the settings).
    ExpectedValues* expectedValues() const { return m_expected.get(); }
    // Patterns set aside in every logdir of this run, not kept (the command line's --expect).
    void setCommandLineExpected(const QStringList& patterns);
    // What the reader of the open logdir is given: its list, then the command line's.
    QStringList expectedPatterns() const;

public Q_SLOTS:
    void openLogdir(const QString& path);
    void chooseLogdir();
    // File › Compare With…: picks run B, then compareWith().
    void chooseCompareLogdir();
    // Compares the open logdir (run A) with `path` (run B) in the Compare dialog.
    void compareWith(const QString& path);
    void openDemo();
    void reload();
    void closeLogdir();
    void setFollowing(bool following);
    void resetLayout();
    // What double-clicking the first alert of the list does; false when there is none.
    bool jumpToFirstAlert();
    void showAbout();
    // Adds `pattern` to the open logdir's expected values and reads the logdir again (from its
    // saved index: milliseconds); false when it is no pattern or already listed.
    bool treatAsExpected(const QString& pattern);
    // Replaces the open logdir's expected values, and reads it again when they changed.
    void setExpectedPatterns(const QStringList& patterns);
    void editExpectedValues();

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
    void connectActions();
    void connectSession();
    void showWorkspace(bool workspace);
    void applyPendingDockSizes();
    void updateRecentMenu();
    void updateActions();
    void onLoadingFinished();
    // Brings Graph Execution or Executions to the front of their tabs, by what the run holds, and
    // Tensor in front of Stack Trace when the run holds values (FULL_TENSOR).
    void raiseListOfRun(const std::shared_ptr<const core::Snapshot>& snapshot, bool finished);
    // Whether Edit › Find and Go to act on Executions rather than Graph Execution.
    bool listsExecutions() const;
    void onLoadingFailed();
    void chooseAmong(const QString& root, const std::vector<core::LogdirLayout>& logdirs);
    void copy();
    void applyExpected(const QString& path);
    QStringList patternsFor(const QString& path) const;

    WindowSettings m_settings;
    items::LogdirSession* m_session = nullptr;
    views::Navigator* m_navigator = nullptr;
    DemoRunner* m_demo = nullptr;
    CompareDialog* m_compare = nullptr;
    std::unique_ptr<RecentLogdirs> m_recent;
    std::unique_ptr<ExpectedValues> m_expected;
    QStringList m_commandLineExpected;

    CentralArea* m_central = nullptr;
    widgets::StartPage* m_startPage = nullptr;
    widgets::Banner* m_banner = nullptr;
    views::AlertsPanel* m_alerts = nullptr;
    views::ExecutionTimelinePanel* m_timeline = nullptr;
    views::GraphStructurePanel* m_graphStructure = nullptr;
    views::GraphExecutionPanel* m_graphExecution = nullptr;
    views::ExecutionsPanel* m_executions = nullptr;
    views::SourcePanel* m_source = nullptr;
    views::StackTracePanel* m_stackTrace = nullptr;
    views::TensorPanel* m_tensor = nullptr;
    std::unique_ptr<DockLayout> m_docks;
    MainWindowActions* m_actions = nullptr;

    LogdirStatus* m_status = nullptr;

    bool m_defaultSizesPending = true;
    bool m_listRaised = false; // for the logdir being loaded
};

} // namespace nanscope::app
