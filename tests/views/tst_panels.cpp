// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts, Graph Execution, Stack Trace and Source panels on their own, over a hand-written
// TensorFlow-like logdir: sorting and stepping through alerts, the origin and its hint, filters,
// find, go to index, exact input highlighting, framework folding, the sticky frame, the source
// view's marks, and logdir strings shown as plain text.
#include "hostlogdirs.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/stacktracemodel.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/views/snapshotnotices.hpp"
#include "nanscope/views/sourcepanel.hpp"
#include "nanscope/views/stacktracepanel.hpp"
#include "nanscope/widgets/chiplabel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/healthbardelegate.hpp"
#include "nanscope/widgets/plaintooltip.hpp"
#include "pylogdir.hpp"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace nanscope;
using test::PyLogdir;

namespace {

constexpr int kWait = 15000;

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

// A panel of type P over the PyLogdir, shown at a useful size.
template <typename P>
struct Setup
{
    PyLogdir logdir;
    views::Navigator navigator;
    P panel{&navigator};
    items::SnapshotPtr snapshot;

    Setup()
    {
        panel.resize(1000, 700);
        panel.show();
        if (logdir.ok()) {
            core::LogdirReader reader(logdir.path().toStdString());
            snapshot = reader.update();
            navigator.setSnapshot(snapshot);
        }
    }
};

// Graph Execution and the alerts list side by side, shown: the panels with host and device
// filters.
struct PlacePanels
{
    views::Navigator navigator;
    views::GraphExecutionPanel traces{&navigator};
    views::AlertsPanel alerts{&navigator};

    PlacePanels()
    {
        traces.resize(1000, 600);
        traces.show();
        alerts.resize(800, 600);
        alerts.show();
    }
};

void doubleClick(nanscope::widgets::CopyableTableView* view, const QModelIndex& index)
{
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

class TestPanels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void alertsListEveryAlertAndSort();
    void alertsDoubleClickFocusesTheOp();
    void alertsNextAndPrevious();
    void alertsOriginWithHint();
    void alertBadgesFilterByKind();
    void alertStepsFollowExecutionOrderWhateverTheSort();
    void sortedAlertsKeepTheirRowsWhileALoadGoesOn();
    void graphExecutionFilters();
    void graphExecutionFind();
    void graphExecutionGoToIndex();
    void graphExecutionInputsAreExact();
    void graphExecutionHealthBar();
    void graphExecutionModelsPassTheTester();
    void rowListRevealsLargeModelsInBatches();
    void stackTraceFoldsFrameworkFrames();
    void stackTraceClickAndStickyFrame();
    void sourceShowsTheLogdirsTextWithMarks();
    void logdirStringsArePlainText();
    void noticesExplainEmptyData();
    void noticesCountEveryUnreadRecord();
    void severalHostsAreColumnsAndFilters();
    void severalDevicesAreColumnsAndFilters();
};

void TestPanels::alertsListEveryAlertAndSort()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    // Every alert, with no cap: Log and the product in each step from step 1.
    const int alerts = static_cast<int>(s.snapshot->alertCount());
    QCOMPARE(alerts, 2 * (PyLogdir::kSteps - 1));
    QCOMPARE(s.panel.proxy()->rowCount(), alerts);
    QVERIFY(s.panel.windowTitle().contains(QString::number(alerts)));
    QVERIFY(s.panel.countTexts().join(QLatin1Char(' ')).contains(QStringLiteral("−∞")));

    // Sorting by the +inf count puts the product's alerts (one +inf each) last. The rows are
    // sorted on a worker thread: the list keeps its order until they arrive.
    s.panel.view()->sortByColumn(items::AlertModel::PosInfColumn, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.panel.proxy()->rowCount(), alerts);
    const QModelIndex last = s.panel.proxy()->index(alerts - 1, items::AlertModel::OpNameColumn);
    QCOMPARE(last.data().toString(), fromStd(PyLogdir::kMarkupName));
    const QModelIndex first = s.panel.proxy()->index(0, items::AlertModel::OpNameColumn);
    QCOMPARE(first.data().toString(), QStringLiteral("Log"));
    // Equal values keep the model's order: the first Log alert is the first row.
    QCOMPARE(first.siblingAtColumn(items::AlertModel::IndexColumn).data().toInt(), 1);

    // Descending by "#": the last alert first; a focus from elsewhere finds its row there.
    s.panel.view()->sortByColumn(items::AlertModel::IndexColumn, Qt::DescendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.panel.proxy()->index(0, items::AlertModel::IndexColumn).data().toInt(), alerts);
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Log)); // alert #1
    QCOMPARE(s.panel.view()->currentIndex().row(), alerts - 1);

    // Back to the model's own order: no row list at all.
    s.panel.view()->sortByColumn(items::AlertModel::IndexColumn, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.panel.proxy()->index(0, items::AlertModel::IndexColumn).data().toInt(), 1);
    QCOMPARE(s.panel.view()->currentIndex().row(), 0);
}

void TestPanels::alertsDoubleClickFocusesTheOp()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
    doubleClick(s.panel.view(), s.panel.proxy()->index(1, items::AlertModel::IndexColumn));
    const views::Focus& focus = s.navigator.focus();
    QVERIFY(focus.event);
    QCOMPARE(focus.event->index, PyLogdir::trace(1, PyLogdir::Markup));
    QCOMPARE(fromStd(s.snapshot->graphs().op(focus.op).name), fromStd(PyLogdir::kMarkupName));
}

void TestPanels::alertsNextAndPrevious()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    const auto focused = [&] {
        return s.navigator.focus().event->index;
    };
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Log));
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Markup));
    s.panel.previousAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Log));
    s.panel.previousAlert(); // wraps around to the last alert
    QCOMPARE(focused(), PyLogdir::trace(PyLogdir::kSteps - 1, PyLogdir::Markup));
    // A focus that comes from elsewhere selects its alert, and next goes on from there.
    s.navigator.focusTrace(PyLogdir::trace(5, PyLogdir::Log));
    QCOMPARE(s.panel.view()->currentIndex().row(), 8);
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(5, PyLogdir::Markup));
}

// The badge of a kind of non-finite value lists only its alerts and focuses the first of them;
// a second click, or the total's badge, lists every alert again.
void TestPanels::alertBadgesFilterByKind()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    const int all = s.panel.proxy()->rowCount();
    QCOMPARE(all, 2 * (PyLogdir::kSteps - 1));
    const auto chips = s.panel.findChildren<widgets::ChipLabel*>();
    auto badge = [&](const QString& symbol) -> widgets::ChipLabel* {
        for (widgets::ChipLabel* chip : chips)
            if (chip->text().startsWith(symbol) && chip->isVisible())
                return chip;
        return nullptr;
    };
    widgets::ChipLabel* negInf = badge(QStringLiteral("−∞"));
    widgets::ChipLabel* posInf = badge(QStringLiteral("+∞"));
    widgets::ChipLabel* total = badge(QStringLiteral("NaN/∞"));
    QVERIFY(negInf && posInf && total);
    QVERIFY(total->isChecked());

    QTest::mouseClick(negInf, Qt::LeftButton);
    QCOMPARE(s.panel.kindFilter(), views::AlertsPanel::KindFilter::NegativeInfinity);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), PyLogdir::kSteps - 1, kWait);
    QVERIFY(negInf->isChecked() && !total->isChecked());
    for (int row = 0; row < s.panel.proxy()->rowCount(); ++row)
        QCOMPARE(s.panel.proxy()->index(row, items::AlertModel::OpNameColumn).data().toString(),
                 QStringLiteral("Log"));
    // The first −∞ alert is focused, in the list and everywhere else.
    QTRY_VERIFY_WITH_TIMEOUT(s.navigator.focus().event, kWait);
    QCOMPARE(s.navigator.focus().event->index, PyLogdir::trace(1, PyLogdir::Log));
    QCOMPARE(s.panel.view()->currentIndex().row(), 0);

    // Another kind, keyboard only: Space on the focused badge.
    posInf->setFocus();
    QTest::keyClick(posInf, Qt::Key_Space);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), PyLogdir::kSteps - 1, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.navigator.focus().event->index,
                              PyLogdir::trace(1, PyLogdir::Markup), kWait);
    QVERIFY(!negInf->isChecked() && posInf->isChecked());
    // The filter survives a sort.
    s.panel.view()->sortByColumn(items::AlertModel::IndexColumn, Qt::DescendingOrder);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), PyLogdir::kSteps - 1, kWait);
    QCOMPARE(s.panel.proxy()->index(0, items::AlertModel::OpNameColumn).data().toString(),
             fromStd(PyLogdir::kMarkupName));

    QTest::mouseClick(posInf, Qt::LeftButton); // a second click: every alert again
    QCOMPARE(s.panel.kindFilter(), views::AlertsPanel::KindFilter::All);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), all, kWait);
    QVERIFY(total->isChecked() && !posInf->isChecked());

    // Filtered and sorted, then another logdir: every one of its alerts, still sorted.
    posInf->setFocus();
    QTest::keyClick(posInf, Qt::Key_Space);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), PyLogdir::kSteps - 1, kWait);
    PyLogdir other;
    QVERIFY(other.ok());
    core::LogdirReader reader(other.path().toStdString());
    s.navigator.setSnapshot(reader.update());
    QCOMPARE(s.panel.kindFilter(), views::AlertsPanel::KindFilter::All);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.panel.proxy()->rowCount(), all);
    QCOMPARE(s.panel.proxy()->index(0, items::AlertModel::IndexColumn).data().toInt(), all);
}

// While a load goes on, a sorted list keeps the rows it shows (the counts follow); at the load's
// end it shows every alert, sorted.
void TestPanels::sortedAlertsKeepTheirRowsWhileALoadGoesOn()
{
    PyLogdir logdir;
    QVERIFY(logdir.ok());
    views::Navigator navigator;
    views::AlertsPanel panel{&navigator};
    panel.resize(1000, 700);
    panel.show();
    std::uint64_t traceBytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(logdir.path().toStdString()))
        if (entry.path().extension() == ".graph_execution_traces")
            traceBytes = entry.file_size();
    QVERIFY(traceBytes > 0);
    core::LogdirReader reader(logdir.path().toStdString());
    const auto first = reader.update({.maxTraceBytes = traceBytes / 5});
    QVERIFY(!first->complete());
    const int firstAlerts = static_cast<int>(first->alertCount());
    QVERIFY(firstAlerts > 2);
    navigator.setSnapshot(first);
    panel.view()->sortByColumn(items::AlertModel::IndexColumn, Qt::DescendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), kWait);
    QCOMPARE(panel.proxy()->rowCount(), firstAlerts);

    QTest::qWait(1100); // past the list's once-a-second pace during a load
    const auto second = reader.update({.maxTraceBytes = traceBytes * 3 / 4}); // past the fillers
    QVERIFY(!second->complete());
    QVERIFY(static_cast<int>(second->alertCount()) > firstAlerts);
    navigator.setSnapshot(second);
    QCOMPARE(panel.proxy()->rowCount(), firstAlerts);
    QCOMPARE(panel.proxy()->index(0, items::AlertModel::IndexColumn).data().toInt(), firstAlerts);
    QVERIFY(panel.countTexts().first().endsWith(QString::number(second->alertCount())));

    const auto last = reader.update();
    QVERIFY(last->complete());
    navigator.setSnapshot(last);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), kWait);
    const int all = static_cast<int>(last->alertCount());
    QCOMPARE(panel.proxy()->rowCount(), all);
    QCOMPARE(panel.proxy()->index(0, items::AlertModel::IndexColumn).data().toInt(), all);
}

void TestPanels::alertStepsFollowExecutionOrderWhateverTheSort()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    // Sorted by +∞ count, the list holds every Log alert before every product alert ...
    s.panel.view()->sortByColumn(items::AlertModel::PosInfColumn, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    const auto focused = [&] {
        return s.navigator.focus().event->index;
    };
    // ... but F3 walks them as the program ran: Log then product, step after step.
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Log));
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Markup));
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(2, PyLogdir::Log));
    s.panel.previousAlert();
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Markup));
    // With a kind filter, only that kind, still in execution order.
    s.panel.setKindFilter(views::AlertsPanel::KindFilter::NegativeInfinity);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), PyLogdir::kSteps - 1, kWait);
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Log));
    s.panel.nextAlert();
    QCOMPARE(focused(), PyLogdir::trace(2, PyLogdir::Log));
    s.panel.previousAlert();
    s.panel.previousAlert(); // wraps around to the last −∞ alert
    QCOMPARE(focused(), PyLogdir::trace(PyLogdir::kSteps - 1, PyLogdir::Log));
}

void TestPanels::alertsOriginWithHint()
{
    Setup<views::AlertsPanel> s;
    QVERIFY(s.logdir.ok());
    QTRY_VERIFY_WITH_TIMEOUT(s.panel.hasOrigin(), kWait);
    const QString text = s.panel.originText();
    QVERIFY2(text.contains(QStringLiteral("Origin: Log in loss")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("log of zero")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Fix:")), qPrintable(text));
    QVERIFY(s.panel.goToOrigin());
    QCOMPARE(s.navigator.focus().event->index, PyLogdir::trace(1, PyLogdir::Log));
}

void TestPanels::graphExecutionFilters()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    auto* proxy = s.panel.proxy();
    QCOMPARE(proxy->rowCount(), static_cast<int>(PyLogdir::traceCount()));

    s.panel.setFilter({.nonFiniteOnly = true});
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(proxy->rowCount(), 2 * (PyLogdir::kSteps - 1));
    for (int row = 0; row < proxy->rowCount(); ++row)
        QVERIFY(proxy->index(row, 0).data(items::NonFiniteRole).toBool());
    QVERIFY(s.panel.statusText().contains(QStringLiteral("of")));

    s.panel.setFilter({.opType = "Log"});
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(proxy->rowCount(), PyLogdir::kSteps);
    for (int row = 0; row < proxy->rowCount(); ++row)
        QCOMPARE(proxy->index(row, items::GraphExecutionModel::OpTypeColumn).data().toString(),
                 QStringLiteral("Log"));

    const auto loss = s.snapshot->graphs().findGraph("g-loss");
    QVERIFY(loss);
    s.panel.setFilter({.nonFiniteOnly = true, .graph = *loss, .opType = "Mul"});
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(proxy->rowCount(), PyLogdir::kSteps - 1);

    s.panel.setFilter({});
    QVERIFY(!proxy->isFiltered());
    QCOMPARE(proxy->rowCount(), static_cast<int>(PyLogdir::traceCount()));
}

void TestPanels::graphExecutionFind()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    const auto focused = [&] {
        return s.navigator.focus().event->index;
    };
    s.panel.activateFind();
    QVERIFY(s.panel.findBar()->isVisible());
    s.panel.find(QStringLiteral("MARKUP")); // by name, ignoring case
    QTRY_VERIFY_WITH_TIMEOUT(s.navigator.focus().event.has_value(), kWait);
    QCOMPARE(focused(), PyLogdir::trace(0, PyLogdir::Markup));
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.currentTrace(),
                              static_cast<qint64>(PyLogdir::trace(0, PyLogdir::Markup)), kWait);
    // The bar says where the match stands among all of them.
    const QString total = QLocale().toString(PyLogdir::kSteps);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.findBar()->status(), QStringLiteral("1 of ") + total, kWait);
    s.panel.find(QStringLiteral("markup"));
    QTRY_COMPARE_WITH_TIMEOUT(focused(), PyLogdir::trace(1, PyLogdir::Markup), kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.findBar()->status(), QStringLiteral("2 of ") + total, kWait);
    s.panel.find(QStringLiteral("Sqrt")); // by type
    QTRY_COMPARE_WITH_TIMEOUT(focused(), PyLogdir::trace(1, PyLogdir::Sqrt), kWait);
    s.panel.find(QStringLiteral("markup"), true); // backwards
    QTRY_COMPARE_WITH_TIMEOUT(focused(), PyLogdir::trace(1, PyLogdir::Markup), kWait);

    // Nothing matches: said so, and the focus stays.
    s.panel.find(QStringLiteral("no such op"));
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.findBar()->status(), QStringLiteral("No match"), kWait);
    QCOMPARE(focused(), PyLogdir::trace(1, PyLogdir::Markup));
}

void TestPanels::graphExecutionGoToIndex()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    const quint64 target = PyLogdir::trace(30, PyLogdir::Labels);
    QVERIFY(s.panel.goToIndex(target));
    QCOMPARE(s.navigator.focus().event->index, target);
    QCOMPARE(s.panel.currentTrace(), static_cast<qint64>(target));
    const QRect rect = s.panel.view()->visualRect(s.panel.view()->currentIndex());
    QVERIFY(s.panel.view()->viewport()->rect().contains(rect)); // scrolled into view

    QVERIFY(!s.panel.goToIndex(PyLogdir::traceCount() + 5));
    QVERIFY(s.panel.statusText().contains(QStringLiteral("No trace")));

    // A row the filters hide: they are cleared rather than going nowhere.
    s.panel.setFilter({.nonFiniteOnly = true});
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QVERIFY(s.panel.goToIndex(target));
    QVERIFY(!s.panel.filter().active());
    QCOMPARE(s.panel.currentTrace(), static_cast<qint64>(target));
}

void TestPanels::graphExecutionInputsAreExact()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    // The product's inputs are Neg and Log of the same step.
    s.navigator.focusTrace(PyLogdir::trace(7, PyLogdir::Markup));
    QCOMPARE(s.panel.highlightedInputs(), (QList<quint64>{PyLogdir::trace(7, PyLogdir::Neg),
                                                          PyLogdir::trace(7, PyLogdir::Log)}));
    // Sqrt reads probs through an Identity that is never traced; in the filler step probs is
    // 300 rows back, past Debugger V2's look-back of 200.
    const quint64 sqrt = PyLogdir::trace(PyLogdir::kFillerStep, PyLogdir::Sqrt);
    const quint64 probs = PyLogdir::trace(PyLogdir::kFillerStep, PyLogdir::Probs);
    QVERIFY(sqrt - probs > 200);
    s.navigator.focusTrace(sqrt);
    QCOMPARE(s.panel.highlightedInputs(), QList<quint64>{probs});
    const QModelIndex row = s.panel.proxy()->index(static_cast<int>(probs), 0);
    QVERIFY(row.data(Qt::BackgroundRole).value<QColor>().isValid());
    // Finite rows have no background at all (not an invalid colour, which paints black).
    const QModelIndex plain = s.panel.proxy()->index(static_cast<int>(probs) + 1, 0);
    QVERIFY(!plain.data(Qt::BackgroundRole).isValid());
    // A placeholder has no inputs.
    s.navigator.focusTrace(PyLogdir::trace(3, PyLogdir::Labels));
    QVERIFY(s.panel.highlightedInputs().isEmpty());
}

void TestPanels::graphExecutionHealthBar()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    const QModelIndex log =
        s.panel.proxy()->index(static_cast<int>(PyLogdir::trace(1, PyLogdir::Log)),
                               items::GraphExecutionModel::HealthColumn);
    const QList<double> counts = s.panel.healthDelegate()->counts(log);
    QCOMPARE(counts.size(), 6);
    QCOMPARE(counts[0], 1.0); // -inf
    QCOMPARE(counts[3], 3.0); // negative
    const QString text = s.panel.healthDelegate()->countsText(counts);
    QVERIFY2(text.contains(QStringLiteral("−∞")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("NaN"))); // zero counts are left out
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Log));
    QVERIFY(!s.panel.grab().isNull()); // paints every column, the bar included
    // Copy: the focused row as text.
    auto* view = static_cast<widgets::CopyableTableView*>(s.panel.view());
    QVERIFY(view->selectionText().contains(QStringLiteral("Log:0")));
}

void TestPanels::graphExecutionModelsPassTheTester()
{
    Setup<views::GraphExecutionPanel> s;
    QVERIFY(s.logdir.ok());
    QAbstractItemModelTester tester(s.panel.proxy(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    s.panel.setFilter({.nonFiniteOnly = true});
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    s.panel.setFilter({});
    s.navigator.setSnapshot(nullptr);
    QCOMPARE(s.panel.proxy()->rowCount(), 0);
}

void TestPanels::rowListRevealsLargeModelsInBatches()
{
    // A table of n rows that stores nothing, grown the way the snapshot models grow.
    class Rows : public QAbstractTableModel
    {
    public:
        int rowCount(const QModelIndex& parent = {}) const override
        {
            return parent.isValid() ? 0 : m_rows;
        }
        int columnCount(const QModelIndex& parent = {}) const override
        {
            return parent.isValid() ? 0 : 2;
        }
        QVariant data(const QModelIndex& index, int role) const override
        {
            return role == Qt::DisplayRole ? QVariant(index.row()) : QVariant();
        }
        void grow(int rows)
        {
            beginInsertRows({}, m_rows, m_rows + rows - 1);
            m_rows += rows;
            endInsertRows();
        }

    private:
        int m_rows = 0;
    };
    constexpr int kBatch = views::RowListProxyModel::kRevealBatch;
    Rows rows;
    views::RowListProxyModel proxy;
    proxy.setSourceModel(&rows);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    rows.grow(100); // small growth shows at once
    QCOMPARE(proxy.rowCount(), 100);
    rows.grow(3 * kBatch); // large growth shows batch by batch, never all in one go
    QCOMPARE(proxy.rowCount(), 100);
    QVERIFY(!proxy.allRowsShown());
    QTRY_VERIFY(proxy.allRowsShown());
    QCOMPARE(proxy.rowCount(), 3 * kBatch + 100);
    QCOMPARE(proxy.index(3 * kBatch + 99, 0).data().toInt(), 3 * kBatch + 99);

    std::vector<int> every(2 * kBatch + 1);
    for (int i = 0; i < static_cast<int>(every.size()); ++i)
        every[static_cast<std::size_t>(i)] = i;
    proxy.setRows(every);
    QCOMPARE(proxy.rowCount(), kBatch); // a new list shows its first batch at once
    QVERIFY(!proxy.mapFromSource(rows.index(2 * kBatch, 0)).isValid());
    QTRY_VERIFY(proxy.allRowsShown());
    QCOMPARE(proxy.mapFromSource(rows.index(2 * kBatch, 0)).row(), 2 * kBatch);
    proxy.setHighlightedRows({5});
    QVERIFY(proxy.index(5, 0).data(Qt::BackgroundRole).isValid());

    // Rows in any order (a sort worked out elsewhere) map both ways.
    const std::vector<int> reversed(every.rbegin(), every.rend());
    proxy.setOrderedRows(reversed,
                         views::RowListProxyModel::positionsOf(reversed, rows.rowCount()));
    QTRY_VERIFY(proxy.allRowsShown());
    QCOMPARE(proxy.rowCount(), 2 * kBatch + 1);
    QCOMPARE(proxy.index(0, 0).data().toInt(), 2 * kBatch);
    QCOMPARE(proxy.mapFromSource(rows.index(0, 0)).row(), 2 * kBatch);
    QVERIFY(!proxy.mapFromSource(rows.index(2 * kBatch + 1, 0)).isValid()); // not listed
    proxy.setHighlightedRows({2 * kBatch});
    QVERIFY(proxy.index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!proxy.index(5, 0).data(Qt::BackgroundRole).isValid());
}

void TestPanels::stackTraceFoldsFrameworkFrames()
{
    Setup<views::StackTracePanel> s;
    QVERIFY(s.logdir.ok());
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Log));
    QCOMPARE(s.panel.model()->rowCount(), 3);
    QCOMPARE(s.panel.proxy()->rowCount(), 2); // math_ops.py is folded away
    // The user's innermost frame is focused, not TensorFlow's.
    QCOMPARE(s.panel.focusedFrameRow(), 1);
    QCOMPARE(s.navigator.focus().line, PyLogdir::kLogLine);
    QVERIFY(s.panel.headerText().contains(QStringLiteral("Creation of graph op")));

    s.panel.setFrameworkFramesShown(true);
    QCOMPARE(s.panel.proxy()->rowCount(), 3);
    s.panel.setFrameworkFramesShown(false);
    QCOMPARE(s.panel.proxy()->rowCount(), 2);

    // Patterns are configurable: with none matching, nothing is framework code.
    s.panel.setFrameworkPatterns({QStringLiteral("/no/such/dir/")});
    QCOMPARE(s.panel.proxy()->rowCount(), 3);
    s.navigator.focusTrace(PyLogdir::trace(2, PyLogdir::Log));
    QCOMPARE(s.navigator.focus().line, PyLogdir::kFrameworkLine);
    s.panel.setFrameworkPatterns({});
    QCOMPARE(s.panel.frameworkPatterns(), views::StackTracePanel::defaultFrameworkPatterns());
}

void TestPanels::stackTraceClickAndStickyFrame()
{
    Setup<views::StackTracePanel> s;
    QVERIFY(s.logdir.ok());
    QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Log));
    s.panel.setFrameworkFramesShown(true);
    // Clicking the outer frame moves the source line there; it is not its file's bottom-most
    // frame, so nothing sticks.
    auto* view = s.panel.view();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(s.panel.proxy()->index(0, 0)).center());
    QCOMPARE(s.navigator.focus().line, 10);
    QVERIFY(s.navigator.stickyFile().empty());
    // Clicking TensorFlow's frame (the bottom-most of math_ops.py) sticks to that file: the
    // product's stack then shows its math_ops.py frame, not the user's frame.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(s.panel.proxy()->index(2, 0)).center());
    QCOMPARE(s.navigator.stickyFile(), PyLogdir::kMathOps);
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Markup));
    QCOMPARE(s.panel.focusedFrameRow(), 2);
    QCOMPARE(s.navigator.focus().line, PyLogdir::kFrameworkLine);
    // Back goes to the previous focus, not to a frame chosen behind the user's back.
    s.navigator.back();
    QCOMPARE(s.navigator.focus().event->index, PyLogdir::trace(1, PyLogdir::Log));
}

void TestPanels::sourceShowsTheLogdirsTextWithMarks()
{
    Setup<views::SourcePanel> s;
    QVERIFY(s.logdir.ok());
    QVERIFY(!QFileInfo::exists(QString::fromStdString(PyLogdir::kTrainPy))); // not from disk
    QCOMPARE(s.panel.currentFileIndex(), -1);
    // Once the logdir is read an editor is made while the window idles, for the first file.
    const auto editors = [&] {
        int n = 0;
        for (const QWidget* child : s.panel.findChildren<QWidget*>())
            n += child->inherits("QsciScintilla") ? 1 : 0;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(editors(), 1, kWait);
    // And the file the origin's focus shows is read into it, off screen, before any focus.
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    const int prepared = s.panel.preparedFileIndex();
    QVERIFY(prepared >= 0);
    QCOMPARE(fromStd(s.snapshot->code().files().at(static_cast<std::size_t>(prepared)).filePath),
             fromStd(PyLogdir::kTrainPy));
    QCOMPARE(s.panel.tabs()->count(), 0);
    QCOMPARE(s.panel.currentFileIndex(), -1);
    s.navigator.focusTrace(PyLogdir::trace(1, PyLogdir::Log));
    QCOMPARE(editors(), 1); // that one shows the file
    QCOMPARE(s.panel.preparedFileIndex(), -1);
    QCOMPARE(s.panel.tabs()->count(), 1);
    QCOMPARE(s.panel.currentFileIndex(), prepared);
    QCOMPARE(s.panel.currentFilePath(), fromStd(PyLogdir::kTrainPy));
    QCOMPARE(s.panel.markedLine(), PyLogdir::kLogLine);
    QVERIFY(s.panel.lineText(PyLogdir::kLogLine).contains(QStringLiteral("tf.math.log(probs)")));
    QCOMPARE(s.panel.lineText(2), QString()); // blank lines are kept
    // Lines whose ops made NaN or ∞ carry a mark.
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.nonFiniteLines(),
                              (QSet<int>{PyLogdir::kLogLine, PyLogdir::kMarkupLine}), kWait);
    // A frame in another file opens a second tab.
    s.navigator.focusFrame(2);
    QCOMPARE(s.panel.tabs()->count(), 2);
    QCOMPARE(editors(), 2);
    QCOMPARE(s.panel.currentFilePath(), fromStd(PyLogdir::kMathOps));
    QCOMPARE(s.panel.markedLine(), PyLogdir::kFrameworkLine);
    // Back returns to the first tab and line.
    s.navigator.back();
    QCOMPARE(s.panel.currentFilePath(), fromStd(PyLogdir::kTrainPy));
    QCOMPARE(s.panel.markedLine(), PyLogdir::kLogLine);
}

void TestPanels::logdirStringsArePlainText()
{
    const QString markup = fromStd(PyLogdir::kMarkupName);
    QCOMPARE(widgets::plainToolTip(markup),
             QStringLiteral("<p style='white-space:pre'>&lt;b&gt;markup&lt;/b&gt;</p>"));

    Setup<views::GraphExecutionPanel> execution;
    QVERIFY(execution.logdir.ok());
    const QModelIndex row =
        execution.panel.proxy()->index(static_cast<int>(PyLogdir::trace(0, PyLogdir::Markup)),
                                       items::GraphExecutionModel::TensorColumn);
    QCOMPARE(row.data().toString(), markup + QStringLiteral(":0"));

    Setup<views::StackTracePanel> stack;
    stack.navigator.focusTrace(PyLogdir::trace(0, PyLogdir::Markup));
    QVERIFY(stack.panel.headerText().contains(markup)); // an elided label: painted as text

    Setup<views::AlertsPanel> alerts;
    QTRY_VERIFY_WITH_TIMEOUT(!alerts.panel.isBusy(), kWait);
    Setup<views::SourcePanel> source;
    for (QWidget* panel : std::initializer_list<QWidget*>{&execution.panel, &stack.panel,
                                                          &alerts.panel, &source.panel})
        for (const QLabel* label : panel->findChildren<QLabel*>())
            QVERIFY2(label->textFormat() == Qt::PlainText || label->text().isEmpty(),
                     qPrintable(label->text()));
}

void TestPanels::noticesExplainEmptyData()
{
    PyLogdir logdir;
    core::LogdirReader reader(logdir.path().toStdString());
    const auto healthy = reader.update();
    QVERIFY(views::snapshotNotices(*healthy).empty());

    QTemporaryDir empty;
    core::LogdirReader nothing(empty.path().toStdString());
    const auto none = nothing.update();
    const auto notices = views::snapshotNotices(*none);
    QVERIFY(!notices.empty());
    QCOMPARE(notices.front().severity, views::SnapshotNotice::Severity::Error);
    QVERIFY(notices.front().title.contains(QStringLiteral("not a tfdbg2 logdir")));
}

// More unreadable records than the reader lists one by one: the notice counts them all, not the
// lines of the list.
void TestPanels::noticesCountEveryUnreadRecord()
{
    PyLogdir logdir;
    std::string bytes;
    for (int i = 0; i < 240; ++i)
        format::appendRecord(bytes, "\xff\xff not an event " + std::to_string(i));
    bool appended = false;
    for (const auto& e : std::filesystem::directory_iterator(logdir.path().toStdString()))
        if (e.path().extension() == ".graph_execution_traces") {
            std::ofstream(e.path(), std::ios::app | std::ios::binary) << bytes;
            appended = true;
        }
    QVERIFY(appended);
    core::LogdirReader reader(logdir.path().toStdString());
    const auto notices = views::snapshotNotices(*reader.update());
    QVERIFY(!notices.empty());
    QCOMPARE(notices.front().title, QStringLiteral("240 records could not be read"));
}

QTEST_MAIN(TestPanels)
// Two hosts of one run, TensorFlow's layout: host-a declares the graph; each host records traces
// of its own; host-a's Log gives -inf at step 1, host-b's Log NaN at steps 1 and 2.
void TestPanels::severalHostsAreColumnsAndFilters()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
        auto a = test::openHost(dir.path().toStdString(), "hosts", "host-a");
        QVERIFY(a.ok());
        auto b = test::openSecondHost(dir.path().toStdString(), "hosts", "host-b");
        QVERIFY(b.ok());
        auto graph = (*a)->declareGraph("step");
        auto x = (*a)->declareOp({.graph = *graph, .type = "Placeholder", .name = "x"});
        auto log =
            (*a)->declareOp({.graph = *graph, .type = "Log", .name = "Log", .inputs = {"x"}});
        QVERIFY(x.ok() && log.ok());
        const std::int64_t shape[1] = {2};
        const float good[2] = {1.0F, 2.0F};
        const float negInf[2] = {-INFINITY, 2.0F};
        const float nan[2] = {NAN, 2.0F};
        for (int step = 0; step < 3; ++step) {
            QVERIFY((*a)->recordTrace(*log, 0, {.data = step == 1 ? negInf : good, .shape = shape})
                        .ok());
            QVERIFY(
                (*b)->recordTrace(*log, 0, {.data = step > 0 ? nan : good, .shape = shape}).ok());
        }
        QVERIFY((*b)->close().ok());
        QVERIFY((*a)->close().ok());
    }
    core::LogdirReader reader(dir.path().toStdString());
    const items::SnapshotPtr snapshot = reader.update();
    QCOMPARE(snapshot->layout().fileSets.size(), std::size_t{2});
    QCOMPARE(snapshot->traceCount(), std::uint64_t{6});

    PlacePanels shown;
    views::Navigator& navigator = shown.navigator;
    views::GraphExecutionPanel& traces = shown.traces;
    views::AlertsPanel& alerts = shown.alerts;
    views::ExecutionTimelinePanel timeline(&navigator);
    navigator.setSnapshot(snapshot);
    // The timeline has a lane per host (host-b's has no executions).
    QCOMPARE(timeline.laneCount(), std::size_t{2});
    QCOMPARE(timeline.laneName(1), QStringLiteral("host-b"));
    QVERIFY2(timeline.summaryText().contains(QStringLiteral("on 2 hosts")),
             qPrintable(timeline.summaryText()));
    QVERIFY(!traces.view()->isColumnHidden(items::GraphExecutionModel::HostColumn));
    QStringList hosts;
    for (int row = 0; row < traces.proxy()->rowCount(); ++row)
        hosts
            << traces.proxy()->index(row, items::GraphExecutionModel::HostColumn).data().toString();
    QCOMPARE(hosts.count(QStringLiteral("host-a")), 3);
    QCOMPARE(hosts.count(QStringLiteral("host-b")), 3);
    traces.setFilter({.host = 1u});
    QTRY_COMPARE_WITH_TIMEOUT(traces.proxy()->rowCount(), 3, kWait);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(
            traces.proxy()->index(row, items::GraphExecutionModel::HostColumn).data().toString(),
            QStringLiteral("host-b"));
    traces.setFilter({.nonFiniteOnly = true, .host = 0u});
    QTRY_COMPARE_WITH_TIMEOUT(traces.proxy()->rowCount(), 1, kWait);

    QTRY_VERIFY_WITH_TIMEOUT(!alerts.isBusy(), kWait);
    QCOMPARE(alerts.proxy()->rowCount(), 3);
    QVERIFY(!alerts.view()->isColumnHidden(items::AlertModel::HostColumn));
    // The host columns are as wide as the host names, not the default section width.
    const QFontMetrics metrics = alerts.view()->fontMetrics();
    for (nanscope::widgets::CopyableTableView* view : {alerts.view(), traces.view()}) {
        const int column = view == alerts.view() ? int(items::AlertModel::HostColumn)
                                                 : int(items::GraphExecutionModel::HostColumn);
        const int name = metrics.horizontalAdvance(QStringLiteral("host-a"));
        QVERIFY2(view->columnWidth(column) > name && view->columnWidth(column) < name + 24,
                 qPrintable(QString::number(view->columnWidth(column))));
    }
    alerts.setHostFilter(1u);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 2, kWait);
    for (int row = 0; row < 2; ++row)
        QCOMPARE(alerts.proxy()->index(row, items::AlertModel::HostColumn).data().toString(),
                 QStringLiteral("host-b"));
    // The first of the host's alerts is focused.
    QTRY_VERIFY_WITH_TIMEOUT(navigator.focus().event.has_value(), kWait);
    QCOMPARE(snapshot->trace(navigator.focus().event->index).fileIndex, 1u);
    // With a kind too: host-a has no NaN alert.
    alerts.setHostFilter(0u);
    alerts.setKindFilter(views::AlertsPanel::KindFilter::NaN);
    QTRY_VERIFY_WITH_TIMEOUT(!alerts.isBusy(), kWait);
    QCOMPARE(alerts.proxy()->rowCount(), 0);
    alerts.setHostFilter(std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 2, kWait);
    alerts.setKindFilter(views::AlertsPanel::KindFilter::All);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 3, kWait);

    // One host: no host column, no choice.
    PyLogdir single;
    core::LogdirReader singleReader(single.path().toStdString());
    navigator.setSnapshot(singleReader.update());
    QVERIFY(traces.view()->isColumnHidden(items::GraphExecutionModel::HostColumn));
    QVERIFY(alerts.view()->isColumnHidden(items::AlertModel::HostColumn));
}

// One host whose graph ran on two devices: x on the CPU, Log on the GPU (-inf at step 1), and an
// eager Exp on the GPU that gives +inf.
void TestPanels::severalDevicesAreColumnsAndFilters()
{
    const char* cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
    const char* gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
        auto opened = Recorder::open({.dumpRoot = dir.path().toStdString(),
                                      .mode = TensorDebugMode::FullHealth,
                                      .circularBufferSize = -1});
        QVERIFY(opened.ok());
        Recorder& r = **opened;
        auto graph = r.declareGraph("step");
        auto x = r.declareOp({.graph = *graph, .type = "Placeholder", .name = "x", .device = cpu});
        auto log = r.declareOp(
            {.graph = *graph, .type = "Log", .name = "Log", .inputs = {"x"}, .device = gpu});
        QVERIFY(x.ok() && log.ok());
        const std::int64_t shape[1] = {2};
        const float good[2] = {1.0F, 2.0F};
        const float negInf[2] = {-INFINITY, 2.0F};
        const float posInf[2] = {INFINITY, 2.0F};
        for (int step = 0; step < 2; ++step) {
            QVERIFY(r.recordTrace(*x, 0, {.data = good, .shape = shape}).ok());
            QVERIFY(
                r.recordTrace(*log, 0, {.data = step == 1 ? negInf : good, .shape = shape}).ok());
        }
        QVERIFY(r.recordExecution({.opType = "Exp",
                                   .outputIds = {r.newTensorId()},
                                   .outputs = {{.data = posInf, .shape = shape}},
                                   .device = gpu})
                    .ok());
        QVERIFY(r.close().ok());
    }
    core::LogdirReader reader(dir.path().toStdString());
    const items::SnapshotPtr snapshot = reader.update();
    QCOMPARE(snapshot->traceCount(), std::uint64_t{4});

    PlacePanels shown;
    views::Navigator& navigator = shown.navigator;
    views::GraphExecutionPanel& traces = shown.traces;
    views::AlertsPanel& alerts = shown.alerts;
    navigator.setSnapshot(snapshot);
    // Two devices: the Device column shows, the host's stays hidden.
    QVERIFY(!traces.view()->isColumnHidden(items::GraphExecutionModel::DeviceColumn));
    QVERIFY(traces.view()->isColumnHidden(items::GraphExecutionModel::HostColumn));
    traces.setFilter({.device = gpu});
    QTRY_COMPARE_WITH_TIMEOUT(traces.proxy()->rowCount(), 2, kWait);
    for (int row = 0; row < 2; ++row)
        QCOMPARE(
            traces.proxy()->index(row, items::GraphExecutionModel::DeviceColumn).data().toString(),
            QString::fromLatin1(gpu));
    traces.setFilter({.nonFiniteOnly = true, .device = cpu});
    QTRY_COMPARE_WITH_TIMEOUT(traces.proxy()->rowCount(), 0, kWait);

    QTRY_VERIFY_WITH_TIMEOUT(!alerts.isBusy(), kWait);
    QCOMPARE(alerts.proxy()->rowCount(), 2); // Log at step 1, the eager Exp
    alerts.setDeviceFilter(std::string(cpu));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 0, kWait);
    alerts.setDeviceFilter(std::string(gpu));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 2, kWait);
    // With the text filter: only the eager Exp.
    alerts.setTextFilter(QStringLiteral("exp"));
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 1, kWait);
    QCOMPARE(alerts.proxy()->index(0, items::AlertModel::OpTypeColumn).data().toString(),
             QStringLiteral("Exp"));
    alerts.setTextFilter({});
    alerts.setDeviceFilter(std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(alerts.proxy()->rowCount(), 2, kWait);
}

#include "tst_panels.moc"
