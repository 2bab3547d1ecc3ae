// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.hpp"

#include "aboutbox.hpp"
#include "appicon.hpp"
#include "centralarea.hpp"
#include "comparedialog.hpp"
#include "demorunner.hpp"
#include "docklayout.hpp"
#include "expectedvalues.hpp"
#include "expectedvaluesdialog.hpp"
#include "logdirpicker.hpp"
#include "logdirstatus.hpp"
#include "mainwindowactions.hpp"
#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/views/sourcepanel.hpp"
#include "nanscope/views/stacktracepanel.hpp"
#include "nanscope/views/tensorpanel.hpp"
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/startpage.hpp"
#include "nanscope/widgets/whenidle.hpp"
#include "recentlogdirs.hpp"
#include "windowsettings.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTimer>

namespace nanscope::app {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), m_settings(options.useSettings),
      m_recent(std::make_unique<RecentLogdirs>(options.useSettings)),
      m_expected(std::make_unique<ExpectedValues>(options.useSettings))
{
    setWindowTitle(tr("NaNscope"));
    setWindowIcon(appIcon());
    setAcceptDrops(true);
    m_session = new items::LogdirSession(this);
    m_session->setMaxMemoryBytes(m_settings.maxMemoryBytes());
    core::IndexCacheOptions indexCache;
    if (!options.indexCacheDirectory.isEmpty())
        indexCache.directory = options.indexCacheDirectory.toStdString();
    else if (options.useSettings)
        indexCache.directory = core::defaultIndexCacheDirectory();
    m_session->setIndexCache(indexCache);
    core::SpillOptions spill;
    if (!options.spillDirectory.isEmpty())
        spill.directory = options.spillDirectory.toStdString();
    else if (options.useSettings)
        spill.directory = core::defaultSpillDirectory();
    m_session->setSpill(spill);
    m_navigator = new views::Navigator(this);
    m_demo = new DemoRunner(this);

    // The panels live in a main window of their own, so that the banner spans the window
    // above them and the start page can take their place.
    m_docks = std::make_unique<DockLayout>(this);
    m_central = new CentralArea(m_docks->host(), this);
    m_banner = m_central->banner();
    m_startPage = m_central->startPage();
    setCentralWidget(m_central);

    createPanels();
    m_actions = new MainWindowActions(this);
    m_actions->addMenus(menuBar(), m_docks->docks());
    m_actions->addToolBar(this);
    m_status = new LogdirStatus(m_session, m_banner, this);
    connectActions();
    connectSession();
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        setGeometry(defaultWindowGeometry(screen->availableGeometry()));
    if (m_settings.restore(this, *m_docks, m_stackTrace))
        m_defaultSizesPending = false;
    showWorkspace(false);
    updateRecentMenu();
    updateActions();
    // What checking a logdir's records needs once is built while the window waits, not in the
    // event that opens the first logdir.
    widgets::whenIdle(this, [] { core::prepareRecordChecks(); });
}

MainWindow::~MainWindow() = default;

void MainWindow::createPanels()
{
    m_alerts = new views::AlertsPanel(m_navigator);
    m_timeline = new views::ExecutionTimelinePanel(m_navigator);
    m_graphStructure = new views::GraphStructurePanel(m_navigator);
    m_graphExecution = new views::GraphExecutionPanel(m_navigator);
    m_executions = new views::ExecutionsPanel(m_navigator);
    connect(m_executions, &views::ExecutionsPanel::hostRequested, this,
            [this](const QString& host) {
                m_session->setMainHost(host); // as the banner's "Read host" does
                m_session->reload();
            });
    m_source = new views::SourcePanel(m_navigator);
    m_stackTrace = new views::StackTracePanel(m_navigator);
    m_tensor = new views::TensorPanel(m_navigator);
    m_docks->addDock(Dock::Alerts, m_alerts);
    m_docks->addDock(Dock::ExecutionTimeline, m_timeline);
    m_docks->addDock(Dock::GraphStructure, m_graphStructure);
    m_docks->addDock(Dock::GraphExecution, m_graphExecution);
    m_docks->addDock(Dock::Executions, m_executions);
    m_docks->addDock(Dock::Source, m_source);
    m_docks->addDock(Dock::StackTrace, m_stackTrace);
    m_docks->addDock(Dock::Tensor, m_tensor);
    m_docks->arrange();
}

QDockWidget* MainWindow::dock(Dock dock) const
{
    return m_docks->dock(dock);
}

void MainWindow::resetLayout()
{
    m_docks->arrange();
    m_docks->applyDefaultSizes();
    m_defaultSizesPending = false;
    // The list the open run needs in front again (arrange() put Graph Execution there).
    m_listRaised = false;
    raiseListOfRun(m_session->snapshot(), !m_session->isLoading());
}

void MainWindow::connectActions()
{
    const MainWindowActions& a = *m_actions;
    connect(a.open, &QAction::triggered, this, &MainWindow::chooseLogdir);
    connect(a.demo, &QAction::triggered, this, &MainWindow::openDemo);
    connect(a.compareWith, &QAction::triggered, this, &MainWindow::chooseCompareLogdir);
    connect(a.reload, &QAction::triggered, this, &MainWindow::reload);
    connect(a.close, &QAction::triggered, this, &MainWindow::closeLogdir);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.copy, &QAction::triggered, this, &MainWindow::copy);
    connect(a.find, &QAction::triggered, this, [this] {
        if (listsExecutions()) {
            m_docks->reveal(Dock::Executions);
            m_executions->activateFind();
            return;
        }
        m_docks->reveal(Dock::GraphExecution);
        m_graphExecution->activateFind();
    });
    connect(a.goTo, &QAction::triggered, this, [this] {
        if (listsExecutions()) {
            m_docks->reveal(Dock::Executions);
            m_executions->activateGoTo();
            return;
        }
        m_docks->reveal(Dock::GraphExecution);
        m_graphExecution->activateGoTo();
    });
    connect(a.back, &QAction::triggered, m_navigator, &views::Navigator::back);
    connect(a.forward, &QAction::triggered, m_navigator, &views::Navigator::forward);
    connect(a.previousAlert, &QAction::triggered, m_alerts, &views::AlertsPanel::previousAlert);
    connect(a.nextAlert, &QAction::triggered, m_alerts, &views::AlertsPanel::nextAlert);
    connect(a.origin, &QAction::triggered, this, [this] {
        m_docks->reveal(Dock::Alerts);
        m_alerts->goToOrigin();
    });
    connect(a.follow, &QAction::toggled, this, &MainWindow::setFollowing);
    connect(a.resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    connect(a.about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(a.expectedValues, &QAction::triggered, this, &MainWindow::editExpectedValues);
    connect(m_alerts, &views::AlertsPanel::treatAsExpectedRequested, this,
            &MainWindow::treatAsExpected);
    connect(m_timeline, &views::ExecutionTimelinePanel::treatAsExpectedRequested, this,
            &MainWindow::treatAsExpected);
    connect(a.recentMenu(), &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    connect(m_actions, &MainWindowActions::recentActivated, this, &MainWindow::openLogdir);
    connect(m_actions, &MainWindowActions::clearRecentRequested, this, [this] {
        m_recent->clear();
        m_startPage->setRecent({});
    });
}

void MainWindow::connectSession()
{
    connect(m_session, &items::LogdirSession::loadingStarted, this, [this](const QString& path) {
        setWindowTitle(tr("%1 — NaNscope").arg(displayPath(path)));
        m_listRaised = false;
        showWorkspace(true);
        updateActions();
    });
    connect(m_session, &items::LogdirSession::snapshotChanged, this,
            [this](const items::SnapshotPtr& snapshot) {
                m_navigator->setSnapshot(snapshot);
                raiseListOfRun(snapshot, false);
            });
    connect(m_session, &items::LogdirSession::loadingFinished, this,
            &MainWindow::onLoadingFinished);
    connect(m_session, &items::LogdirSession::loadingFailed, this, &MainWindow::onLoadingFailed);
    connect(m_session, &items::LogdirSession::closed, this, [this] {
        m_navigator->setSnapshot(nullptr);
        setWindowTitle(tr("NaNscope"));
        showWorkspace(false);
        updateActions();
    });
    connect(m_session, &items::LogdirSession::followingChanged, m_actions->follow,
            &QAction::setChecked);
    connect(m_navigator, &views::Navigator::historyChanged, this, &MainWindow::updateActions);
    connect(m_alerts, &views::AlertsPanel::originChanged, this, &MainWindow::updateActions);
    // Each analysis of the alerts ends with it, with what it set aside.
    connect(m_alerts, &views::AlertsPanel::originChanged, this,
            [this] { m_status->setSetAsideAlerts(m_alerts->setAsideAlertCount()); });
    connect(m_stackTrace, &views::StackTracePanel::frameworkPatternsEdited, this,
            [this](const QStringList& patterns) { m_settings.saveFrameworkPatterns(patterns); });

    connect(m_startPage, &widgets::StartPage::openRequested, this, &MainWindow::chooseLogdir);
    connect(m_startPage, &widgets::StartPage::demoRequested, this, &MainWindow::openDemo);
    connect(m_startPage, &widgets::StartPage::recentActivated, this, &MainWindow::openLogdir);
    connect(m_demo, &DemoRunner::started, this, [this] {
        m_startPage->setBusy(tr("Running the demo: training the tutorial's network with its "
                                "log-of-zero bug…"));
        statusBar()->showMessage(tr("Running the demo…"));
        updateActions();
    });
    connect(m_demo, &DemoRunner::finished, this, [this](const QString& logdir) {
        m_startPage->setBusy({});
        openLogdir(logdir);
    });
    connect(m_demo, &DemoRunner::failed, this, [this](const QString& message) {
        m_startPage->setBusy({});
        statusBar()->clearMessage();
        m_banner->showMessage(widgets::Banner::Kind::Error, tr("The demo could not run"), message);
        updateActions();
    });
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    applyPendingDockSizes();
}

void MainWindow::applyPendingDockSizes()
{
    // Dock sizes need the docks laid out: in a shown window, in place of the start page.
    if (!m_defaultSizesPending || !isVisible() || isShowingStartPage())
        return;
    m_defaultSizesPending = false;
    QTimer::singleShot(0, this, [this] {
        if (isShowingStartPage())
            m_defaultSizesPending = true; // a failed load took the docks away again
        else
            m_docks->applyDefaultSizes();
    });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_settings.save(this, *m_docks);
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    // A file of a logdir opens its folder.
    openLogdir(urls.first().toLocalFile());
}

void MainWindow::showWorkspace(bool workspace)
{
    m_central->showPanels(workspace);
    applyPendingDockSizes();
    m_startPage->setRecent(m_recent->entries());
    m_startPage->demoButton()->setToolTip(m_demo->isAvailable() ? m_actions->demo->toolTip()
                                                                : tr("nanscope-demo-mlp is not "
                                                                     "installed next to NaNscope"));
    m_startPage->demoButton()->setEnabled(m_demo->isAvailable() && !m_demo->isRunning());
}

bool MainWindow::isShowingStartPage() const
{
    return m_central->isShowingStartPage();
}

QStringList MainWindow::recentLogdirs() const
{
    return m_recent->entries();
}

bool MainWindow::isBusy() const
{
    return m_session->isLoading() || m_alerts->isBusy() || m_graphExecution->isBusy() ||
           m_executions->isBusy() || m_source->isBusy() || m_tensor->isBusy() ||
           (m_compare && m_compare->isBusy());
}

QString MainWindow::countsText() const
{
    return m_status->countsText();
}

void MainWindow::openLogdir(const QString& path)
{
    if (path.trimmed().isEmpty())
        return;
    // Not a logdir: a folder of logdirs offers them; anything else is refused without closing
    // the logdir that is open (with nothing open, the session says why on the start page).
    if (core::discoverLogdir(path.toStdString()).empty()) {
        std::vector<core::LogdirLayout> below = core::findLogdirsBelow(path.toStdString());
        if (!below.empty()) {
            chooseAmong(path, below);
            return;
        }
        const items::SnapshotPtr open = m_session->snapshot();
        if (open && open->readable() && !isShowingStartPage()) {
            m_banner->showMessage(
                widgets::Banner::Kind::Error, tr("Could not open %1").arg(displayPath(path)),
                tr("It holds no tfdbg2 logdir (no tfdbg_events.* files), nor do its "
                   "subfolders. %1 stays open.")
                    .arg(displayPath(m_session->path())));
            return;
        }
    }
    m_status->forgetDismissal();
    m_banner->clear();
    applyExpected(path);
    m_session->open(path);
}

void MainWindow::chooseAmong(const QString& root, const std::vector<core::LogdirLayout>& logdirs)
{
    auto* picker = new LogdirPicker(root, logdirs, this);
    picker->setAttribute(Qt::WA_DeleteOnClose);
    connect(picker, &QDialog::accepted, this, [this, picker] {
        const QString chosen = picker->selectedPath();
        if (!chosen.isEmpty())
            openLogdir(chosen);
    });
    picker->open(); // window-modal, returns at once
}

void MainWindow::chooseLogdir()
{
    // Beside the last logdir, where its siblings (other runs) are.
    const QStringList recent = m_recent->entries();
    const QString start =
        recent.isEmpty() ? QDir::homePath() : QFileInfo(recent.first()).absolutePath();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Logdir"), start);
    if (!path.isEmpty())
        openLogdir(path);
}

void MainWindow::chooseCompareLogdir()
{
    // Run B is most often a sibling of run A: another run of the same program.
    const QString start = QFileInfo(m_session->path()).absolutePath();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Compare With"), start);
    if (!path.isEmpty())
        compareWith(path);
}

void MainWindow::compareWith(const QString& path)
{
    if (!m_compare) {
        m_compare = new CompareDialog(m_session, m_navigator, this);
        m_compare->runB()->setMaxMemoryBytes(m_settings.maxMemoryBytes());
        connect(m_compare, &CompareDialog::comparisonShown, this, &MainWindow::updateActions);
    }
    m_compare->show();
    m_compare->raise();
    m_compare->compareWith(path);
}

void MainWindow::openDemo()
{
    m_demo->start();
}

void MainWindow::reload()
{
    m_status->forgetDismissal();
    applyExpected(m_session->path());
    m_session->reload();
}

void MainWindow::setCommandLineExpected(const QStringList& patterns)
{
    m_commandLineExpected = patterns;
}

QStringList MainWindow::expectedPatterns() const
{
    return patternsFor(m_session->path());
}

QStringList MainWindow::patternsFor(const QString& path) const
{
    QStringList patterns = m_expected->patterns(path);
    for (const QString& pattern : m_commandLineExpected)
        if (!patterns.contains(pattern))
            patterns << pattern;
    return patterns;
}

// The reader of `path` gets its expected values (the next load applies them).
void MainWindow::applyExpected(const QString& path)
{
    std::vector<core::ExpectedPattern> parsed;
    for (const QString& pattern : patternsFor(path))
        if (auto p = core::ExpectedPattern::parse(pattern.toStdString(), nullptr))
            parsed.push_back(std::move(*p));
    m_session->setExpected(std::move(parsed));
}

bool MainWindow::treatAsExpected(const QString& pattern)
{
    const QString path = m_session->path();
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_expected->add(path, pattern, &error)) {
        statusBar()->showMessage(error, 5000);
        return false;
    }
    statusBar()->showMessage(tr("%1 is treated as expected in this logdir").arg(pattern), 5000);
    reload();
    return true;
}

void MainWindow::setExpectedPatterns(const QStringList& patterns)
{
    const QString path = m_session->path();
    if (path.isEmpty() || patterns == m_expected->patterns(path))
        return;
    m_expected->setPatterns(path, patterns);
    reload();
}

void MainWindow::editExpectedValues()
{
    const QString path = m_session->path();
    if (path.isEmpty())
        return;
    auto* dialog = new ExpectedValuesDialog(
        ExpectedValues::logdirKey(path), m_expected->patterns(path), m_commandLineExpected, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, path] {
        // The logdir may have been closed or changed meanwhile.
        if (m_session->path() == path)
            setExpectedPatterns(dialog->patterns());
    });
    dialog->open(); // window-modal, returns at once
}

void MainWindow::closeLogdir()
{
    m_session->close();
}

void MainWindow::setFollowing(bool following)
{
    m_session->setFollowing(following);
}

bool MainWindow::jumpToFirstAlert()
{
    if (m_alerts->proxy()->rowCount() == 0)
        return false;
    m_alerts->activateRow(0);
    return true;
}

void MainWindow::raiseListOfRun(const items::SnapshotPtr& snapshot, bool finished)
{
    // Once per load: the user's choice of tab stands while the run is read or followed. A run
    // with graph traces shows them (TensorFlow's tf.function executions are calls of them); a
    // run of executions only (PyTorch's, TensorFlow's eager) lists its executions there instead
    // of an empty Graph Execution. Until the load has read everything, no trace may mean "not
    // yet".
    if (m_listRaised || !snapshot)
        return;
    const core::DebugModeSet values = core::modeBit(core::DebugMode::FullTensor);
    if ((snapshot->traceCount() > 0 || snapshot->executionCount() > 0) &&
        ((snapshot->traceModes() | snapshot->executionModes()) & values) != 0)
        m_docks->raiseIfShown(Dock::Tensor);
    if (snapshot->traceCount() > 0) {
        m_docks->raiseIfShown(Dock::GraphExecution);
        m_listRaised = true;
    } else if ((finished || snapshot->complete()) && snapshot->executionCount() > 0) {
        m_docks->raiseIfShown(Dock::Executions);
        m_listRaised = true;
    }
}

bool MainWindow::listsExecutions() const
{
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || snapshot->executionCount() == 0)
        return false;
    // The list in front, or the only one with rows. (Qt moves a dock behind its tabs out of
    // sight rather than hide it.)
    const auto inSight = [](const QWidget* panel) {
        return panel->isVisible() && !panel->visibleRegion().isEmpty();
    };
    return snapshot->traceCount() == 0 || (inSight(m_executions) && !inSight(m_graphExecution));
}

void MainWindow::onLoadingFinished()
{
    updateActions();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    raiseListOfRun(snapshot, true);
    // A demo's logdir is temporary: not worth remembering.
    if (snapshot && snapshot->readable() &&
        QDir::cleanPath(m_session->path()) != QDir::cleanPath(m_demo->logdir()))
        m_recent->add(m_session->path());
    Q_EMIT logdirLoaded();
}

void MainWindow::onLoadingFailed()
{
    if (!QFileInfo::exists(m_session->path()))
        m_recent->remove(m_session->path());
    showWorkspace(false);
}

void MainWindow::updateRecentMenu()
{
    m_actions->setRecentLogdirs(m_recent->entries());
}

void MainWindow::updateActions()
{
    const bool open = !m_session->path().isEmpty();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    const bool alerts = snapshot && snapshot->alertCount() > 0;
    const MainWindowActions& a = *m_actions;
    a.reload->setEnabled(open);
    a.expectedValues->setEnabled(open);
    a.compareWith->setEnabled(snapshot && snapshot->readable());
    a.close->setEnabled(open);
    a.follow->setEnabled(open);
    a.back->setEnabled(m_navigator->canGoBack());
    a.forward->setEnabled(m_navigator->canGoForward());
    a.nextAlert->setEnabled(alerts);
    a.previousAlert->setEnabled(alerts);
    a.origin->setEnabled(m_alerts->hasOrigin());
    const bool rows = snapshot && (snapshot->traceCount() > 0 || snapshot->executionCount() > 0);
    a.find->setEnabled(rows);
    a.goTo->setEnabled(rows);
    a.demo->setEnabled(m_demo->isAvailable() && !m_demo->isRunning());
}

void MainWindow::copy()
{
    // Every view that can copy has a copy() slot: tables, the source editor, line edits.
    if (QWidget* focus = QApplication::focusWidget())
        QMetaObject::invokeMethod(focus, "copy");
}

void MainWindow::showAbout()
{
    showAboutBox(this);
}

} // namespace nanscope::app
