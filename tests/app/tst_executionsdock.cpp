// SPDX-License-Identifier: GPL-3.0-or-later
// Where the main window puts Executions: a tab beside Graph Execution, in front for a run of
// executions only (PyTorch's), behind it for a run of graph traces; its View › Panels entry,
// Edit › Find and Go to acting on it in an eager run, and --print-focus's report of its row.
#include "docklayout.hpp"
#include "eagerlogdir.hpp"
#include "focusreport.hpp"
#include "mainwindow.hpp"
#include "mainwindowactions.hpp"
#include "mainwindowload.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "tensorflowlogdir.hpp"

#include <QAction>
#include <QDockWidget>
#include <QJsonObject>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace nanscope;
using app::Dock;
using app::MainWindow;

namespace {

constexpr int kWait = 30000;

using test::openAndWait;

// A dock in front of its tabs (Qt moves the others out of sight rather than hide them).
bool inFront(const QDockWidget* dock)
{
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

QMainWindow* hostOf(const MainWindow& window)
{
    return qobject_cast<QMainWindow*>(window.dock(Dock::Executions)->parentWidget());
}

} // namespace

class TestExecutionsDock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eagerRunRaisesExecutions();
    void graphRunKeepsGraphExecutionInFront();
    void viewMenuAndResetLayout();
};

void TestExecutionsDock::eagerRunRaisesExecutions()
{
    const test::EagerLogdir logdir(3, 1);
    QVERIFY(logdir.ok());
    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, logdir.path()));
    QDockWidget* executions = window.dock(Dock::Executions);
    QDockWidget* graph = window.dock(Dock::GraphExecution);
    // In Graph Execution's place, in front of it: a tab, not a dock of its own.
    QVERIFY(hostOf(window)->tabifiedDockWidgets(graph).contains(executions));
    QTRY_VERIFY(inFront(executions));
    QVERIFY(!inFront(graph));
    QCOMPARE(executions->windowTitle(), QStringLiteral("Executions (21)"));
    views::ExecutionsPanel* panel = window.executionsPanel();
    QCOMPARE(panel->proxy()->rowCount(), 21);
    // Another panel's focus (the Alerts' first alert: the first NaN) selects its row.
    QVERIFY(window.jumpToFirstAlert());
    QVERIFY(window.navigator()->focus().event.has_value());
    QCOMPARE(panel->currentExecution(), qint64(window.navigator()->focus().event->index));
    // Edit › Find and Go to act on it: Graph Execution has no rows here.
    window.actions()->find->trigger();
    QVERIFY(panel->findBar()->isVisible());
    window.actions()->goTo->trigger();
    QVERIFY(panel->goToEdit()->hasFocus());
    QVERIFY(panel->goToIndex(3));
    QTRY_VERIFY(!window.isBusy());
    // --print-focus reports the row.
    const QJsonObject report =
        app::focusReport(window).value(QStringLiteral("executions")).toObject();
    QCOMPARE(report.value(QStringLiteral("execution")).toInt(), 3);
    QCOMPARE(report.value(QStringLiteral("op_type")).toString(), QStringLiteral("aten::linear"));
    QCOMPARE(report.value(QStringLiteral("module")).toString(), QStringLiteral("Net.fc2"));
    QCOMPARE(report.value(QStringLiteral("health")).toString(), QStringLiteral("finite"));
}

void TestExecutionsDock::graphRunKeepsGraphExecutionInFront()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    test::writeTensorFlowLogdir(dir.path().toStdString(), test::TensorFlowStack::KerasModel);
    const test::EagerLogdir eager(1, 0);
    MainWindow window({.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // After an eager run, a graph run brings Graph Execution back to the front.
    QVERIFY(openAndWait(window, eager.path()));
    QTRY_VERIFY(inFront(window.dock(Dock::Executions)));
    QVERIFY(openAndWait(window, dir.path()));
    QTRY_VERIFY(inFront(window.dock(Dock::GraphExecution)));
    QVERIFY(!inFront(window.dock(Dock::Executions)));
    QVERIFY(window.session()->snapshot()->traceCount() > 0);
    // Its tf.function calls are still listed behind the tab.
    QCOMPARE(window.executionsPanel()->proxy()->rowCount(),
             int(window.session()->snapshot()->executionCount()));
}

void TestExecutionsDock::viewMenuAndResetLayout()
{
    const test::EagerLogdir logdir(1, 0);
    MainWindow window({.useSettings = false});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, logdir.path()));
    // View › Panels lists it like the others, after Graph Execution.
    QStringList panels;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
            for (QAction* item : menu->menu()->actions())
                if (item->menu())
                    for (QAction* panel : item->menu()->actions())
                        panels << panel->text();
    QCOMPARE(panels.indexOf(QStringLiteral("Executions")),
             panels.indexOf(QStringLiteral("Graph Execution")) + 1);
    QDockWidget* executions = window.dock(Dock::Executions);
    executions->toggleViewAction()->trigger();
    QVERIFY(executions->isHidden());
    executions->toggleViewAction()->trigger();
    QVERIFY(!executions->isHidden());
    // Moved out and closed, Reset Layout puts it back as a tab beside Graph Execution.
    executions->setFloating(true);
    executions->hide();
    window.resetLayout();
    QVERIFY(!executions->isHidden());
    QVERIFY(!executions->isFloating());
    QVERIFY(hostOf(window)
                ->tabifiedDockWidgets(window.dock(Dock::GraphExecution))
                .contains(executions));
    // And in front again: the run has executions only.
    QTRY_VERIFY(inFront(executions));
}

QTEST_MAIN(TestExecutionsDock)
#include "tst_executionsdock.moc"
