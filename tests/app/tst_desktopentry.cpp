// SPDX-License-Identifier: GPL-3.0-or-later
// What the desktop integration relies on: a file manager starts `nanscope FILE` with the logdir's
// tfdbg_events.*.metadata file (the .desktop file's Exec=nanscope %f), and the app opens that
// file's logdir; the About box names the version of project(VERSION) in CMakeLists.txt.
#include "mainwindow.hpp"
#include "nanscope/views/alertspanel.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using nanscope::app::MainWindow;

class TestDesktopEntry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opensTheLogdirOfAMetadataFile();
    void aboutShowsTheProjectVersion();

private:
    QTemporaryDir m_demoDir;
};

void TestDesktopEntry::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_demoDir.isValid());
    QProcess demo;
    demo.start(QStringLiteral(NANSCOPE_DEMO_MLP),
               {QStringLiteral("--dump_dir"), m_demoDir.path(),
                QStringLiteral("--dump_tensor_debug_mode"), QStringLiteral("FULL_HEALTH"),
                QStringLiteral("--dump_circular_buffer_size"), QStringLiteral("-1")});
    QVERIFY(demo.waitForFinished(120000));
    QCOMPARE(demo.exitCode(), 0);
}

void TestDesktopEntry::opensTheLogdirOfAMetadataFile()
{
    const QStringList metadata =
        QDir(m_demoDir.path()).entryList({QStringLiteral("tfdbg_events.*.metadata")}, QDir::Files);
    QCOMPARE(metadata.size(), 1);
    const QString file = QDir(m_demoDir.path()).filePath(metadata.first());

    MainWindow window({.useSettings = false});
    window.show();
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    window.openLogdir(file);
    QVERIFY(QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, 30000));
    QVERIFY(!window.isShowingStartPage());
    QVERIFY(window.alertsPanel()->proxy()->rowCount() > 0);
    QVERIFY(window.jumpToFirstAlert());
}

void TestDesktopEntry::aboutShowsTheProjectVersion()
{
    MainWindow window({.useSettings = false});
    window.show();
    QAction* about = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->menuRole() == QAction::AboutRole)
            about = action;
    }
    QVERIFY(about);

    // The box is modal: a timer reads and closes it from inside its event loop.
    QString text;
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, &window, [&text, &poll] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        poll.stop();
        text = box->text();
        box->accept();
    });
    poll.start();
    about->trigger();
    QVERIFY2(text.contains(QStringLiteral("NaNscope " NANSCOPE_PROJECT_VERSION)), qPrintable(text));
}

QTEST_MAIN(TestDesktopEntry)
#include "tst_desktopentry.moc"
