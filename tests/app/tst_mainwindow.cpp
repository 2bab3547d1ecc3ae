// SPDX-License-Identifier: GPL-3.0-or-later
// The main window end to end: the demo's logdir opened, the first alert double-clicked and every
// panel on the tutorial's Log op; reload, back/forward, follow mode, the start page with recent
// logdirs and the demo, drag and drop, a broken logdir and its details, the default layout and
// its reset.
#include "diagnosticsdialog.hpp"
#include "docklayout.hpp"
#include "logdirpicker.hpp"
#include "mainwindow.hpp"
#include "mainwindowactions.hpp"
#include "mainwindowload.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/items/stacktracemodel.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/views/sourcepanel.hpp"
#include "nanscope/views/stacktracepanel.hpp"
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/startpage.hpp"
#include "rundemo.hpp"
#include "tensorflowlogdir.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QMainWindow>
#include <QMimeData>
#include <QProcess>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>
#include <cmath>
#include <iterator>
#include <optional>

using namespace nanscope;
using app::Dock;
using app::MainWindow;

namespace {

constexpr int kWait = 30000;

using test::openAndWait;

// The default window of a 1280×800 screen, shown, on `path` at its first alert.
bool showAtFirstAlert(MainWindow& window, const QString& path)
{
    window.resize(1280, 800);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && openAndWait(window, path) &&
           window.jumpToFirstAlert();
}

void doubleClick(nanscope::widgets::CopyableTableView* view, const QModelIndex& index)
{
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
}

QString tensorOfCurrentRow(views::GraphExecutionPanel* panel)
{
    const QModelIndex current = panel->view()->currentIndex();
    return panel->proxy()
        ->index(current.row(), items::GraphExecutionModel::TensorColumn)
        .data()
        .toString();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void doubleClickOnTheFirstAlertShowsTheLogOp();
    void tensorFlowTutorialShowsTheUsersLine();
    void frameworkOnlyStackStillShowsAFrame();
    void reloadKeepsWorking();
    void backAndForwardRestoreTheFocus();
    void followModePicksUpAppendedEvents();
    void brokenLogdirShowsADiagnostic();
    void failedOpenKeepsWhatWasOpen();
    void folderOfLogdirsOffersThem();
    void nothingResizesTheWindowByItself();
    void startPageRecentAndClose();
    void openTheDemo();
    void droppingAFolderOpensIt();
    void defaultLayoutFollowsItsTable_data();
    void defaultLayoutFollowsItsTable();
    void docksKeepTheNamesSavedLayoutsUse();
    void resetLayoutRestoresTheDocks();
    void layoutAndRecentLogdirsAreKeptAcrossRuns();
    void darkPaletteReadsWell();
    void graphExecutionKeyColumnsFitAt1280();
    void graphExecutionShowsItsDetailsWhenWide();

private:
    QTemporaryDir m_demoDir;
    QTemporaryDir m_settingsDir;
};

void TestMainWindow::initTestCase()
{
    // Settings go to a directory of the test's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("NaNscope tests"));
    QVERIFY(m_settingsDir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    QVERIFY(m_demoDir.isValid());
    QVERIFY(test::runDemo(m_demoDir.path()));
}

void TestMainWindow::doubleClickOnTheFirstAlertShowsTheLogOp()
{
    MainWindow window({.useSettings = false});
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.isShowingStartPage());
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QVERIFY(!window.isShowingStartPage());
    QVERIFY(window.countsText().contains(QStringLiteral("alerts")));

    auto* alerts = window.alertsPanel();
    QVERIFY(alerts->proxy()->rowCount() > 0);
    QVERIFY(alerts->originText().contains(QStringLiteral("Origin: Log in loss")));
    doubleClick(alerts->view(), alerts->proxy()->index(0, items::AlertModel::IndexColumn));

    // Graph Execution: the current row is the Log trace, in view.
    auto* execution = window.graphExecutionPanel();
    QCOMPARE(tensorOfCurrentRow(execution), QStringLiteral("Log:0"));
    const QModelIndex current = execution->view()->currentIndex();
    QCOMPARE(execution->proxy()
                 ->index(current.row(), items::GraphExecutionModel::OpTypeColumn)
                 .data()
                 .toString(),
             QStringLiteral("Log"));
    QVERIFY(execution->view()->viewport()->rect().contains(execution->view()->visualRect(current)));
    // Its input probs is highlighted.
    QCOMPARE(execution->highlightedInputs().size(), 1);
    const auto probsRow = static_cast<int>(execution->highlightedInputs().first());
    QCOMPARE(execution->model()
                 ->index(probsRow, items::GraphExecutionModel::TensorColumn)
                 .data()
                 .toString(),
             QStringLiteral("probs:0"));

    // Stack Trace: the focused frame is the demo's line with the log call.
    auto* stack = window.stackTracePanel();
    const int frame = stack->focusedFrameRow();
    QVERIFY(frame >= 0);
    const QModelIndex frameIndex = stack->model()->index(frame, 0);
    QVERIFY(frameIndex.data(items::StackTraceModel::FilePathRole)
                .toString()
                .endsWith(QStringLiteral("mlp.cpp")));
    const int line = frameIndex.data(items::StackTraceModel::LineRole).toInt();
    QVERIFY(stack->view()->currentIndex().isValid());

    // Source: that file, with that line marked; the line computes the log.
    auto* source = window.sourcePanel();
    QVERIFY(source->currentFilePath().endsWith(QStringLiteral("mlp.cpp")));
    QCOMPARE(source->markedLine(), line);
    QVERIFY2(source->lineText(line).contains(QStringLiteral("log")),
             qPrintable(source->lineText(line)));
    QVERIFY(source->lineText(line).contains(QStringLiteral("\"Log\"")));

    // Graph Structure: the Log op's neighbourhood holds its input probs.
    const views::Focus& focus = window.navigator()->focus();
    const auto& op = window.navigator()->snapshot()->graphs().op(focus.op);
    QCOMPARE(QString::fromStdString(op.name), QStringLiteral("Log"));
    QCOMPARE(QString::fromStdString(op.inputs.at(0).opName), QStringLiteral("probs"));
    QTRY_VERIFY_WITH_TIMEOUT(
        window.graphStructurePanel()->visibleOpNames().contains(QStringLiteral("probs")), kWait);

    // Go to origin lands on the same op: the demo's first alert is its root cause.
    QVERIFY(alerts->goToOrigin());
    QCOMPARE(tensorOfCurrentRow(execution), QStringLiteral("Log:0"));
}

// TensorFlow's tutorial runs its example with `python -m` from inside TensorFlow's own package:
// one double-click on the first alert still lands on the example's own line.
void TestMainWindow::tensorFlowTutorialShowsTheUsersLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto expected = test::writeTensorFlowLogdir(dir.path().toStdString(),
                                                      test::TensorFlowStack::TutorialModule);
    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, dir.path()));
    // The counts and the origin the report gives for this logdir.
    QVERIFY2(window.countsText().contains(QStringLiteral("16 graph traces")) &&
                 window.countsText().contains(QStringLiteral("2 executions")) &&
                 window.countsText().contains(QStringLiteral("5 alerts")),
             qPrintable(window.countsText()));
    auto* alerts = window.alertsPanel();
    QVERIFY(alerts->originText().contains(QStringLiteral("Origin: Log")));
    QVERIFY(alerts->proxy()->rowCount() > 0);
    doubleClick(alerts->view(), alerts->proxy()->index(0, items::AlertModel::IndexColumn));
    QCOMPARE(tensorOfCurrentRow(window.graphExecutionPanel()), QStringLiteral("Log:0"));

    auto* stack = window.stackTracePanel();
    const int frame = stack->focusedFrameRow();
    QVERIFY(frame >= 0);
    const QModelIndex frameIndex = stack->model()->index(frame, 0);
    QCOMPARE(frameIndex.data(items::StackTraceModel::FilePathRole).toString(),
             QString::fromStdString(expected.file));
    QCOMPARE(frameIndex.data(items::StackTraceModel::LineRole).toInt(), expected.line);
    QVERIFY(frameIndex.data(items::StackTraceModel::UserFrameRole).toBool());
    // Folded, the stack shows the example's frames, the focused one selected.
    QVERIFY(stack->view()->model()->rowCount() >= 3);
    QVERIFY(stack->view()->currentIndex().isValid());

    auto* source = window.sourcePanel();
    QCOMPARE(source->currentFilePath(), QString::fromStdString(expected.file));
    QCOMPARE(source->markedLine(), expected.line);
    QVERIFY(source->lineText(expected.line).contains(QStringLiteral("tf.math.log")));
    QTRY_VERIFY_WITH_TIMEOUT(source->nonFiniteLines().contains(expected.line), kWait);
}

// When every frame is framework code the Stack Trace panel is not empty, and no framework line is
// flagged as the one that made the NaN.
void TestMainWindow::frameworkOnlyStackStillShowsAFrame()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    test::writeTensorFlowLogdir(dir.path().toStdString(), test::TensorFlowStack::FrameworkOnly);
    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, dir.path()));
    auto* alerts = window.alertsPanel();
    QVERIFY(alerts->proxy()->rowCount() > 0);
    doubleClick(alerts->view(), alerts->proxy()->index(0, items::AlertModel::IndexColumn));

    auto* stack = window.stackTracePanel();
    QVERIFY(!stack->frameworkFramesShown());
    QCOMPARE(stack->view()->model()->rowCount(), 1);
    const int frame = stack->focusedFrameRow();
    QVERIFY(frame >= 0);
    const QModelIndex frameIndex = stack->model()->index(frame, 0);
    QVERIFY(!frameIndex.data(items::StackTraceModel::UserFrameRole).toBool());
    const QString path = frameIndex.data(items::StackTraceModel::FilePathRole).toString();
    QVERIFY2(!path.contains(QStringLiteral("dumping_callback")), qPrintable(path));
    QVERIFY(stack->view()->currentIndex().isValid());

    auto* source = window.sourcePanel();
    QCOMPARE(source->currentFilePath(), path);
    QTRY_VERIFY_WITH_TIMEOUT(!source->isBusy(), kWait);
    QVERIFY(source->nonFiniteLines().isEmpty());
}

void TestMainWindow::reloadKeepsWorking()
{
    MainWindow window({.useSettings = false});
    window.show();
    QVERIFY(openAndWait(window, m_demoDir.path()));
    const quint64 traces = window.navigator()->snapshot()->traceCount();
    QVERIFY(window.jumpToFirstAlert());
    const auto focused = window.navigator()->focus().event;
    for (int i = 0; i < 2; ++i) {
        QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, kWait));
        QCOMPARE(window.navigator()->snapshot()->traceCount(), traces);
        // The same logdir keeps its focus.
        QCOMPARE(window.navigator()->focus().event, focused);
        QCOMPARE(tensorOfCurrentRow(window.graphExecutionPanel()), QStringLiteral("Log:0"));
    }
}

void TestMainWindow::backAndForwardRestoreTheFocus()
{
    MainWindow window({.useSettings = false});
    window.show();
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QVERIFY(window.jumpToFirstAlert());
    const auto first = window.navigator()->focus();
    QTest::keyClick(&window, Qt::Key_F3); // next alert
    const auto second = window.navigator()->focus();
    QVERIFY(!(second == first));
    QTest::keyClick(&window, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(window.navigator()->focus(), first);
    QCOMPARE(tensorOfCurrentRow(window.graphExecutionPanel()), QStringLiteral("Log:0"));
    QTest::keyClick(&window, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(window.navigator()->focus(), second);
    QTest::keyClick(&window, Qt::Key_F3, Qt::ShiftModifier); // previous alert
    QCOMPARE(window.navigator()->focus().event, first.event);
}

void TestMainWindow::followModePicksUpAppendedEvents()
{
    QTemporaryDir dir;
    auto opened = Recorder::open({.dumpRoot = dir.path().toStdString(),
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1,
                                  .flushInterval = std::chrono::milliseconds(10)});
    QVERIFY(opened.ok());
    Recorder& recorder = **opened;
    const GraphHandle graph = *recorder.declareGraph("loss");
    const OpHandle probs =
        *recorder.declareOp({.graph = graph, .type = "Placeholder", .name = "probs"});
    const OpHandle log =
        *recorder.declareOp({.graph = graph, .type = "Log", .name = "Log", .inputs = {"probs:0"}});
    const std::int64_t shape[1] = {4};
    const float values[4] = {0.5f, 0.25f, 0.0f, 1.0f};
    const float logs[4] = {-0.69f, -1.39f, -INFINITY, 0.0f};
    const auto record = [&] {
        return recorder.recordTrace(probs, 0, {.data = values, .shape = shape}).ok() &&
               recorder.recordTrace(log, 0, {.data = logs, .shape = shape}).ok() &&
               recorder.flush().ok();
    };
    QVERIFY(record());

    MainWindow window({.useSettings = false});
    window.show();
    QVERIFY(openAndWait(window, dir.path()));
    window.session()->setPollInterval(50);
    window.setFollowing(true);
    QVERIFY(window.session()->isFollowing());
    auto* model = window.graphExecutionPanel()->model();
    QCOMPARE(model->rowCount(), 2);
    QVERIFY(record());
    QVERIFY(record());
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 6, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(window.alertsPanel()->proxy()->rowCount(), 3, kWait);
    QVERIFY(window.countsText().contains(QStringLiteral("6 graph traces")));
    window.setFollowing(false);
    QVERIFY(recorder.close().ok());
}

// A folder that is no logdir is refused with the reason, and the logdir that was open stays,
// with what the user was doing; opening another logdir starts afresh.
void TestMainWindow::failedOpenKeepsWhatWasOpen()
{
    MainWindow window({.useSettings = false});
    QVERIFY(showAtFirstAlert(window, m_demoDir.path()));
    const QString counts = window.countsText();
    const views::Focus focus = window.navigator()->focus();
    window.graphExecutionPanel()->goToEdit()->setText(QStringLiteral("123"));

    QTemporaryDir empty;
    QVERIFY(empty.isValid());
    window.openLogdir(empty.path());
    QTest::qWait(200);
    QVERIFY(!window.isShowingStartPage());
    QCOMPARE(window.session()->path(), m_demoDir.path());
    QCOMPARE(window.countsText(), counts);
    QVERIFY(window.navigator()->focus() == focus);
    QVERIFY(window.banner()->isVisible());
    QVERIFY2(window.banner()->text().contains(QStringLiteral("no tfdbg2 logdir")),
             qPrintable(window.banner()->text()));
    QVERIFY(window.banner()->title().contains(empty.path()));
    QCOMPARE(window.graphExecutionPanel()->goToEdit()->text(), QStringLiteral("123"));

    // Another logdir: nothing of the demo's browsing carries over.
    QTemporaryDir other;
    QVERIFY(other.isValid());
    test::writeTensorFlowLogdir(other.path().toStdString(), test::TensorFlowStack::KerasModel);
    QVERIFY(openAndWait(window, other.path()));
    QCOMPARE(window.session()->path(), other.path());
    QVERIFY(!window.banner()->isVisible());
    QVERIFY(window.graphExecutionPanel()->goToEdit()->text().isEmpty());
    QCOMPARE(window.graphExecutionPanel()->view()->verticalScrollBar()->value(), 0);
}

// A folder that holds logdirs (TensorBoard's parent-directory habit) lists them to pick one.
void TestMainWindow::folderOfLogdirsOffersThem()
{
    QTemporaryDir parent;
    QVERIFY(parent.isValid());
    const QString first = parent.filePath(QStringLiteral("run-a"));
    const QString second = parent.filePath(QStringLiteral("runs/run-b"));
    QVERIFY(QDir().mkpath(first) && QDir().mkpath(second));
    QVERIFY(QDir().mkpath(parent.filePath(QStringLiteral("empty/deeper"))));
    QVERIFY(test::runDemo(first));
    test::writeTensorFlowLogdir(second.toStdString(), test::TensorFlowStack::TutorialModule);

    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openLogdir(parent.path());
    app::LogdirPicker* picker = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (picker = window.findChild<app::LogdirPicker*>()) && picker->isVisible(), kWait);
    QTreeWidget* list = picker->list();
    QCOMPARE(list->topLevelItemCount(), 2);
    QCOMPARE(list->topLevelItem(0)->text(app::LogdirPicker::FolderColumn), QStringLiteral("run-a"));
    QCOMPARE(list->topLevelItem(1)->text(app::LogdirPicker::FolderColumn),
             QDir::toNativeSeparators(QStringLiteral("runs/run-b")));
    for (int row = 0; row < 2; ++row) {
        const QTreeWidgetItem* item = list->topLevelItem(row);
        QVERIFY(!item->text(app::LogdirPicker::RunColumn).isEmpty());
        QVERIFY(!item->text(app::LogdirPicker::HostsColumn).isEmpty());
        QVERIFY(!item->text(app::LogdirPicker::StartedColumn).isEmpty());
        QVERIFY(!item->text(app::LogdirPicker::SizeColumn).isEmpty());
    }
    list->setCurrentItem(list->topLevelItem(1));
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    picker->accept();
    QVERIFY(QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, kWait));
    QCOMPARE(window.session()->path(), second);
    QVERIFY(window.countsText().contains(QStringLiteral("16 graph traces")));
}

// Filters, focus changes and longer texts change what the panels show, never the window's size.
void TestMainWindow::nothingResizesTheWindowByItself()
{
    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, m_demoDir.path()));
    const QSize size = window.size();
    QCheckBox* nonFinite = nullptr;
    for (QCheckBox* box : window.graphExecutionPanel()->findChildren<QCheckBox*>())
        if (box->text().contains(QStringLiteral("Non-finite")))
            nonFinite = box;
    QVERIFY(nonFinite);
    nonFinite->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kWait);
    QTest::qWait(50);
    QCOMPARE(window.size(), size);
    QVERIFY(window.jumpToFirstAlert());
    QVERIFY(window.alertsPanel()->goToOrigin());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kWait);
    QTest::qWait(50);
    QCOMPARE(window.size(), size);
    nonFinite->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kWait);
    QCOMPARE(window.size(), size);
}

void TestMainWindow::brokenLogdirShowsADiagnostic()
{
    QTemporaryDir dir;
    for (const QString& name :
         {QStringLiteral("x.metadata"), QStringLiteral("tfdbg_events.1700000000.host.metadata")}) {
        QFile garbage(dir.filePath(name));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("this is not a TFRecord file at all \x01\x02\x03");
    }
    MainWindow window({.useSettings = false});
    window.show();
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    window.openLogdir(dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, kWait);
    QVERIFY(window.banner()->isVisible());
    QCOMPARE(window.banner()->kind(), widgets::Banner::Kind::Error);
    QVERIFY(!window.banner()->title().isEmpty());
    QVERIFY(!window.banner()->text().isEmpty());
    // Its Details… tell what the reader found, file by file.
    const items::SnapshotPtr snapshot = window.session()->snapshot();
    QVERIFY(snapshot && !snapshot->diagnostics().empty());
    const app::DiagnosticsDialog details(snapshot, &window);
    QVERIFY2(details.text().contains(QStringLiteral("What the reader found:")),
             qPrintable(details.text()));
    QVERIFY(details.text().contains(QStringLiteral("x.metadata")));

    // A directory that does not exist: said so; what was open stays (or the start page, when
    // the broken logdir could not be shown at all).
    const bool wasShowingStartPage = window.isShowingStartPage();
    window.openLogdir(dir.filePath(QStringLiteral("missing")));
    QTRY_VERIFY_WITH_TIMEOUT(window.banner()->title().contains(QStringLiteral("missing")), kWait);
    QCOMPARE(window.banner()->kind(), widgets::Banner::Kind::Error);
    QCOMPARE(window.isShowingStartPage(), wasShowingStartPage);

    // A good logdir afterwards clears the banner.
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QVERIFY(!window.banner()->isVisible());
}

void TestMainWindow::startPageRecentAndClose()
{
    MainWindow window({.useSettings = false});
    window.show();
    QVERIFY(window.isShowingStartPage());
    QVERIFY(window.startPage()->recent().isEmpty());
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QCOMPARE(window.recentLogdirs().size(), 1);
    QTest::keySequence(&window, QKeySequence::Close);
    QVERIFY(window.isShowingStartPage());
    QVERIFY(!window.navigator()->snapshot());
    QCOMPARE(window.startPage()->recent(), window.recentLogdirs());
    // Opening a recent entry from the start page.
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    Q_EMIT window.startPage()->recentActivated(window.recentLogdirs().first());
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, kWait);
    QVERIFY(!window.isShowingStartPage());
}

void TestMainWindow::openTheDemo()
{
    MainWindow window({.useSettings = false});
    window.show();
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    window.openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, kWait);
    QVERIFY(window.navigator()->snapshot()->alertCount() > 0);
    // A demo's logdir is temporary: it does not go into the recent list.
    QVERIFY(window.recentLogdirs().isEmpty());
}

void TestMainWindow::droppingAFolderOpensIt()
{
    MainWindow window({.useSettings = false});
    window.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(m_demoDir.path())});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, kWait);
    QVERIFY(window.navigator()->snapshot()->traceCount() > 0);
}

void TestMainWindow::defaultLayoutFollowsItsTable_data()
{
    QTest::addColumn<bool>("fromStartPage");
    QTest::newRow("nanscope LOGDIR") << false;
    QTest::newRow("opened from the start page") << true;
}

void TestMainWindow::defaultLayoutFollowsItsTable()
{
    QFETCH(bool, fromStartPage);
    // Large enough for every dock's share to be more than its panel needs at least.
    MainWindow window({.useSettings = false});
    window.resize(2000, 1200);
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    if (!fromStartPage)
        window.openLogdir(m_demoDir.path());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    if (fromStartPage) {
        QTest::qWait(100);
        QVERIFY(window.isShowingStartPage());
        window.openLogdir(m_demoDir.path());
    }
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QTest::qWait(100); // the default sizes come once the docks are laid out
    auto* host = qobject_cast<QMainWindow*>(window.dock(Dock::Alerts)->parentWidget());
    QVERIFY(host);
    const auto geometries = [&] {
        QList<QRect> rects;
        for (const app::DockSpec& spec : app::defaultDocks()) // (a tab behind: out of sight)
            rects << (spec.tabbedWith ? QRect() : window.dock(spec.dock)->geometry());
        return rects;
    };
    const auto rect = [&](Dock dock) {
        return window.dock(dock)->geometry();
    };
    const QList<QRect> initial = geometries();
    std::optional<Dock> left;
    for (const app::DockSpec& spec : app::defaultDocks()) {
        QDockWidget* dock = window.dock(spec.dock);
        QCOMPARE(host->dockWidgetArea(dock), spec.area);
        if (spec.tabbedWith) {
            // A tab beside its dock, behind it in a run of graph traces (the demo's).
            QVERIFY(host->tabifiedDockWidgets(window.dock(*spec.tabbedWith)).contains(dock));
            QVERIFY(!dock->isHidden());
            QVERIFY(dock->visibleRegion().isEmpty()); // out of sight, not hidden
            continue;
        }
        QVERIFY(dock->isVisible());
        QVERIFY(!dock->isFloating());
        const QRect r = dock->geometry();
        // A dock with tabs shares its height with their tab bar.
        int tabBar = 0;
        if (!host->tabifiedDockWidgets(dock).isEmpty())
            for (const QTabBar* bar : host->findChildren<QTabBar*>())
                if (bar->isVisible() && bar->geometry().left() == r.left())
                    tabBar = bar->height();
        // Its share of the host, give or take the separators.
        QVERIFY2(std::abs(r.width() - spec.width * host->width()) < 0.02 * host->width(),
                 spec.objectName);
        QVERIFY2(std::abs(r.height() + tabBar - spec.height * host->height()) <
                     0.02 * host->height(),
                 spec.objectName);
        if (spec.under) {
            QCOMPARE(r.left(), rect(*spec.under).left());
            QVERIFY(r.top() > rect(*spec.under).bottom());
            continue;
        }
        if (left && dockSpec(*left).area == spec.area)
            QVERIFY(r.left() > rect(*left).right());
        left = spec.dock;
    }
    // Alerts | Execution Timeline over Graph Structure | Graph Execution; Source | Stack Trace.
    QVERIFY(rect(Dock::Alerts).right() < rect(Dock::ExecutionTimeline).left());
    QVERIFY(rect(Dock::ExecutionTimeline).bottom() < rect(Dock::GraphStructure).top());
    QVERIFY(rect(Dock::GraphStructure).right() < rect(Dock::GraphExecution).left());
    QVERIFY(rect(Dock::Alerts).bottom() < rect(Dock::Source).top());
    QVERIFY(rect(Dock::Source).right() < rect(Dock::StackTrace).left());

    // View › Reset Layout puts back the very same layout after the docks were moved about.
    host->splitDockWidget(window.dock(Dock::StackTrace), window.dock(Dock::GraphStructure),
                          Qt::Horizontal);
    window.dock(Dock::Alerts)->setFloating(true);
    window.dock(Dock::Source)->hide();
    QTest::qWait(50);
    QVERIFY(geometries() != initial);
    window.actions()->resetLayout->trigger();
    QTest::qWait(100);
    QCOMPARE(geometries(), initial);
}

void TestMainWindow::docksKeepTheNamesSavedLayoutsUse()
{
    // Saved layouts find their docks by these names: renaming one loses the users' layouts.
    const std::pair<Dock, const char*> names[] = {
        {Dock::Alerts, "alertsDock"},
        {Dock::ExecutionTimeline, "executionTimelineDock"},
        {Dock::GraphStructure, "graphStructureDock"},
        {Dock::GraphExecution, "graphExecutionDock"},
        {Dock::Executions, "executionsDock"},
        {Dock::Source, "sourceDock"},
        {Dock::StackTrace, "stackTraceDock"},
        {Dock::Tensor, "tensorDock"}};
    MainWindow window({.useSettings = false});
    QCOMPARE(window.findChildren<QDockWidget*>().size(), qsizetype(std::size(names)));
    for (const auto& [dock, name] : names)
        QCOMPARE(window.dock(dock)->objectName(), QString::fromLatin1(name));
}

void TestMainWindow::resetLayoutRestoresTheDocks()
{
    MainWindow window({.useSettings = false});
    window.show();
    const QList<QDockWidget*> docks = window.findChildren<QDockWidget*>();
    QCOMPARE(docks.size(), 8);
    window.dock(Dock::Alerts)->setFloating(true);
    window.dock(Dock::ExecutionTimeline)->hide();
    window.resetLayout();
    for (QDockWidget* dock : docks) {
        QVERIFY(!dock->isFloating());
        QVERIFY(!dock->isHidden());
    }
}

void TestMainWindow::layoutAndRecentLogdirsAreKeptAcrossRuns()
{
    {
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, m_demoDir.path()));
        auto* stack = window.findChild<QDockWidget*>(QStringLiteral("stackTraceDock"));
        QVERIFY(stack);
        stack->hide();
        window.close();
    }
    MainWindow again;
    again.show();
    QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("stackTraceDock"))->isHidden());
    QCOMPARE(again.recentLogdirs().size(), 1);
    QVERIFY(again.startPage()->recent().first().endsWith(QDir(m_demoDir.path()).dirName()));
    again.resetLayout();
    QVERIFY(!again.findChild<QDockWidget*>(QStringLiteral("stackTraceDock"))->isHidden());
    again.close();
    QSettings().clear();
}

void TestMainWindow::darkPaletteReadsWell()
{
    // Fusion's dark palette, as a desktop in dark mode gives it.
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Button, QColor(0x33, 0x35, 0x3a));
    dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd0));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    const QPalette light = QApplication::palette();
    QApplication::setPalette(dark);

    MainWindow window({.useSettings = false});
    window.resize(1600, 1000);
    window.show();
    const QImage start = window.grab().toImage();
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QVERIFY(window.jumpToFirstAlert());
    QTest::qWait(200);
    const QImage shot = window.grab().toImage();
    // The source view follows the palette: its paper is dark.
    QWidget* editor = window.sourcePanel()->tabs()->currentWidget();
    QVERIFY(editor);
    const QPoint paper = editor->mapTo(&window, QPoint(editor->width() - 40, editor->height() / 2));
    QVERIFY(shot.pixelColor(paper * shot.devicePixelRatio()).lightnessF() < 0.3);
    // Pictures to look at, when asked for.
    const QString dir = qEnvironmentVariable("NANSCOPE_TEST_SHOTS");
    if (!dir.isEmpty()) {
        start.save(dir + QStringLiteral("/start-dark.png"));
        shot.save(dir + QStringLiteral("/window-dark.png"));
    }
    QApplication::setPalette(light);
}

// At 1280×800 (the default window on a small laptop screen), what a row is and whether it is
// healthy fit side by side in Graph Execution: no sideways scrolling, no number or health text
// cut, and every op's own name (its last scope) whole.
namespace {

// The checks of graphExecutionKeyColumnsFitAt1280 on one logdir.
void checkKeyColumnsFitAt1280(const QString& logdir)
{
    MainWindow window({.useSettings = false});
    QVERIFY(showAtFirstAlert(window, logdir));
    auto* panel = window.graphExecutionPanel();
    nanscope::widgets::CopyableTableView* view = panel->view();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy(), kWait);
    QCoreApplication::processEvents();
    QCOMPARE(view->horizontalScrollBar()->value(), 0);
    int right = 0;
    for (const int column : views::GraphExecutionPanel::keyColumns()) {
        QVERIFY(!view->isColumnHidden(column));
        right = std::max(right, view->columnViewportPosition(column) + view->columnWidth(column));
    }
    QVERIFY2(right <= view->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(right).arg(view->viewport()->width())));
    // The health column is as wide as its text, not a fixed thirty digits.
    const int digit = view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    QVERIFY(view->columnWidth(items::GraphExecutionModel::HealthColumn) < digit * 30);

    using Model = items::GraphExecutionModel;
    const int first = view->rowAt(0);
    int last = view->rowAt(view->viewport()->height() - 1);
    last = last < 0 ? view->model()->rowCount() - 1 : last;
    QVERIFY(first >= 0 && last > first);
    const int margin =
        2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    for (int row = first; row <= last; ++row) {
        for (const int column :
             {int(Model::IndexColumn), int(Model::HealthColumn), int(Model::OpTypeColumn)}) {
            const QModelIndex index = view->model()->index(row, column);
            QStyleOptionViewItem option;
            option.initFrom(view);
            option.rect = view->visualRect(index);
            const int needed = view->itemDelegateForIndex(index)->sizeHint(option, index).width();
            QVERIFY2(needed <= view->columnWidth(column),
                     qPrintable(QStringLiteral("row %1 column %2: %3 > %4")
                                    .arg(row)
                                    .arg(column)
                                    .arg(needed)
                                    .arg(view->columnWidth(column))));
        }
        // The row number as the style lays it out, in fractional pixels: a column as wide as
        // its integer advance had "1,797" elided to "1…7".
        const QString number =
            QLocale().toString(view->model()->index(row, Model::IndexColumn).data().toULongLong());
        QVERIFY2(QFontMetricsF(view->font()).horizontalAdvance(number) <=
                     view->columnWidth(Model::IndexColumn) - margin,
                 qPrintable(number));
        const QString tensor = view->model()->index(row, Model::TensorColumn).data().toString();
        const QString shown = widgets::elideScopeName(
            tensor, view->fontMetrics(), view->columnWidth(Model::TensorColumn) - margin);
        QVERIFY2(shown.endsWith(tensor.section(QLatin1Char('/'), -1)),
                 qPrintable(tensor + QStringLiteral(" shown as ") + shown));
    }
}

} // namespace

void TestMainWindow::graphExecutionKeyColumnsFitAt1280()
{
    checkKeyColumnsFitAt1280(m_demoDir.path());
    if (QTest::currentTestFailed())
        return;
    // Row numbers of four digits and a group separator ("1,797").
    QTemporaryDir large;
    QVERIFY(large.isValid());
    test::writeLargeTensorFlowLogdir(large.path().toStdString(),
                                     test::TensorFlowStack::TutorialModule, 2000);
    checkKeyColumnsFitAt1280(large.path());
}

// On a wide window the details (dtype, size, graph) show beside the key columns instead of
// scrolling behind a tensor column stretched to the pane's end.
void TestMainWindow::graphExecutionShowsItsDetailsWhenWide()
{
    MainWindow window({.useSettings = false});
    window.resize(2400, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, m_demoDir.path()));
    QVERIFY(window.jumpToFirstAlert());
    auto* panel = window.graphExecutionPanel();
    nanscope::widgets::CopyableTableView* view = panel->view();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy(), kWait);
    QCoreApplication::processEvents();
    QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
    using Model = items::GraphExecutionModel;
    for (const int column :
         {int(Model::DTypeColumn), int(Model::ShapeColumn), int(Model::GraphColumn)}) {
        QVERIFY(!view->isColumnHidden(column));
        QVERIFY(view->columnViewportPosition(column) + view->columnWidth(column) <=
                view->viewport()->width());
    }
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
