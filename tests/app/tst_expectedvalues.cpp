// SPDX-License-Identifier: GPL-3.0-or-later
// "Treat as Expected" in the window: the alert's pattern is kept per logdir in the settings, the
// logdir is read again with it (the origin goes), a later window finds it, and "Expected
// Values…" takes it away again.
#include "expectedvalues.hpp"
#include "expectedvaluesdialog.hpp"
#include "mainwindow.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/alertspanel.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

using namespace nanscope;
using app::ExpectedValues;
using app::MainWindow;

namespace {

constexpr int kWait = 30000;

// Opens `path`, or reads it again, and waits until every panel has worked out what it shows.
bool loadAndWait(MainWindow& window, const std::function<void()>& load)
{
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    load();
    return QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, kWait);
}

} // namespace

class TestExpectedValues : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void patternsAreKeptPerLogdir();
    void treatAsExpectedReloadsWithoutTheOrigin();
    void theDialogEditsTheList();

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_cacheDir;
    QTemporaryDir m_logdir;
};

void TestExpectedValues::initTestCase()
{
    // Settings and saved indexes go to directories of the test's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("NaNscope tests"));
    QVERIFY(m_settingsDir.isValid() && m_cacheDir.isValid() && m_logdir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    test::writeMaskedAttentionLogdir(m_logdir.path().toStdString());
}

void TestExpectedValues::patternsAreKeptPerLogdir()
{
    QTemporaryDir other;
    QVERIFY(other.isValid());
    {
        ExpectedValues values;
        QString error;
        QVERIFY(values.add(other.path(), QStringLiteral("aten::where:-inf,nan"), &error));
        QVERIFY(!values.add(other.path(), QStringLiteral("aten::where:-inf,nan"), &error));
        QVERIFY(error.contains(QStringLiteral("already")));
        QVERIFY(!values.add(other.path(), QStringLiteral("aten::log:minus"), &error));
        QVERIFY(!error.isEmpty());
        // A file of the logdir names the logdir.
        QCOMPARE(values.patterns(other.filePath(QStringLiteral("x.metadata"))), QStringList{});
        QCOMPARE(ExpectedValues::logdirKey(other.path() + QStringLiteral("/./")),
                 QDir::cleanPath(other.path()));
    }
    // Kept across runs, and not for another logdir.
    ExpectedValues again;
    QCOMPARE(again.patterns(other.path()), QStringList{QStringLiteral("aten::where:-inf,nan")});
    QVERIFY(again.patterns(m_logdir.path()).isEmpty());
    again.clear(other.path());
    QVERIFY(ExpectedValues().patterns(other.path()).isEmpty());
    // Without settings, nothing is kept.
    ExpectedValues memory(false);
    QVERIFY(memory.add(other.path(), QStringLiteral("aten::log")));
    QVERIFY(ExpectedValues().patterns(other.path()).isEmpty());
}

void TestExpectedValues::treatAsExpectedReloadsWithoutTheOrigin()
{
    const app::MainWindowOptions options{.useSettings = true,
                                         .indexCacheDirectory = m_cacheDir.path(),
                                         .spillDirectory = m_cacheDir.path()};
    {
        MainWindow window(options);
        window.resize(1280, 800);
        window.show();
        QVERIFY(loadAndWait(window, [&] { window.openLogdir(m_logdir.path()); }));
        views::AlertsPanel* alerts = window.alertsPanel();
        QVERIFY(alerts->hasOrigin());
        QVERIFY(alerts->originText().startsWith(QStringLiteral("Origin: aten::log")));
        QCOMPARE(alerts->proxy()->rowCount(), 2);
        // The first listed alert is the log's (the mask is set aside): the window's jump.
        QVERIFY(window.jumpToFirstAlert());
        QCOMPARE(window.navigator()->focus().event->index, std::uint64_t{test::Log});

        // "Treat as Expected" on the log's alert: kept for this logdir, and read again.
        QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
        alerts->treatRowAsExpected(0);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
        QCOMPARE(window.expectedPatterns(), QStringList{QStringLiteral("aten::log:-inf")});
        QCOMPARE(window.session()->expected().size(), 1u);
        QVERIFY(!alerts->hasOrigin());
        QVERIFY2(alerts->originText().startsWith(QStringLiteral("No unintended NaN or ∞")),
                 qPrintable(alerts->originText()));
        QVERIFY(!window.jumpToFirstAlert()); // nothing left to jump to
        // Asking twice adds nothing.
        QVERIFY(!window.treatAsExpected(QStringLiteral("aten::log:-inf")));
    }
    // In the settings, under the logdir's path; a new window applies it at once.
    const QVariantMap saved = QSettings().value(QStringLiteral("expectedValues")).toMap();
    QCOMPARE(saved.value(QDir::cleanPath(m_logdir.path())).toStringList(),
             QStringList{QStringLiteral("aten::log:-inf")});
    MainWindow window(options);
    window.show();
    QVERIFY(loadAndWait(window, [&] { window.openLogdir(m_logdir.path()); }));
    QVERIFY(!window.alertsPanel()->hasOrigin());
    // Forgotten: the origin is back after the reload.
    window.setExpectedPatterns({});
    QTRY_VERIFY_WITH_TIMEOUT(window.alertsPanel()->hasOrigin() && !window.isBusy(), kWait);
    QVERIFY(window.expectedValues()->patterns(m_logdir.path()).isEmpty());
}

void TestExpectedValues::theDialogEditsTheList()
{
    app::ExpectedValuesDialog dialog(m_logdir.path(), {QStringLiteral("aten::masked_fill:-inf")},
                                     {QStringLiteral("aten::empty")});
    QVERIFY(dialog.addPattern(QStringLiteral("  Select*:-inf,nan ")));
    QVERIFY(!dialog.addPattern(QStringLiteral("Select*:-inf,nan"))); // listed
    QVERIFY(!dialog.addPattern(QStringLiteral(":nan")));             // no op
    QCOMPARE(dialog.patterns(), (QStringList{QStringLiteral("aten::masked_fill:-inf"),
                                             QStringLiteral("Select*:-inf,nan")}));
}

QTEST_MAIN(TestExpectedValues)
#include "tst_expectedvalues.moc"
