// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.hpp"

#include "appicon.hpp"
#include "demorunner.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/version.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/views/snapshotnotices.hpp"
#include "nanscope/views/sourcepanel.hpp"
#include "nanscope/views/stacktracepanel.hpp"
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/startpage.hpp"
#include "recentlogdirs.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace nanscope::app {
namespace {

// Saved dock layouts of an older arrangement are ignored.
constexpr int kLayoutVersion = 1;

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kDocksKey = QStringLiteral("mainWindow/docks");
const QString kPatternsKey = QStringLiteral("stackTrace/frameworkPatterns");

QString displayPath(const QString& path)
{
    return QDir::toNativeSeparators(QDir::cleanPath(path));
}

widgets::Banner::Kind bannerKind(views::SnapshotNotice::Severity severity)
{
    switch (severity) {
    case views::SnapshotNotice::Severity::Error:
        return widgets::Banner::Kind::Error;
    case views::SnapshotNotice::Severity::Warning:
        return widgets::Banner::Kind::Warning;
    case views::SnapshotNotice::Severity::Info:
        break;
    }
    return widgets::Banner::Kind::Info;
}

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(options),
      m_recent(std::make_unique<RecentLogdirs>(options.useSettings))
{
    setWindowTitle(tr("NaNscope"));
    setWindowIcon(appIcon());
    setAcceptDrops(true);
    m_session = new items::LogdirSession(this);
    m_navigator = new views::Navigator(this);
    m_demo = new DemoRunner(this);

    m_banner = new widgets::Banner(this);
    m_startPage = new widgets::StartPage(this);
    m_startPage->setLogo(appIcon());
    m_startPage->setTitle(tr("NaNscope"));
    m_startPage->setTagline(tr("Find the op that made the first NaN or ∞, and why."));
    m_startPage->setHint(
        tr("Drop a logdir folder here, or start NaNscope with one: nanscope LOGDIR\n\n"
           "TensorFlow writes a logdir with tf.debugging.experimental.enable_dump_debug_info("
           "logdir, tensor_debug_mode=\"FULL_HEALTH\", circular_buffer_size=-1); NaNscope's "
           "recorder writes the same files from C++."));
    // The panels live in a main window of their own, so that the banner spans the window
    // above them and the start page can take their place.
    m_dockHost = new QMainWindow(nullptr, Qt::Widget);
    m_dockHost->setObjectName(QStringLiteral("dockHost"));
    m_dockHost->setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks |
                               QMainWindow::AllowTabbedDocks);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_startPage);
    m_pages->addWidget(m_dockHost);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    createPanels();
    arrangeDocks();
    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    connectSession();
    restoreSettings();
    showWorkspace(false);
    updateRecentMenu();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPanels()
{
    m_alerts = new views::AlertsPanel(m_navigator);
    m_timeline = new views::ExecutionTimelinePanel(m_navigator);
    m_graphStructure = new views::GraphStructurePanel(m_navigator);
    m_graphExecution = new views::GraphExecutionPanel(m_navigator);
    m_source = new views::SourcePanel(m_navigator);
    m_stackTrace = new views::StackTracePanel(m_navigator);
    addPanelDock(m_alerts, tr("Alerts"), QStringLiteral("alertsDock"));
    addPanelDock(m_timeline, tr("Execution Timeline"), QStringLiteral("executionTimelineDock"));
    addPanelDock(m_graphStructure, tr("Graph Structure"), QStringLiteral("graphStructureDock"));
    addPanelDock(m_graphExecution, tr("Graph Execution"), QStringLiteral("graphExecutionDock"));
    addPanelDock(m_source, tr("Source"), QStringLiteral("sourceDock"));
    addPanelDock(m_stackTrace, tr("Stack Trace"), QStringLiteral("stackTraceDock"));
}

QDockWidget* MainWindow::addPanelDock(views::Panel* panel, const QString& name,
                                      const QString& objectName)
{
    auto* dock = new QDockWidget(name, m_dockHost);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    // Panels may put counts in their title ("Alerts (34)").
    connect(panel, &QWidget::windowTitleChanged, dock, [dock, name](const QString& title) {
        dock->setWindowTitle(title.isEmpty() ? name : title);
    });
    m_docks << dock;
    return dock;
}

void MainWindow::arrangeDocks()
{
    // Debugger V2's arrangement: Alerts | Timeline over Graph Structure | Graph Execution on
    // top, Source | Stack Trace below.
    for (QDockWidget* dock : std::as_const(m_docks)) {
        dock->setFloating(false);
        m_dockHost->removeDockWidget(dock);
    }
    QDockWidget* alerts = m_docks[0];
    QDockWidget* timeline = m_docks[1];
    QDockWidget* structure = m_docks[2];
    QDockWidget* execution = m_docks[3];
    QDockWidget* source = m_docks[4];
    QDockWidget* stack = m_docks[5];
    m_dockHost->addDockWidget(Qt::TopDockWidgetArea, alerts);
    m_dockHost->splitDockWidget(alerts, timeline, Qt::Horizontal);
    m_dockHost->splitDockWidget(timeline, execution, Qt::Horizontal);
    m_dockHost->splitDockWidget(timeline, structure, Qt::Vertical);
    m_dockHost->addDockWidget(Qt::BottomDockWidgetArea, source);
    m_dockHost->splitDockWidget(source, stack, Qt::Horizontal);
    for (QDockWidget* dock : std::as_const(m_docks)) {
        dock->setFloating(false);
        dock->show();
    }
}

void MainWindow::applyDefaultDockSizes()
{
    const int width = std::max(m_dockHost->width(), 960);
    const int height = std::max(m_dockHost->height(), 600);
    const auto part = [](int total, double share) {
        return static_cast<int>(total * share);
    };
    const int top = part(height, 0.6);
    m_dockHost->resizeDocks({m_docks[0], m_docks[1], m_docks[3]},
                            {part(width, 0.2), part(width, 0.36), part(width, 0.44)},
                            Qt::Horizontal);
    m_dockHost->resizeDocks({m_docks[1], m_docks[2]}, {part(top, 0.42), part(top, 0.58)},
                            Qt::Vertical);
    m_dockHost->resizeDocks({m_docks[0], m_docks[4]}, {top, height - top}, Qt::Vertical);
    m_dockHost->resizeDocks({m_docks[4], m_docks[5]}, {part(width, 0.6), part(width, 0.4)},
                            Qt::Horizontal);
}

void MainWindow::resetLayout()
{
    arrangeDocks();
    applyDefaultDockSizes();
    m_defaultSizesPending = false;
}

void MainWindow::createActions()
{
    QStyle* s = style();
    m_openAction =
        new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Logdir…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setToolTip(tr("Open a tfdbg2 logdir (Ctrl+O)"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::chooseLogdir);

    m_demoAction = new QAction(tr("Open the &Demo"), this);
    m_demoAction->setToolTip(tr("Run the tutorial's buggy network into a temporary logdir and "
                                "open it"));
    connect(m_demoAction, &QAction::triggered, this, &MainWindow::openDemo);

    m_reloadAction = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("&Reload"), this);
    m_reloadAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_reloadAction->setToolTip(tr("Read the logdir again (F5)"));
    connect(m_reloadAction, &QAction::triggered, this, &MainWindow::reload);

    m_closeAction = new QAction(tr("&Close Logdir"), this);
    m_closeAction->setShortcut(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeLogdir);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_copyAction = new QAction(tr("&Copy"), this);
    m_copyAction->setShortcut(QKeySequence::Copy);
    connect(m_copyAction, &QAction::triggered, this, &MainWindow::copy);

    m_findAction = new QAction(tr("&Find Op…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setToolTip(tr("Find a graph execution by op name or type (Ctrl+F)"));
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_docks[3]->show();
        m_docks[3]->raise();
        m_graphExecution->activateFind();
    });

    m_goToAction = new QAction(tr("&Go to Index…"), this);
    m_goToAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    connect(m_goToAction, &QAction::triggered, this, [this] {
        m_docks[3]->show();
        m_docks[3]->raise();
        m_graphExecution->activateGoTo();
    });

    m_backAction = new QAction(s->standardIcon(QStyle::SP_ArrowBack), tr("&Back"), this);
    m_backAction->setShortcut(QKeySequence::Back);
    m_backAction->setToolTip(tr("Back to the previous focus (Alt+Left)"));
    connect(m_backAction, &QAction::triggered, m_navigator, &views::Navigator::back);

    m_forwardAction = new QAction(s->standardIcon(QStyle::SP_ArrowForward), tr("&Forward"), this);
    m_forwardAction->setShortcut(QKeySequence::Forward);
    m_forwardAction->setToolTip(tr("Forward again (Alt+Right)"));
    connect(m_forwardAction, &QAction::triggered, m_navigator, &views::Navigator::forward);

    m_previousAlertAction =
        new QAction(s->standardIcon(QStyle::SP_ArrowUp), tr("&Previous Alert"), this);
    m_previousAlertAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    m_previousAlertAction->setToolTip(tr("Focus the previous alert (Shift+F3)"));
    connect(m_previousAlertAction, &QAction::triggered, m_alerts,
            &views::AlertsPanel::previousAlert);

    m_nextAlertAction = new QAction(s->standardIcon(QStyle::SP_ArrowDown), tr("&Next Alert"), this);
    m_nextAlertAction->setShortcut(QKeySequence(Qt::Key_F3));
    m_nextAlertAction->setToolTip(tr("Focus the next alert (F3)"));
    connect(m_nextAlertAction, &QAction::triggered, m_alerts, &views::AlertsPanel::nextAlert);

    m_originAction = new QAction(originIcon(), tr("Go to &Origin"), this);
    m_originAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_originAction->setToolTip(
        tr("Focus the op that made the first NaN or ∞ from finite inputs (Ctrl+Shift+O)"));
    connect(m_originAction, &QAction::triggered, this, [this] {
        m_docks[0]->show();
        m_docks[0]->raise();
        m_alerts->goToOrigin();
    });

    m_followAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("F&ollow Logdir"), this);
    m_followAction->setCheckable(true);
    m_followAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_followAction->setToolTip(tr("Read events as the program appends them (Ctrl+Shift+F)"));
    connect(m_followAction, &QAction::toggled, this, &MainWindow::setFollowing);

    m_resetLayoutAction = new QAction(tr("&Reset Layout"), this);
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);

    m_aboutAction = new QAction(tr("&About NaNscope"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    file->addAction(m_demoAction);
    file->addSeparator();
    file->addAction(m_reloadAction);
    file->addAction(m_closeAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_copyAction);
    edit->addSeparator();
    edit->addAction(m_findAction);
    edit->addAction(m_goToAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_panelsMenu = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : std::as_const(m_docks)) {
        QAction* toggle = dock->toggleViewAction();
        // The dock's title gains a count ("Alerts (34)"); the menu keeps naming the panel.
        const QString name = dock->windowTitle();
        connect(dock, &QDockWidget::windowTitleChanged, toggle,
                [toggle, name] { toggle->setText(name); });
        m_panelsMenu->addAction(toggle);
    }
    view->addAction(m_resetLayoutAction);
    view->addSeparator();
    view->addAction(m_followAction);

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addAction(m_backAction);
    go->addAction(m_forwardAction);
    go->addSeparator();
    go->addAction(m_nextAlertAction);
    go->addAction(m_previousAlertAction);
    go->addAction(m_originAction);
    go->addSeparator();
    go->addAction(m_goToAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setIconSize(QSize(18, 18));
    bar->addAction(m_openAction);
    bar->addAction(m_reloadAction);
    bar->addSeparator();
    bar->addAction(m_backAction);
    bar->addAction(m_forwardAction);
    bar->addSeparator();
    for (QAction* action :
         {m_previousAlertAction, m_nextAlertAction, m_originAction, m_followAction}) {
        if (action == m_followAction)
            bar->addSeparator();
        bar->addAction(action);
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action)))
            button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    }
}

void MainWindow::createStatusBar()
{
    m_counts = new QLabel(this);
    m_counts->setTextFormat(Qt::PlainText);
    m_followState = new QLabel(tr("● Following"), this);
    m_followState->setTextFormat(Qt::PlainText);
    m_followState->setToolTip(tr("Events appended to the logdir are read as they come"));
    QPalette followPalette = m_followState->palette();
    followPalette.setColor(QPalette::WindowText, QColor(0x2e, 0x9d, 0x5b));
    m_followState->setPalette(followPalette);
    m_followState->hide();
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->setMaximumHeight(statusBar()->fontMetrics().height());
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QToolButton(this);
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
    m_cancel->setAutoRaise(true);
    m_cancel->setToolTip(tr("Stop loading (what was read so far stays)"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, m_session, &items::LogdirSession::cancel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_followState);
    statusBar()->addPermanentWidget(m_counts);
}

void MainWindow::connectSession()
{
    connect(m_session, &items::LogdirSession::loadingStarted, this, [this](const QString& path) {
        m_progress->setValue(0);
        m_progress->show();
        m_cancel->show();
        statusBar()->showMessage(tr("Reading %1…").arg(displayPath(path)));
        setWindowTitle(tr("%1 — NaNscope").arg(displayPath(path)));
        showWorkspace(true);
        updateActions();
    });
    connect(m_session, &items::LogdirSession::progressChanged, this,
            [this](qint64 done, qint64 total) {
                m_progress->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
            });
    connect(m_session, &items::LogdirSession::snapshotChanged, this,
            [this](const items::SnapshotPtr& snapshot) {
                m_navigator->setSnapshot(snapshot);
                updateCounts();
                if (!m_session->isLoading())
                    showNotices(); // following: "no events yet" goes once events come
            });
    connect(m_session, &items::LogdirSession::loadingFinished, this,
            &MainWindow::onLoadingFinished);
    connect(m_session, &items::LogdirSession::loadingFailed, this, &MainWindow::onLoadingFailed);
    connect(m_session, &items::LogdirSession::closed, this, [this] {
        m_navigator->setSnapshot(nullptr);
        m_banner->clear();
        m_progress->hide();
        m_cancel->hide();
        setWindowTitle(tr("NaNscope"));
        showWorkspace(false);
        updateCounts();
        updateActions();
    });
    connect(m_session, &items::LogdirSession::followingChanged, this, [this](bool following) {
        m_followAction->setChecked(following);
        m_followState->setVisible(following);
    });
    connect(m_navigator, &views::Navigator::historyChanged, this, &MainWindow::updateActions);
    connect(m_alerts, &views::AlertsPanel::originChanged, this, &MainWindow::updateActions);
    connect(m_banner, &widgets::Banner::actionTriggered, this, &MainWindow::showDiagnostics);
    connect(m_banner, &widgets::Banner::dismissed, this, [this] { m_noticeDismissed = true; });
    connect(m_stackTrace, &views::StackTracePanel::frameworkPatternsEdited, this,
            [this](const QStringList& patterns) {
                if (m_options.useSettings)
                    QSettings().setValue(kPatternsKey, patterns);
            });

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

void MainWindow::restoreSettings()
{
    resize(1440, 900);
    if (!m_options.useSettings)
        return;
    QSettings settings;
    const QStringList patterns = settings.value(kPatternsKey).toStringList();
    if (!patterns.isEmpty())
        m_stackTrace->setFrameworkPatterns(patterns);
    if (settings.contains(kGeometryKey))
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    if (m_dockHost->restoreState(settings.value(kDocksKey).toByteArray(), kLayoutVersion))
        m_defaultSizesPending = false;
}

void MainWindow::saveSettings() const
{
    if (!m_options.useSettings)
        return;
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kDocksKey, m_dockHost->saveState(kLayoutVersion));
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Dock sizes need a laid-out window.
    if (m_defaultSizesPending) {
        m_defaultSizesPending = false;
        QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
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
    m_pages->setCurrentWidget(workspace ? static_cast<QWidget*>(m_dockHost) : m_startPage);
    m_startPage->setRecent(m_recent->entries());
    m_startPage->demoButton()->setToolTip(m_demo->isAvailable() ? m_demoAction->toolTip()
                                                                : tr("nanscope-demo-mlp is not "
                                                                     "installed next to NaNscope"));
    m_startPage->demoButton()->setEnabled(m_demo->isAvailable() && !m_demo->isRunning());
}

bool MainWindow::isShowingStartPage() const
{
    return m_pages->currentWidget() == m_startPage;
}

QStringList MainWindow::recentLogdirs() const
{
    return m_recent->entries();
}

bool MainWindow::isBusy() const
{
    return m_session->isLoading() || m_alerts->isBusy() || m_graphExecution->isBusy() ||
           m_source->isBusy();
}

QString MainWindow::countsText() const
{
    return m_counts->text();
}

void MainWindow::openLogdir(const QString& path)
{
    if (path.trimmed().isEmpty())
        return;
    m_noticeDismissed = false;
    m_banner->clear();
    m_session->open(path);
}

void MainWindow::chooseLogdir()
{
    const QString start = m_recent->entries().value(0, QDir::homePath());
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Logdir"), start);
    if (!path.isEmpty())
        openLogdir(path);
}

void MainWindow::openDemo()
{
    m_demo->start();
}

void MainWindow::reload()
{
    m_noticeDismissed = false;
    m_session->reload();
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

void MainWindow::onLoadingFinished(bool cancelled)
{
    m_progress->hide();
    m_cancel->hide();
    updateCounts();
    updateActions();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (snapshot && snapshot->readable()) {
        statusBar()->showMessage(cancelled ? tr("Loading stopped: showing what was read")
                                           : tr("Read %1").arg(displayPath(m_session->path())),
                                 cancelled ? 0 : 4000);
        // A demo's logdir is temporary: not worth remembering.
        if (QDir::cleanPath(m_session->path()) != QDir::cleanPath(m_demo->logdir()))
            m_recent->add(m_session->path());
        showNotices();
    }
    Q_EMIT logdirLoaded();
}

void MainWindow::onLoadingFailed(const QString& message)
{
    m_progress->hide();
    m_cancel->hide();
    statusBar()->clearMessage();
    if (!QFileInfo::exists(m_session->path()))
        m_recent->remove(m_session->path());
    showWorkspace(false);
    const items::SnapshotPtr snapshot = m_session->snapshot();
    const bool details = snapshot && !snapshot->diagnostics().empty();
    m_banner->showMessage(widgets::Banner::Kind::Error,
                          tr("Could not open %1").arg(displayPath(m_session->path())), message,
                          details ? tr("Details…") : QString());
}

void MainWindow::showNotices()
{
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || !snapshot->readable() || m_noticeDismissed)
        return;
    const auto notices = views::snapshotNotices(*snapshot);
    if (notices.empty()) {
        m_banner->clear();
        return;
    }
    const views::SnapshotNotice& first = notices.front();
    const bool more = notices.size() > 1 || !snapshot->diagnostics().empty();
    QString text = first.text;
    if (notices.size() == 2)
        text += QLatin1Char(' ') + tr("(One more note in Details.)");
    else if (notices.size() > 2)
        text += QLatin1Char(' ') + tr("(%1 more notes in Details.)").arg(notices.size() - 1);
    m_banner->showMessage(bannerKind(first.severity), first.title, text,
                          more ? tr("Details…") : QString());
}

void MainWindow::showDiagnostics()
{
    const items::SnapshotPtr snapshot = m_session->snapshot();
    QStringList parts;
    if (snapshot) {
        for (const views::SnapshotNotice& notice : views::snapshotNotices(*snapshot))
            parts << notice.title + QLatin1Char('\n') + notice.text;
        const QString diagnostics = views::diagnosticsText(*snapshot);
        if (!diagnostics.isEmpty())
            parts << tr("What the reader found:") + QLatin1Char('\n') + diagnostics;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("About This Logdir"));
    auto* text = new QPlainTextEdit(&dialog);
    text->setReadOnly(true);
    text->setPlainText(parts.join(QStringLiteral("\n\n")));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(720, 420);
    dialog.exec();
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList entries = m_recent->entries();
    for (const QString& path : entries) {
        QString label = displayPath(path);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* action = m_recentMenu->addAction(label);
        connect(action, &QAction::triggered, this, [this, path] { openLogdir(path); });
    }
    if (entries.isEmpty())
        m_recentMenu->addAction(tr("No recent logdirs"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("Clear List"));
    clear->setEnabled(!entries.isEmpty());
    connect(clear, &QAction::triggered, this, [this] {
        m_recent->clear();
        m_startPage->setRecent({});
    });
}

void MainWindow::updateCounts()
{
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || !snapshot->readable()) {
        m_counts->clear();
        return;
    }
    m_counts->setText(tr("%L1 graph traces · %L2 executions · %L3 alerts")
                          .arg(snapshot->traceCount())
                          .arg(snapshot->executionCount())
                          .arg(snapshot->alertCount()));
}

void MainWindow::updateActions()
{
    const bool open = !m_session->path().isEmpty();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    const bool alerts = snapshot && snapshot->alertCount() > 0;
    m_reloadAction->setEnabled(open);
    m_closeAction->setEnabled(open);
    m_followAction->setEnabled(open);
    m_backAction->setEnabled(m_navigator->canGoBack());
    m_forwardAction->setEnabled(m_navigator->canGoForward());
    m_nextAlertAction->setEnabled(alerts);
    m_previousAlertAction->setEnabled(alerts);
    m_originAction->setEnabled(m_alerts->hasOrigin());
    m_findAction->setEnabled(snapshot && snapshot->traceCount() > 0);
    m_goToAction->setEnabled(snapshot && snapshot->traceCount() > 0);
    m_demoAction->setEnabled(m_demo->isAvailable() && !m_demo->isRunning());
}

void MainWindow::copy()
{
    // Every view that can copy has a copy() slot: tables, the source editor, line edits.
    if (QWidget* focus = QApplication::focusWidget())
        QMetaObject::invokeMethod(focus, "copy");
}

void MainWindow::showAbout()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("About NaNscope"));
    box.setIconPixmap(appIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<h3>NaNscope %1</h3>"
                   "<p>A native debugger for NaN and infinity: it reads TensorFlow's tfdbg2 "
                   "logdirs (and NaNscope's recorder's) and finds the op that made the first "
                   "NaN or ∞, and why.</p><p>Built with Qt %2.</p>")
                    .arg(QStringLiteral(NANSCOPE_VERSION), QString::fromLatin1(qVersion())));
    box.exec();
}

} // namespace nanscope::app
