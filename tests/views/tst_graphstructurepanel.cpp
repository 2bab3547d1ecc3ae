// SPDX-License-Identifier: GPL-3.0-or-later
// The graph structure panel: the neighbourhood of the tutorial's Log op (probs above, mul below,
// coloured by what they computed in the focused step), clicks that move the focus, and whole
// graphs laid out by Graphviz off the GUI thread.
#include "losslogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "screenshot.hpp"

#include <QGraphicsItem>
#include <QGraphicsView>
#include <QLineEdit>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace nanscope;
using test::LossLogdir;
using Panel = views::GraphStructurePanel;

namespace {

std::optional<Panel::NodeState> findNode(const std::vector<Panel::NodeState>& nodes,
                                         const QString& name)
{
    for (const Panel::NodeState& node : nodes)
        if (node.name == name)
            return node;
    return std::nullopt;
}

// A graph of `count` ops in a chain (op0 -> op1 -> …), each traced once.
items::SnapshotPtr writeChain(const QString& dir, int count)
{
    auto opened = Recorder::open({.dumpRoot = dir.toStdString(),
                                  .mode = TensorDebugMode::CurtHealth,
                                  .circularBufferSize = -1});
    if (!opened.ok())
        return nullptr;
    Recorder& recorder = **opened;
    const GraphHandle graph = *recorder.declareGraph("chain");
    std::vector<OpHandle> ops;
    for (int i = 0; i < count; ++i) {
        OpSpec spec{.graph = graph,
                    .type = i == 0 ? "Placeholder" : "Identity",
                    .name = "op" + std::to_string(i)};
        if (i > 0)
            spec.inputs = {"op" + std::to_string(i - 1) + ":0"};
        ops.push_back(*recorder.declareOp(spec));
    }
    const float value[1] = {1.0f};
    const std::int64_t shape[1] = {1};
    for (int i = 0; i < count; i += 100)
        if (!recorder
                 .recordTrace(ops[static_cast<std::size_t>(i)], 0, {.data = value, .shape = shape})
                 .ok())
            return nullptr;
    if (!recorder.close().ok())
        return nullptr;
    core::LogdirReader reader(dir.toStdString());
    return reader.update();
}

} // namespace

class TestGraphStructurePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void placeholderWithoutAnOp();
    void eagerNeighbourhoodThroughTensorIds();
    void neighbourhoodOfLog();
    void healthFollowsTheFocusedStep();
    void clickingAnInputFocusesItsTrace();
    void focusOpWithoutTrace();
    void anotherTraceOfTheSameOpKeepsTheView();
    void wholeGraphOfTheLossGraph();
    void wholeGraphOfAThousandOpChain();
    void hugeGraphsOfferTheNeighbourhoodOnly();
    void findStepsThroughTheOpsOfTheGraph();
    void wholeGraphLabelsEveryOpAndNamesEveryEdge();
    void wholeGraphIsLaidOutWhileQtsGlobalPoolIsBusy();
    void aNarrowPaneGivesTheCaptionARow();

private:
    std::unique_ptr<LossLogdir> m_logdir;
    std::unique_ptr<views::Navigator> m_navigator;
    std::unique_ptr<Panel> m_panel;
};

void TestGraphStructurePanel::initTestCase()
{
    m_logdir = std::make_unique<LossLogdir>();
    QVERIFY(m_logdir->ok());
}

void TestGraphStructurePanel::init()
{
    m_navigator = std::make_unique<views::Navigator>();
    m_panel = std::make_unique<Panel>(m_navigator.get());
    m_panel->resize(800, 520);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_navigator->setSnapshot(m_logdir->snapshot());
}

void TestGraphStructurePanel::cleanup()
{
    m_panel.reset();
    m_navigator.reset();
}

void TestGraphStructurePanel::placeholderWithoutAnOp()
{
    QVERIFY(m_panel->visibleOpNames().isEmpty());
    QVERIFY(!m_panel->grab().isNull());
}

void TestGraphStructurePanel::eagerNeighbourhoodThroughTensorIds()
{
    // A PyTorch-shaped run: ones -> exp -> log (in module MLP.head), log's output read twice.
    QTemporaryDir dir;
    {
        auto opened = Recorder::open({.dumpRoot = dir.path().toStdString(),
                                      .mode = TensorDebugMode::FullHealth,
                                      .circularBufferSize = -1});
        QVERIFY(opened.ok());
        Recorder& recorder = **opened;
        const float ones[2] = {1.0f, 0.0f};
        const float logs[2] = {0.0f, -INFINITY};
        const std::int64_t two[1] = {2};
        auto record = [&](const char* type, std::vector<std::int64_t> in, std::int64_t out,
                          const float* values, const char* module) {
            ExecutionSpec spec{.opType = type,
                               .inputIds = std::move(in),
                               .outputIds = {out},
                               .outputs = {{.data = values, .shape = two}}};
            spec.context.modulePath = module;
            return recorder.recordExecution(spec).ok();
        };
        QVERIFY(record("aten::ones", {}, 1, ones, ""));
        QVERIFY(record("aten::exp", {1}, 2, ones, "MLP"));
        QVERIFY(record("aten::log", {2, 7}, 3, logs, "MLP.head"));
        QVERIFY(record("aten::mul", {3}, 4, logs, "MLP.head"));
        QVERIFY(record("aten::sum", {3}, 5, logs, ""));
        QVERIFY(recorder.close().ok());
    }
    core::LogdirReader reader(dir.path().toStdString());
    m_navigator->setSnapshot(reader.update());
    QSignalSpy found(m_panel.get(), &Panel::layoutFinished);
    m_navigator->focusExecution(2);
    QVERIFY(found.wait(5000));
    QCOMPARE(m_panel->visibleOpNames(),
             (QStringList{QStringLiteral("aten::log #2"), QStringLiteral("aten::exp #1"),
                          QStringLiteral("tensor 7"), QStringLiteral("aten::mul #3"),
                          QStringLiteral("aten::sum #4")}));
    const auto nodes = m_panel->nodes();
    const auto log = findNode(nodes, QStringLiteral("aten::log #2"));
    const auto exp = findNode(nodes, QStringLiteral("aten::exp #1"));
    const auto leaf = findNode(nodes, QStringLiteral("tensor 7"));
    const auto mul = findNode(nodes, QStringLiteral("aten::mul #3"));
    QVERIFY(log && exp && leaf && mul);
    QVERIFY(log->focused);
    QCOMPARE(log->type, QStringLiteral("MLP.head"));
    QCOMPARE(exp->type, QStringLiteral("MLP"));
    QCOMPARE(leaf->type, QStringLiteral("(not recorded)"));
    QCOMPARE(log->health, QStringLiteral("inf"));
    QCOMPARE(exp->health, QStringLiteral("finite"));
    QVERIFY(exp->centre.y() < log->centre.y());
    QVERIFY(mul->centre.y() > log->centre.y());
    QCOMPARE(mul->execution, std::optional<std::uint64_t>(3));
    bool labelled = false;
    for (QGraphicsItem* item : m_panel->scene()->items())
        labelled = labelled || item->toolTip().contains(QStringLiteral("tensor 2"));
    QVERIFY(labelled);
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("graphstructurepanel-eager")));

    // A click on a producer focuses its execution, whose neighbourhood follows.
    QGraphicsView* view = m_panel->view();
    const QPoint point = view->mapFromScene(exp->centre);
    QVERIFY(view->viewport()->rect().contains(point));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, point);
    QVERIFY(m_navigator->focus().event.has_value());
    QVERIFY(m_navigator->focus().event->source == core::EventSource::Eager);
    QCOMPARE(m_navigator->focus().event->index, quint64(1));
    QVERIFY(found.wait(5000));
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("aten::exp #1"));
}

void TestGraphStructurePanel::neighbourhoodOfLog()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QCOMPARE(m_panel->visibleOpNames(),
             (QStringList{QStringLiteral("Log"), QStringLiteral("probs"), QStringLiteral("mul")}));
    const auto nodes = m_panel->nodes();
    const auto log = findNode(nodes, QStringLiteral("Log"));
    const auto probs = findNode(nodes, QStringLiteral("probs"));
    const auto mul = findNode(nodes, QStringLiteral("mul"));
    QVERIFY(log && probs && mul);
    QVERIFY(log->focused);
    QVERIFY(!probs->focused && !mul->focused);
    QCOMPARE(log->type, QStringLiteral("Log"));
    QCOMPARE(probs->type, QStringLiteral("Placeholder"));
    // Inputs above, consumers below.
    QVERIFY(probs->centre.y() < log->centre.y());
    QVERIFY(mul->centre.y() > log->centre.y());
    // Step 1: probs holds a zero (finite), Log gives -inf, mul NaN.
    QCOMPARE(log->health, QStringLiteral("inf"));
    QCOMPARE(probs->health, QStringLiteral("finite"));
    QCOMPARE(mul->health, QStringLiteral("nan"));
    QCOMPARE(probs->trace, std::optional<std::uint64_t>(LossLogdir::kTracesPerStep));
    QCOMPARE(mul->trace,
             std::optional<std::uint64_t>(LossLogdir::kTracesPerStep + LossLogdir::kMul));
    // The edge into Log is labelled with its tensor.
    bool labelled = false;
    for (QGraphicsItem* item : m_panel->scene()->items())
        labelled = labelled || item->toolTip().contains(QStringLiteral("probs:0"));
    QVERIFY(labelled);
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("graphstructurepanel-log")));
}

void TestGraphStructurePanel::healthFollowsTheFocusedStep()
{
    m_navigator->focusTrace(LossLogdir::kLog); // step 0: everything finite
    const auto nodes = m_panel->nodes();
    QCOMPARE(findNode(nodes, QStringLiteral("Log"))->health, QStringLiteral("finite"));
    QCOMPARE(findNode(nodes, QStringLiteral("mul"))->health, QStringLiteral("finite"));
    QCOMPARE(findNode(nodes, QStringLiteral("mul"))->trace,
             std::optional<std::uint64_t>(LossLogdir::kMul));
    // Focused on mul in step 1: its inputs as computed just before it.
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kMul);
    const auto later = m_panel->nodes();
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("mul"));
    QCOMPARE(findNode(later, QStringLiteral("Neg"))->health, QStringLiteral("finite"));
    QCOMPARE(findNode(later, QStringLiteral("Log"))->health, QStringLiteral("inf"));
    QCOMPARE(findNode(later, QStringLiteral("mul"))->health, QStringLiteral("nan"));
}

void TestGraphStructurePanel::clickingAnInputFocusesItsTrace()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    const auto probs = findNode(m_panel->nodes(), QStringLiteral("probs"));
    QVERIFY(probs);
    QGraphicsView* view = m_panel->view();
    const QPoint point = view->mapFromScene(probs->centre);
    QVERIFY(view->viewport()->rect().contains(point));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, point);
    const views::Focus& focus = m_navigator->focus();
    QVERIFY(focus.event.has_value());
    QVERIFY(focus.event->source == core::EventSource::Graph);
    QCOMPARE(focus.event->index, quint64(LossLogdir::kTracesPerStep + LossLogdir::kProbs));
    QCOMPARE(m_panel->visibleOpNames(),
             (QStringList{QStringLiteral("probs"), QStringLiteral("Log")}));
    // A drag pans instead of clicking.
    const auto log = findNode(m_panel->nodes(), QStringLiteral("Log"));
    const QPoint from = view->mapFromScene(log->centre);
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(view->viewport(), from + QPoint(60, 40));
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, from + QPoint(60, 40));
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("probs"));
}

void TestGraphStructurePanel::focusOpWithoutTrace()
{
    const core::OpId neg = m_logdir->snapshot()->graphs().findOp(
        m_logdir->snapshot()->graphs().op(m_logdir->snapshot()->trace(0).op).graph, "Neg");
    QVERIFY(neg != core::kNoOp);
    m_navigator->focusOp(neg);
    QCOMPARE(m_panel->visibleOpNames(),
             (QStringList{QStringLiteral("Neg"), QStringLiteral("labels"), QStringLiteral("mul")}));
    // Without a focused trace: what each op computed last.
    QCOMPARE(findNode(m_panel->nodes(), QStringLiteral("mul"))->health, QStringLiteral("nan"));
}

void TestGraphStructurePanel::anotherTraceOfTheSameOpKeepsTheView()
{
    m_navigator->focusTrace(LossLogdir::kLog);
    QGraphicsView* view = m_panel->view();
    const qreal fitted = view->transform().m11();
    QTest::keyClick(view, Qt::Key_Plus);
    QTest::keyClick(view, Qt::Key_Plus);
    const qreal zoomed = view->transform().m11();
    QVERIFY(zoomed > fitted);
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QCOMPARE(view->transform().m11(), zoomed);
    // A different op is fitted again: readable (never below 1:1), never swollen.
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kMul);
    const qreal refitted = view->transform().m11();
    QVERIFY2(refitted >= 1 && refitted <= 1.6 && refitted < zoomed,
             qPrintable(QString::number(refitted)));
}

void TestGraphStructurePanel::wholeGraphOfTheLossGraph()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    QVERIFY(finished.wait(20000));
    QCOMPARE(m_panel->nodes().size(), std::size_t(5));
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("Log"));
    const auto nodes = m_panel->nodes();
    QVERIFY(findNode(nodes, QStringLiteral("probs"))->centre.y() <
            findNode(nodes, QStringLiteral("Log"))->centre.y());
    QVERIFY(findNode(nodes, QStringLiteral("Log"))->centre.y() <
            findNode(nodes, QStringLiteral("mul"))->centre.y());
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("graphstructurepanel-whole")));
    // Moving inside the same graph moves the highlight; nothing is laid out again.
    const int layouts = finished.count();
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kMul);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("mul"));
    QCOMPARE(m_panel->nodes().size(), std::size_t(5));
    QVERIFY(!m_panel->isLayingOut());
    QCOMPARE(finished.count(), layouts);
    // Back to the neighbourhood.
    m_panel->setMode(Panel::Mode::Neighbourhood);
    QCOMPARE(m_panel->nodes().size(), std::size_t(3));
}

void TestGraphStructurePanel::wholeGraphOfAThousandOpChain()
{
    QTemporaryDir dir;
    const items::SnapshotPtr chain = writeChain(dir.path(), 1000);
    QVERIFY(chain && chain->readable());
    m_navigator->setSnapshot(chain);
    m_navigator->focusTrace(5); // op500
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("op500"));
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    QVERIFY(m_panel->isLayingOut());
    QVERIFY(finished.wait(120000));
    QCOMPARE(m_panel->nodes().size(), std::size_t(1000));
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("op500"));
    const auto nodes = m_panel->nodes();
    QVERIFY(findNode(nodes, QStringLiteral("op0"))->centre.y() <
            findNode(nodes, QStringLiteral("op999"))->centre.y());
    // The focused op is on screen.
    QGraphicsView* view = m_panel->view();
    const QPoint focused = view->mapFromScene(findNode(nodes, QStringLiteral("op500"))->centre);
    QVERIFY(view->viewport()->rect().contains(focused));
    QVERIFY(m_panel->statusText().contains(QStringLiteral("1000 ops")));
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("graphstructurepanel-chain")));
}

void TestGraphStructurePanel::hugeGraphsOfferTheNeighbourhoodOnly()
{
    QTemporaryDir dir;
    const items::SnapshotPtr chain = writeChain(dir.path(), Panel::kMaxWholeGraphOps + 1);
    QVERIFY(chain && chain->readable());
    m_navigator->setSnapshot(chain);
    m_navigator->focusTrace(1); // op100
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    QVERIFY(!m_panel->isLayingOut());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(
        m_panel->visibleOpNames(),
        (QStringList{QStringLiteral("op100"), QStringLiteral("op99"), QStringLiteral("op101")}));
    QVERIFY2(m_panel->statusText().contains(QStringLiteral("not laid out")),
             qPrintable(m_panel->statusText()));
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("graphstructurepanel-huge")));
}

void TestGraphStructurePanel::findStepsThroughTheOpsOfTheGraph()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    widgets::FindBar* bar = m_panel->findBar();
    QVERIFY(bar->isHidden());
    // Ctrl+F in the picture opens the panel's own find bar.
    m_panel->view()->setFocus();
    QTest::keyClick(m_panel->view(), Qt::Key_F, Qt::ControlModifier);
    QVERIFY(bar->isVisible());
    QVERIFY(bar->lineEdit()->hasFocus());
    // Two placeholders (probs, labels), by type, case-insensitive; after Log in the graph's
    // order the search wraps to the first.
    QTest::keyClicks(bar->lineEdit(), QStringLiteral("placeHOLDER"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("probs"));
    QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_F3);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("labels"));
    QCOMPARE(bar->status(), QStringLiteral("2 of 2"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("probs"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("labels"));
    QCOMPARE(bar->status(), QStringLiteral("2 of 2"));
    // A name: "mu" finds mul.
    bar->lineEdit()->clear();
    QTest::keyClicks(bar->lineEdit(), QStringLiteral("mu"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("mul"));
    QCOMPARE(bar->status(), QStringLiteral("1 of 1"));
    bar->lineEdit()->clear();
    QTest::keyClicks(bar->lineEdit(), QStringLiteral("nothing-like-this"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QCOMPARE(bar->status(), QStringLiteral("No match"));
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("mul"));

    // In the whole graph, the match is brought to the middle of the view.
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    QVERIFY(finished.wait(20000));
    bar->lineEdit()->clear();
    QTest::keyClicks(bar->lineEdit(), QStringLiteral("neg"));
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QCOMPARE(m_panel->visibleOpNames().front(), QStringLiteral("Neg"));
    const auto neg = findNode(m_panel->nodes(), QStringLiteral("Neg"));
    QVERIFY(neg && neg->focused);
    QGraphicsView* view = m_panel->view();
    QVERIFY(view->viewport()->rect().contains(view->mapFromScene(neg->centre)));
}

void TestGraphStructurePanel::wholeGraphLabelsEveryOpAndNamesEveryEdge()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    QVERIFY(finished.wait(20000));
    const auto nodes = m_panel->nodes();
    QCOMPARE(nodes.size(), std::size_t(5));
    // Every box shows its op's name and type, whole, no smaller than the UI font.
    const qreal uiFont = QFontMetricsF(m_panel->view()->font()).height();
    for (const Panel::NodeState& node : nodes) {
        QCOMPARE(node.labels, QStringList({node.name, node.type}));
        QVERIFY2(node.labelPixels >= uiFont - 0.01, qPrintable(node.name));
    }
    // Every edge tells its tensor on hover, along the line and not beside it.
    const auto edges = m_panel->edges();
    QCOMPARE(edges.size(), std::size_t(4));
    QStringList tensors;
    for (const Panel::EdgeState& edge : edges) {
        tensors << edge.tensor;
        QVERIFY2(m_panel->toolTipAt(edge.middle).contains(edge.tensor), qPrintable(edge.tensor));
    }
    tensors.sort();
    QCOMPARE(tensors, QStringList({QStringLiteral("Log:0"), QStringLiteral("Neg:0"),
                                   QStringLiteral("labels:0"), QStringLiteral("probs:0")}));
    // Far from any edge and box: no tooltip.
    const QRectF bounds = m_panel->scene()->itemsBoundingRect();
    QVERIFY(m_panel->toolTipAt(bounds.topLeft() - QPointF(30, 30)).isEmpty());
    // Zoom stays readable: a big graph scrolls rather than shrinks.
    QVERIFY(static_cast<QGraphicsView*>(m_panel->view())->transform().m11() >= 1);
}

// Qt's raster painter borrows QThreadPool::globalInstance() for large fills and waits for it: a
// layout queued there behind other work (on a one-core machine, behind anything) would hold up
// the window. The layout must come from a pool of its own.
void TestGraphStructurePanel::wholeGraphIsLaidOutWhileQtsGlobalPoolIsBusy()
{
    // Nothing is painted meanwhile: here the painter itself would wait for the busy pool.
    m_panel->setUpdatesEnabled(false);
    QThreadPool* global = QThreadPool::globalInstance();
    const int threads = global->maxThreadCount();
    QSemaphore started;
    QSemaphore release;
    for (int i = 0; i < threads; ++i)
        global->start([&] {
            started.release();
            (void)release.tryAcquire(1, 30000); // never longer, whatever happens below
        });
    const bool allBusy = started.tryAcquire(threads, 10000);
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QSignalSpy finished(m_panel.get(), &Panel::layoutFinished);
    m_panel->setMode(Panel::Mode::WholeGraph);
    const bool laidOut = finished.wait(10000);
    release.release(threads);
    global->waitForDone();
    m_panel->setUpdatesEnabled(true);
    QVERIFY(allBusy);
    QVERIFY(laidOut);
    QCOMPARE(m_panel->nodes().size(), std::size_t(5));
}

void TestGraphStructurePanel::aNarrowPaneGivesTheCaptionARow()
{
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    const QString whole = m_panel->caption();
    QVERIFY2(whole.startsWith(QStringLiteral("Log in graph ")), qPrintable(whole));
    QCOMPARE(m_panel->captionShown(), whole); // 800 px: room for all of it
    QVERIFY(!m_panel->captionOnItsOwnRow());
    // As narrow as a docked pane at 1280 px beside two others: the buttons leave the caption no
    // room, so it takes a row of its own and is shown whole.
    m_panel->resize(360, 520);
    QApplication::processEvents();
    QVERIFY(m_panel->captionOnItsOwnRow());
    QCOMPARE(m_panel->captionShown(), whole);
    // Wide again: back beside the buttons.
    m_panel->resize(800, 520);
    QApplication::processEvents();
    QVERIFY(!m_panel->captionOnItsOwnRow());
    QCOMPARE(m_panel->captionShown(), whole);
}

QTEST_MAIN(TestGraphStructurePanel)
#include "tst_graphstructurepanel.moc"
