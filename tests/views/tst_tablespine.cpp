// SPDX-License-Identifier: GPL-3.0-or-later
// What the table panels share: the host and device filters (PlaceFilters), the rows a scan of
// the snapshot works out (FilteredRows), the fitted columns (widgets::FittedColumns), and the
// pools that long work runs on (backgroundpool.hpp).
#include "backgroundpool.hpp"
#include "filteredrows.hpp"
#include "hostlogdirs.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/threadpriority.hpp"
#include "nanscope/core/tracequery.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/fittedcolumns.hpp"
#include "placefilters.hpp"
#include "tempdir.hpp"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QWidget>
#include <tuple>

using namespace nanscope;
using namespace nanscope::views;

namespace {

items::SnapshotPtr read(const std::filesystem::path& dir)
{
    core::LogdirReader reader(dir);
    return reader.update();
}

FilteredRows::Scan nonFiniteTraces()
{
    return [](const core::Snapshot& s, std::uint64_t begin, std::uint64_t end,
              const std::atomic_bool& stop) {
        const core::TraceMatcher matcher(s, core::TraceFilter{.nonFiniteOnly = true});
        return FilteredRows::Rows{core::matchingRows(s, matcher, begin, end, &stop)};
    };
}

} // namespace

class TestTableSpine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Long work runs on its own pool, never Qt's global one, from a thread that gives the GUI
    // thread the core first.
    void backgroundWorkRunsOnItsPoolBelowTheGuiThread()
    {
        QThreadPool* pool = views::newBackgroundPool(QStringLiteral("test-pool"), 1);
        QCOMPARE(pool->maxThreadCount(), 1);
        const QThread* gui = QThread::currentThread();
        auto future = views::runInBackground(pool, [gui, pool] {
            const QThread* here = QThread::currentThread();
            return std::tuple{here != gui, pool->contains(here),
                              QThreadPool::globalInstance()->contains(here),
                              core::currentThreadNiceness()};
        });
        const auto [offTheGuiThread, onItsPool, onTheGlobalPool, niceness] = future.result();
        QVERIFY(offTheGuiThread);
        QVERIFY(onItsPool);
        QVERIFY(!onTheGlobalPool);
#if defined(__linux__)
        QVERIFY(niceness > core::currentThreadNiceness());
#else
        Q_UNUSED(niceness);
#endif
        delete pool;
    }

    void placeFiltersListSeveralHostsOnly()
    {
        test::TempDir dir;
        QVERIFY(test::writeTwoHostExecutions(dir.path()));
        QWidget panel;
        PlaceFilters places(QStringLiteral("hosts"), QStringLiteral("devices"), &panel);
        QSignalSpy hosts(&places, &PlaceFilters::hostChosen);

        const PlaceFilters::Counts counts = places.fill(read(dir.path()));
        QCOMPARE(counts.hosts, std::size_t(2));
        QCOMPARE(places.hostBox()->count(), 3); // "All hosts" first
        QVERIFY(!places.hostBox()->isHidden());
        QCOMPARE(hosts.count(), 0); // filling is not the user's choice

        places.hostBox()->setCurrentIndex(2);
        QCOMPARE(hosts.count(), 1);
        QCOMPARE(hosts.at(0).at(0).value<std::optional<std::uint32_t>>(),
                 std::optional<std::uint32_t>(1));
        places.hostBox()->setCurrentIndex(0);
        QCOMPARE(hosts.at(1).at(0).value<std::optional<std::uint32_t>>(),
                 std::optional<std::uint32_t>());

        // Shown from a filter set elsewhere: no signal, and an unknown choice shows "All".
        places.showChoice(1u, std::nullopt);
        QCOMPARE(places.hostBox()->currentIndex(), 2);
        places.showChoice(7u, std::nullopt);
        QCOMPARE(places.hostBox()->currentIndex(), 0);
        QCOMPARE(hosts.count(), 2);

        // One host: nothing to choose.
        QCOMPARE(places.fill(nullptr).hosts, std::size_t(0));
        QVERIFY(places.hostBox()->isHidden());
        QVERIFY(places.deviceBox()->isHidden());
    }

    void filteredRowsNarrowAndShowAllAgain()
    {
        // The small logdir's four traces: Log (−∞) and Mul (NaN) are non-finite.
        test::TempDir dir;
        test::writeSmallLogdir(dir.path());
        items::GraphExecutionModel model;
        QAbstractItemModelTester modelTester(&model);
        RowListProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy);
        QList<FilteredRows::Change> changes;
        FilteredRows rows(
            &model, &proxy,
            [&](FilteredRows::Change change, FilteredRows::Rows&) { changes << change; }, nullptr);

        model.setSnapshot(read(dir.path()));
        QCOMPARE(proxy.rowCount(), 4);
        rows.scan(nonFiniteTraces(), true);
        QVERIFY(!rows.idle());
        QTRY_VERIFY(rows.idle());
        QCOMPARE(changes, QList<FilteredRows::Change>{FilteredRows::Change::Rows});
        QCOMPARE(proxy.rowCount(), 2);
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), 2);
        QCOMPARE(proxy.mapToSource(proxy.index(1, 0)).row(), 3);
        QCOMPARE(rows.covered(), std::uint64_t(4));

        rows.showAll();
        QCOMPARE(changes.last(), FilteredRows::Change::All);
        QVERIFY(!proxy.isFiltered());
        QCOMPARE(proxy.rowCount(), 4);
    }

    void fittedColumnsStopAtTheUsersWidths()
    {
        test::TempDir dir;
        test::writeSmallLogdir(dir.path());
        items::GraphExecutionModel model;
        model.setSnapshot(read(dir.path()));
        widgets::CopyableTableView view;
        view.setModel(&model);
        int fits = 0;
        widgets::FittedColumns columns(
            &view, [&](bool) { view.setColumnWidth(0, 40 + ++fits); }, nullptr);
        columns.fit();
        QCOMPARE(fits, 1);
        QVERIFY(columns.fitted());
        // Its own widths are not the user's; a resize without a mouse button is not either.
        view.horizontalHeader()->resizeSection(1, 99);
        columns.fit();
        QCOMPARE(fits, 2);
        QVERIFY(!columns.userSized());
        columns.restart();
        QVERIFY(!columns.fitted());
    }
};

QTEST_MAIN(TestTableSpine)
#include "tst_tablespine.moc"
