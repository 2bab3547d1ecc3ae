// SPDX-License-Identifier: GPL-3.0-or-later
// A run of several ranks whose NaN was made on a rank other than the first: the window reads
// the first rank (as TensorFlow does), finds in the background that another rank made the run's
// first NaN, says so in the banner, and its button reads that rank instead.
#include "hostlogdirs.hpp"
#include "mainwindow.hpp"
#include "mainwindowload.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/hostoriginsearch.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/widgets/banner.hpp"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace nanscope;
using app::MainWindow;

namespace {

constexpr int kWait = 30000;

QPushButton* bannerButton(widgets::Banner* banner)
{
    for (QPushButton* button : banner->findChildren<QPushButton*>())
        if (button->isVisible())
            return button;
    return nullptr;
}

} // namespace

class TestHostOrigins : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSearchFindsTheRankThatMadeTheNaN();
    void theBannerReadsTheRankThatMadeTheFirstNaN();
    void aRunWhoseFirstHostMadeTheNaNFirstSaysNothing();
    void theExecutionsHostBoxReadsAnotherHost();
};

void TestHostOrigins::theSearchFindsTheRankThatMadeTheNaN()
{
    QTemporaryDir dir;
    QVERIFY(test::writeNaNOnSecondRank(dir.path().toStdString()));
    items::LogdirSession session;
    QSignalSpy finished(&session, &items::LogdirSession::loadingFinished);
    session.open(dir.path());
    QVERIFY(finished.wait(kWait));
    items::HostOriginSearch search;
    std::optional<items::HostOrigins> result;
    connect(&search, &items::HostOriginSearch::found, this,
            [&](const items::HostOrigins& o) { result = o; });
    search.start(session.snapshot(), dir.path(), {});
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), kWait);
    QCOMPARE(result->mainHost, std::string("node-rank0"));
    QVERIFY(!result->mainHasOrigin);
    QCOMPARE(result->others.size(), std::size_t{1});
    QCOMPARE(result->others[0].origin.origin.opType, std::string("aten::div"));
    QVERIFY(result->earlierThanMain() == &result->others[0]);

    // Where the first host made the earlier origin, the other's is listed but not earlier.
    QTemporaryDir firstEarlier;
    QVERIFY(test::writeTwoHostExecutions(firstEarlier.path().toStdString()));
    items::LogdirSession other;
    QSignalSpy otherFinished(&other, &items::LogdirSession::loadingFinished);
    other.open(firstEarlier.path());
    QVERIFY(otherFinished.wait(kWait));
    result.reset();
    search.start(other.snapshot(), firstEarlier.path(), {});
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), kWait);
    QVERIFY(result->mainHasOrigin);
    QCOMPARE(result->others.size(), std::size_t{1});
    QCOMPARE(result->others[0].host, std::string("host-b"));
    QVERIFY(result->earlierThanMain() == nullptr);

    // A search replaced by another delivers nothing; a cancelled one neither.
    int deliveries = 0;
    connect(&search, &items::HostOriginSearch::found, this, [&] { ++deliveries; });
    search.start(session.snapshot(), dir.path(), {});
    search.start(session.snapshot(), dir.path(), {});
    QTRY_COMPARE_WITH_TIMEOUT(deliveries, 1, kWait);
    search.start(session.snapshot(), dir.path(), {});
    search.cancel();
    QTest::qWait(500);
    QCOMPARE(deliveries, 1);
}

void TestHostOrigins::theBannerReadsTheRankThatMadeTheFirstNaN()
{
    QTemporaryDir dir;
    QVERIFY(test::writeNaNOnSecondRank(dir.path().toStdString()));
    MainWindow window(app::MainWindowOptions{.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    window.openLogdir(dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QVERIFY(!window.alertsPanel()->hasOrigin()); // rank 0 made no NaN

    widgets::Banner* banner = window.banner();
    QTRY_VERIFY_WITH_TIMEOUT(
        banner->isVisible() && banner->title().contains(QStringLiteral("node-rank1")), kWait);
    QCOMPARE(banner->kind(), widgets::Banner::Kind::Warning);
    QVERIFY(banner->text().contains(QStringLiteral("aten::div")));
    QPushButton* read = bannerButton(banner);
    QVERIFY(read);
    QCOMPARE(read->text(), QStringLiteral("Read node-rank1"));

    loaded.clear();
    read->click();
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QCOMPARE(window.session()->mainHost(), QStringLiteral("node-rank1"));
    QTRY_VERIFY_WITH_TIMEOUT(window.alertsPanel()->hasOrigin(), kWait);
    QVERIFY2(window.alertsPanel()->originText().startsWith(QStringLiteral("Origin: aten::div")),
             qPrintable(window.alertsPanel()->originText()));
    // Read as the main host, rank 1 is the run's earliest: no banner sends the user back.
    QTest::qWait(1000);
    QVERIFY(!(banner->isVisible() && banner->title().contains(QStringLiteral("made the run's"))));

    // Another logdir starts from its first host again.
    QTemporaryDir other;
    QVERIFY(test::writeTwoHostExecutions(other.path().toStdString()));
    loaded.clear();
    window.openLogdir(other.path());
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QVERIFY(window.session()->mainHost().isEmpty());
}

void TestHostOrigins::aRunWhoseFirstHostMadeTheNaNFirstSaysNothing()
{
    QTemporaryDir dir;
    QVERIFY(test::writeTwoHostExecutions(dir.path().toStdString())); // host-a's Log comes first
    MainWindow window(app::MainWindowOptions{.useSettings = false});
    window.show();
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    window.openLogdir(dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QVERIFY(window.alertsPanel()->hasOrigin());
    QTest::qWait(1500); // the search reads host-b and finds its Div later than host-a's Log
    QVERIFY(!window.banner()->title().contains(QStringLiteral("made the run's first")));
}

void TestHostOrigins::theExecutionsHostBoxReadsAnotherHost()
{
    QTemporaryDir dir;
    QVERIFY(test::writeTwoHostExecutions(dir.path().toStdString()));
    MainWindow window(app::MainWindowOptions{.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(test::openAndWait(window, dir.path()));
    QComboBox* hosts = window.executionsPanel()->hostBox();
    QCOMPARE(hosts->count(), 2);
    QCOMPARE(window.executionsPanel()->model()->rowCount(), 2); // host-a's Exp and Log
    QSignalSpy loaded(&window, &MainWindow::logdirLoaded);
    Q_EMIT hosts->activated(1);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && !window.isBusy(), kWait);
    QCOMPARE(window.session()->mainHost(), QStringLiteral("host-b"));
    QCOMPARE(hosts->itemText(0), QStringLiteral("host-b"));     // the host read now, first
    QCOMPARE(window.executionsPanel()->model()->rowCount(), 3); // Sqrt, Div, Add
}

QTEST_MAIN(TestHostOrigins)
#include "tst_hostorigins.moc"
