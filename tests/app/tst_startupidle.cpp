// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window readies while it waits for its first logdir: the record checks that
// opening one runs, built once per process (core::prepareRecordChecks), in an idle moment rather
// than in the event that opens the logdir.
#include "mainwindow.hpp"
#include "nanscope/core/logdirlayout.hpp"

#include <QStandardPaths>
#include <QTest>

using nanscope::app::MainWindow;

class TestStartupIdle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theRecordChecksAreReadyBeforeALogdirOpens();
};

void TestStartupIdle::theRecordChecksAreReadyBeforeALogdirOpens()
{
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window({.useSettings = false});
    // Nothing in this process has checked a record yet, nor has the window had an idle moment.
    QVERIFY(!nanscope::core::recordChecksPrepared());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(nanscope::core::recordChecksPrepared());
    QVERIFY(window.isShowingStartPage());
}

QTEST_MAIN(TestStartupIdle)
#include "tst_startupidle.moc"
