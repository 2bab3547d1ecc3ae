// SPDX-License-Identifier: GPL-3.0-or-later
// The Executions panel over an eager-only logdir (EagerLogdir: seven ops a step in nn.Modules,
// NaN from step 1): its rows, filters, find, go to, sort, and the focus it shares with the
// Navigator both ways, with the focused execution's producers and consumers highlighted.
#include "eagerlogdir.hpp"
#include "hostlogdirs.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/healthbardelegate.hpp"
#include "tempdir.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace nanscope;
using test::EagerLogdir;
using Model = items::ExecutionModel;

class TestExecutionsPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void listsEveryExecution();
    void filtersByHealthOpTypeAndModule();
    void findStepsThroughMatches();
    void goToFocusesAnIndex();
    void sortsByAColumn();
    void selectingARowMovesTheFocus();
    void focusElsewhereSelectsTheRow();
    void healthBarsArriveForTheRowsShown();
    void anotherHostIsAskedFor();

private:
    bool settle() const
    {
        return QTest::qWaitFor([this] { return !m_panel->isBusy(); }, 10000);
    }
    // The execution shown in view row `row`.
    quint64 shown(int row) const
    {
        return static_cast<quint64>(
            m_panel->proxy()->mapToSource(m_panel->proxy()->index(row, 0)).row());
    }
    QList<quint64> shownExecutions() const
    {
        QList<quint64> all;
        for (int row = 0; row < m_panel->proxy()->rowCount(); ++row)
            all << shown(row);
        return all;
    }
    static int choice(const QComboBox* box, const QString& data) { return box->findData(data); }

    std::unique_ptr<EagerLogdir> m_logdir;
    items::SnapshotPtr m_snapshot;
    std::unique_ptr<views::Navigator> m_navigator;
    std::unique_ptr<views::ExecutionsPanel> m_panel;
};

void TestExecutionsPanel::initTestCase()
{
    m_logdir = std::make_unique<EagerLogdir>(3, 1);
    QVERIFY(m_logdir->ok());
    core::LogdirReader reader(m_logdir->path().toStdString());
    m_snapshot = reader.update();
    QCOMPARE(m_snapshot->traceCount(), quint64(0));
    QCOMPARE(m_snapshot->executionCount(), quint64(21));
}

void TestExecutionsPanel::init()
{
    m_navigator = std::make_unique<views::Navigator>();
    m_panel = std::make_unique<views::ExecutionsPanel>(m_navigator.get());
    m_panel->resize(900, 500);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_navigator->setSnapshot(m_snapshot);
    QVERIFY(settle());
}

void TestExecutionsPanel::cleanup()
{
    m_panel.reset();
    m_navigator.reset();
}

void TestExecutionsPanel::listsEveryExecution()
{
    QCOMPARE(m_panel->proxy()->rowCount(), 21);
    QCOMPARE(m_panel->windowTitle(), QStringLiteral("Executions (21)"));
    const QModelIndex log = m_panel->proxy()->index(
        static_cast<int>(EagerLogdir::execution(1, EagerLogdir::Log)), Model::OpTypeColumn);
    QCOMPARE(log.data().toString(), QStringLiteral("log"));
    QCOMPARE(log.siblingAtColumn(Model::ModuleColumn).data().toString(), QStringLiteral("Net.fc2"));
    QVERIFY(log.data(items::NonFiniteRole).toBool());
    // The choices the run offers: six op types, and the module tree with the modules' parent.
    QCOMPARE(m_panel->opTypeBox()->count(), 7); // and "All op types"
    QVERIFY(m_panel->moduleBox()->isVisibleTo(m_panel.get()));
    QVERIFY(choice(m_panel->moduleBox(), QStringLiteral("Net")) > 0);
    const int act = choice(m_panel->moduleBox(), QStringLiteral("Net.fc1.act"));
    QVERIFY(act > 0);
    // Indented under Net.fc1, by its own name.
    QCOMPARE(m_panel->moduleBox()->itemText(act).trimmed(), QStringLiteral("act"));
    QVERIFY(m_panel->moduleBox()->itemText(act).startsWith(QStringLiteral("      ")));
    // The log of fc2 made the NaN: its choice says how many of its executions did.
    const int fc2 = choice(m_panel->moduleBox(), QStringLiteral("Net.fc2"));
    QCOMPARE(m_panel->moduleBox()->itemText(fc2).trimmed(), QStringLiteral("fc2 — 2 non-finite"));
}

void TestExecutionsPanel::filtersByHealthOpTypeAndModule()
{
    using E = EagerLogdir;
    m_panel->nonFiniteBox()->click();
    QVERIFY(settle());
    QCOMPARE(shownExecutions(),
             (QList<quint64>{E::execution(1, E::Log), E::execution(1, E::Mul),
                             E::execution(1, E::Mean), E::execution(2, E::Log),
                             E::execution(2, E::Mul), E::execution(2, E::Mean)}));
    QCOMPARE(m_panel->statusText(), QStringLiteral("6 of 21 rows"));
    // And of one op type.
    m_panel->opTypeBox()->setCurrentIndex(
        choice(m_panel->opTypeBox(), QStringLiteral("aten::log")));
    QVERIFY(settle());
    QCOMPARE(shownExecutions(), (QList<quint64>{E::execution(1, E::Log), E::execution(2, E::Log)}));
    // Every log, healthy ones too.
    m_panel->nonFiniteBox()->click();
    QVERIFY(settle());
    QCOMPARE(m_panel->proxy()->rowCount(), 3);
    // A module takes its submodules: Net.fc1's linear and its act's relu.
    m_panel->opTypeBox()->setCurrentIndex(0);
    m_panel->moduleBox()->setCurrentIndex(choice(m_panel->moduleBox(), QStringLiteral("Net.fc1")));
    QVERIFY(settle());
    QCOMPARE(shownExecutions(), (QList<quint64>{E::execution(0, E::Fc1), E::execution(0, E::Act),
                                                E::execution(1, E::Fc1), E::execution(1, E::Act),
                                                E::execution(2, E::Fc1), E::execution(2, E::Act)}));
    QVERIFY(m_panel->filter().module == std::string("Net.fc1"));
    // Outside every module: randn, mul and mean.
    m_panel->moduleBox()->setCurrentIndex(choice(m_panel->moduleBox(), QString()));
    QVERIFY(settle());
    QCOMPARE(m_panel->proxy()->rowCount(), 9);
    // All again: no row list at all.
    m_panel->setFilter({});
    QVERIFY(settle());
    QCOMPARE(m_panel->proxy()->rowCount(), 21);
    QVERIFY(!m_panel->proxy()->isFiltered());
    QCOMPARE(m_panel->moduleBox()->currentIndex(), 0);
}

void TestExecutionsPanel::findStepsThroughMatches()
{
    using E = EagerLogdir;
    m_panel->activateFind();
    QVERIFY(m_panel->findBar()->isVisible());
    m_panel->find(QStringLiteral("relu"));
    QTRY_VERIFY(m_navigator->focus().event.has_value());
    QCOMPARE(m_navigator->focus().event->index, E::execution(0, E::Act));
    QCOMPARE(m_panel->currentExecution(), qint64(E::execution(0, E::Act)));
    QVERIFY(settle());
    m_panel->find(QStringLiteral("relu"));
    QTRY_COMPARE(m_navigator->focus().event->index, E::execution(1, E::Act));
    QVERIFY(settle());
    QVERIFY(m_panel->findBar()->status().contains(QStringLiteral("2")));
    // Backward from the first wraps to the last; a module's name is found too.
    m_panel->find(QStringLiteral("fc2"), true);
    QTRY_COMPARE(m_navigator->focus().event->index, E::execution(0, E::Log));
    // Among the rows the filters show only.
    m_panel->nonFiniteBox()->click();
    QVERIFY(settle());
    m_panel->find(QStringLiteral("fc2"));
    QTRY_COMPARE(m_navigator->focus().event->index, E::execution(1, E::Log));
}

void TestExecutionsPanel::goToFocusesAnIndex()
{
    QLineEdit* goTo = m_panel->goToEdit();
    goTo->setText(QStringLiteral("20"));
    QTest::keyClick(goTo, Qt::Key_Return);
    QVERIFY(m_navigator->focus().event.has_value());
    QVERIFY(m_navigator->focus().event->source == core::EventSource::Eager);
    QCOMPARE(m_navigator->focus().event->index, quint64(20));
    QCOMPARE(m_panel->currentExecution(), qint64(20));
    QVERIFY(!m_panel->goToIndex(99));
    QCOMPARE(m_panel->statusText(), QStringLiteral("No execution #99 (the last is #20)"));
    QCOMPARE(m_navigator->focus().event->index, quint64(20));
    // A row the filters hide: they give way rather than go nowhere.
    m_panel->nonFiniteBox()->click();
    QVERIFY(settle());
    QVERIFY(m_panel->goToIndex(0));
    QVERIFY(settle());
    QVERIFY(!m_panel->filter().active());
    QVERIFY(!m_panel->nonFiniteBox()->isChecked());
    QCOMPARE(m_panel->currentExecution(), qint64(0));
}

void TestExecutionsPanel::sortsByAColumn()
{
    using E = EagerLogdir;
    m_navigator->focusExecution(E::execution(2, E::Mean));
    // A click on the header sorts by op type: the linears first, in the run's order.
    QHeaderView* header = m_panel->view()->horizontalHeader();
    header->setSortIndicator(Model::OpTypeColumn, Qt::AscendingOrder);
    QVERIFY(settle());
    QCOMPARE(m_panel->proxy()->rowCount(), 21);
    QCOMPARE(shown(0), E::execution(0, E::Fc1));
    QCOMPARE(shown(1), E::execution(0, E::Fc2));
    QCOMPARE(shown(20), E::execution(2, E::Act)); // aten::relu last
    // The focus stays on its execution, wherever the sort put it.
    QCOMPARE(m_panel->currentExecution(), qint64(E::execution(2, E::Mean)));
    // Descending by health: the non-finite ones first.
    header->setSortIndicator(Model::HealthColumn, Qt::DescendingOrder);
    QVERIFY(settle());
    for (int row = 0; row < 6; ++row)
        QVERIFY(m_panel->proxy()->index(row, 0).data(items::NonFiniteRole).toBool());
    QVERIFY(!m_panel->proxy()->index(6, 0).data(items::NonFiniteRole).toBool());
    // A sort and a filter together.
    m_panel->moduleBox()->setCurrentIndex(choice(m_panel->moduleBox(), QStringLiteral("Net.fc2")));
    QVERIFY(settle());
    QCOMPARE(shownExecutions().mid(0, 2),
             (QList<quint64>{E::execution(1, E::Log), E::execution(2, E::Log)}));
    QCOMPARE(m_panel->proxy()->rowCount(), 6);
    // A column of full records does not sort: the indicator stays where it was.
    m_panel->setFilter({});
    header->setSortIndicator(Model::DTypeColumn, Qt::AscendingOrder);
    QCOMPARE(header->sortIndicatorSection(), int(Model::HealthColumn));
    // By index ascending: the run's order, with no row list.
    header->setSortIndicator(Model::IndexColumn, Qt::AscendingOrder);
    QVERIFY(settle());
    QVERIFY(!m_panel->proxy()->isFiltered());
    QCOMPARE(shown(3), quint64(3));
}

void TestExecutionsPanel::selectingARowMovesTheFocus()
{
    using E = EagerLogdir;
    auto* view = m_panel->view();
    const QModelIndex row =
        m_panel->proxy()->index(static_cast<int>(E::execution(1, E::Mul)), Model::OpTypeColumn);
    view->scrollTo(row);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(row).center());
    QVERIFY(m_navigator->focus().event.has_value());
    QVERIFY(m_navigator->focus().event->source == core::EventSource::Eager);
    QCOMPARE(m_navigator->focus().event->index, E::execution(1, E::Mul));
    // The keys move it on.
    QTest::keyClick(view, Qt::Key_Down);
    QCOMPARE(m_navigator->focus().event->index, E::execution(1, E::Mean));
    // Its producers and consumers, found off the GUI thread, are highlighted: the mean reads
    // the mul and nothing reads the mean.
    QVERIFY(settle());
    QCOMPARE(m_panel->highlightedNeighbours(), (QList<quint64>{E::execution(1, E::Mul)}));
}

void TestExecutionsPanel::focusElsewhereSelectsTheRow()
{
    using E = EagerLogdir;
    m_panel->resize(900, 200); // a few rows in sight: the focus must scroll
    QTest::qWait(20);
    m_navigator->focusExecution(E::execution(2, E::Log));
    QCOMPARE(m_panel->currentExecution(), qint64(E::execution(2, E::Log)));
    const QRect rect = m_panel->view()->visualRect(m_panel->view()->currentIndex());
    QVERIFY(m_panel->view()->viewport()->rect().contains(rect));
    // The log reads fc2's output and the mul reads the log's.
    QVERIFY(settle());
    QCOMPARE(m_panel->highlightedNeighbours(),
             (QList<quint64>{E::execution(2, E::Fc2), E::execution(2, E::Mul)}));
    QVERIFY(m_panel->statusText().contains(QStringLiteral("Producers: 1")));
    // The producer is painted as an input, the consumer in the readers' colour, over its health.
    const auto background = [this](std::uint64_t execution) {
        const QModelIndex index =
            m_panel->proxy()->index(static_cast<int>(execution), Model::OpTypeColumn);
        return m_panel->proxy()->data(index, Qt::BackgroundRole).value<QColor>();
    };
    QCOMPARE(background(E::execution(2, E::Fc2)), views::RowListProxyModel::inputBackground());
    QCOMPARE(background(E::execution(2, E::Mul)), views::RowListProxyModel::readerBackground());
    QVERIFY(views::RowListProxyModel::inputBackground() !=
            views::RowListProxyModel::readerBackground());
    // Back in the history: the first row again.
    m_navigator->focusExecution(0);
    m_navigator->back();
    QCOMPARE(m_panel->currentExecution(), qint64(E::execution(2, E::Log)));
    // Closing the logdir empties the table and the selection.
    m_navigator->setSnapshot(nullptr);
    QCOMPARE(m_panel->proxy()->rowCount(), 0);
    QCOMPARE(m_panel->currentExecution(), qint64(-1));
}

void TestExecutionsPanel::healthBarsArriveForTheRowsShown()
{
    using E = EagerLogdir;
    const QModelIndex log =
        m_panel->proxy()->index(static_cast<int>(E::execution(1, E::Log)), Model::HealthColumn);
    m_panel->view()->scrollTo(log);
    // The records are read off the GUI thread for the rows painted; then the bar has counts.
    QTRY_VERIFY(!m_panel->healthDelegate()->counts(log).isEmpty());
    const QList<double> counts = m_panel->healthDelegate()->counts(log);
    QCOMPARE(counts.value(0), 1.0); // -inf
    QCOMPARE(counts.value(2), 1.0); // NaN
    QCOMPARE(log.siblingAtColumn(Model::DTypeColumn).data().toString(), QStringLiteral("float32"));
}

void TestExecutionsPanel::anotherHostIsAskedFor()
{
    // One host: no host box.
    QVERIFY(m_panel->hostBox()->isHidden());
    // Two: the host read now first, then the other, whose choice asks for it.
    test::TempDir dir;
    QVERIFY(test::writeTwoHostExecutions(dir.path()));
    m_navigator->setSnapshot(core::LogdirReader(dir.path()).update());
    QVERIFY(settle());
    QComboBox* hosts = m_panel->hostBox();
    QVERIFY(!hosts->isHidden());
    QCOMPARE(hosts->count(), 2);
    QCOMPARE(hosts->itemText(0), QStringLiteral("host-a"));
    QCOMPARE(hosts->itemText(1), QStringLiteral("host-b"));
    QVERIFY(hosts->itemData(1, Qt::ToolTipRole).toString().contains(QStringLiteral("executions")));
    QSignalSpy asked(m_panel.get(), &views::ExecutionsPanel::hostRequested);
    Q_EMIT hosts->activated(0); // the host read now: nothing to do
    QCOMPARE(asked.count(), 0);
    Q_EMIT hosts->activated(1);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.front().front().toString(), QStringLiteral("host-b"));
}

QTEST_MAIN(TestExecutionsPanel)
#include "tst_executionspanel.moc"
