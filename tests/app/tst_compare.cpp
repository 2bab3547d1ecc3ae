// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare view (views::ComparePanel) and File › Compare With… (app::CompareDialog): the
// divergence named and marked on both runs' strips, its two records, the list switch, an
// unreadable run B, and a double-click on run A's record that focuses that event in the window.
#include "comparedialog.hpp"
#include "comparelogdirs.hpp"
#include "mainwindow.hpp"
#include "mainwindowactions.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/runcomparisonmodel.hpp"
#include "nanscope/views/comparepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/widgets/timelinestrip.hpp"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace nanscope;
using items::RunComparisonModel;
using test::Counts;
using test::graphOp;

namespace {

constexpr int kWait = 30000;

// Four steps of graph "train": MatMul, Softmax, (with `clip`: Minimum, Maximum), Log, Mean; the
// Log makes -inf from step `badFrom` on. One eager call per step.
std::vector<test::CompareOp> run(bool clip, int badFrom)
{
    std::vector<test::CompareOp> ops;
    for (int s = 0; s < 4; ++s) {
        const Counts log =
            s >= badFrom ? Counts{.negInf = 1, .negative = 3, .positive = 0} : Counts{};
        ops.push_back(graphOp("MatMul", "dense/MatMul"));
        ops.push_back(graphOp("Softmax", "dense/Softmax"));
        if (clip) {
            ops.push_back(graphOp("Minimum", "clip/Minimum"));
            ops.push_back(graphOp("Maximum", "clip/Maximum"));
        }
        ops.push_back(graphOp("Log", "loss/Log", log));
        ops.push_back(graphOp("Mean", "loss/Mean", log));
        ops.push_back(test::eagerOp("__inference_train_step_" + std::to_string(10 + s)));
    }
    return ops;
}

// Graph traces of A's and B's Log in step 2: 6 and 4 traces per step.
constexpr std::uint64_t kLogA = 2 * 6 + 4;
constexpr std::uint64_t kLogB = 2 * 4 + 2;

void doubleClick(QTableView* view, const QModelIndex& index)
{
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void thePanelMarksTheDivergence();
    void thePanelSaysWhyItCannotCompare();
    void theWindowComparesWithAnotherRun();

private:
    test::TempDir m_fixed; // run A: clips, stays finite
    test::TempDir m_buggy; // run B: -inf from step 2
};

void TestCompare::initTestCase()
{
    test::writeCompareRun(m_fixed.path(), run(true, 99), "fixed");
    test::writeCompareRun(m_buggy.path(), run(false, 2), "buggy");
}

void TestCompare::thePanelMarksTheDivergence()
{
    views::ComparePanel panel;
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.resize(900, 600);
    panel.show();
    QSignalSpy compared(&panel, &views::ComparePanel::compared);
    panel.compare(core::LogdirReader(m_fixed.path()).update(),
                  core::LogdirReader(m_buggy.path()).update());
    QVERIFY(panel.isBusy() || compared.count() > 0);
    QVERIFY(compared.wait(kWait) || compared.count() > 0);
    QVERIFY(!panel.isBusy());
    QVERIFY(panel.result() && *panel.result());

    QCOMPARE(panel.headline(), QStringLiteral("Run B diverges from run A at Log / op "
                                              "loss/Log (graph train), step 2: finite in A, 1 "
                                              "-inf in B"));
    QVERIFY(panel.shownList() == core::EventSource::Graph);
    QCOMPARE(panel.stripA()->itemCount(), std::uint64_t{24});
    QCOMPARE(panel.stripB()->itemCount(), std::uint64_t{16});
    QVERIFY(panel.stripA()->markers() == std::vector<std::uint64_t>{kLogA});
    QVERIFY(panel.stripB()->markers() == std::vector<std::uint64_t>{kLogB});
    QVERIFY(panel.stripA()->current() == std::optional<std::uint64_t>(kLogA));
    QVERIFY(panel.stripB()->current() == std::optional<std::uint64_t>(kLogB));
    // B's Log is drawn as the -inf it is, A's as a plain op.
    QVERIFY(panel.stripB()->itemCategory(kLogB) != panel.stripA()->itemCategory(kLogA));

    RunComparisonModel* model = panel.model();
    QCOMPARE(model->rowCount(), int(RunComparisonModel::RowCount));
    QCOMPARE(model->index(RunComparisonModel::OpNameRow, RunComparisonModel::RunBColumn)
                 .data()
                 .toString(),
             QStringLiteral("loss/Log"));
    // Strings from a logdir are never taken for markup.
    for (const QLabel* label : panel.findChildren<QLabel*>())
        QCOMPARE(label->textFormat(), Qt::PlainText);

    std::optional<std::pair<core::RunSide, core::EventRef>> activated;
    connect(&panel, &views::ComparePanel::eventActivated, this,
            [&](core::RunSide side, core::EventRef event) {
                activated = {side, event};
            });
    doubleClick(panel.records(),
                model->index(RunComparisonModel::StateRow, RunComparisonModel::RunAColumn));
    QVERIFY(activated);
    QVERIFY(activated->first == core::RunSide::A);
    QVERIFY(activated->second == (core::EventRef{core::EventSource::Graph, kLogA}));

    // The executions: the calls align although they are the same in both, and none diverges.
    panel.showList(core::EventSource::Eager);
    QCOMPARE(panel.stripA()->itemCount(), std::uint64_t{4});
    QVERIFY(panel.stripA()->markers().empty());
    QCOMPARE(model->rowCount(), 0);
    panel.showList(core::EventSource::Graph);
    QCOMPARE(model->rowCount(), int(RunComparisonModel::RowCount));
}

void TestCompare::thePanelSaysWhyItCannotCompare()
{
    views::ComparePanel panel;
    QSignalSpy compared(&panel, &views::ComparePanel::compared);
    panel.compare(core::LogdirReader(m_fixed.path()).update(),
                  core::LogdirReader(m_fixed.path() / "missing").update());
    QVERIFY(compared.wait(kWait) || compared.count() > 0);
    QVERIFY(panel.result() && !*panel.result());
    QVERIFY(panel.headline().startsWith(
        QStringLiteral("The runs could not be compared: run B could not be read")));
    QCOMPARE(panel.model()->rowCount(), 0);
    QCOMPARE(panel.stripA()->itemCount(), std::uint64_t{0});
}

void TestCompare::theWindowComparesWithAnotherRun()
{
    app::MainWindow window(app::MainWindowOptions{.useSettings = false});
    window.resize(1280, 800);
    window.show();
    QVERIFY(!window.actions()->compareWith->isEnabled()); // no run A yet
    QSignalSpy loaded(&window, &app::MainWindow::logdirLoaded);
    window.openLogdir(QString::fromStdString(m_fixed.path().string()));
    QVERIFY(QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, kWait));
    QVERIFY(window.actions()->compareWith->isEnabled());

    window.compareWith(QString::fromStdString(m_buggy.path().string()));
    app::CompareDialog* dialog = window.compareDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QSignalSpy shown(dialog, &app::CompareDialog::comparisonShown);
    QVERIFY(shown.wait(kWait) || shown.count() > 0);
    QVERIFY(QTest::qWaitFor([&] { return !window.isBusy(); }, kWait));
    views::ComparePanel* panel = dialog->panel();
    QVERIFY(panel->headline().startsWith(
        QStringLiteral("Run B diverges from run A at Log / op loss/Log")));

    // Run A's record shows its event in the window; run B's is not the window's logdir.
    RunComparisonModel* model = panel->model();
    doubleClick(panel->records(),
                model->index(RunComparisonModel::OpTypeRow, RunComparisonModel::RunBColumn));
    QVERIFY(!window.navigator()->focus().event ||
            window.navigator()->focus().event->index != kLogB);
    doubleClick(panel->records(),
                model->index(RunComparisonModel::OpTypeRow, RunComparisonModel::RunAColumn));
    QVERIFY(window.navigator()->focus().event);
    QVERIFY(*window.navigator()->focus().event ==
            (core::EventRef{core::EventSource::Graph, kLogA}));

    // A run B that is no logdir: the view says so, and nothing is shown.
    QSignalSpy again(dialog, &app::CompareDialog::comparisonShown);
    window.compareWith(QString::fromStdString((m_buggy.path() / "missing").string()));
    QVERIFY(again.wait(kWait) || again.count() > 0);
    QVERIFY(panel->headline().startsWith(QStringLiteral("Run B (")));
    QVERIFY(panel->headline().contains(QStringLiteral("could not be read")));
    QCOMPARE(model->rowCount(), 0);
}

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
