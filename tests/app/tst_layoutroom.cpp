// SPDX-License-Identifier: GPL-3.0-or-later
// The room each panel keeps in the window at the sizes users run it at: 1280 × 800, and the
// window a 1920 × 1080 screen opens (85 % of it). Graph Structure fits the focused op's
// neighbourhood in its pane (an eager run's too), the Execution Timeline's lanes stay compact
// (a host without executions is one line) and share a wall-time axis, and the Alerts panel's
// op filter stays readable beside its host and device filters.
#include "eagerlogdir.hpp"
#include "hostlogdirs.hpp"
#include "mainwindow.hpp"
#include "mainwindowload.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "screenshot.hpp"
#include "tensorflowlogdir.hpp"
#include "windowsettings.hpp"

#include <QApplication>
#include <QComboBox>
#include <QGraphicsView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace nanscope;
using app::MainWindow;

namespace {

constexpr int kWait = 30000;

// The window a screen of this size opens, as the app sizes it.
QRect windowOn(int width, int height)
{
    return app::defaultWindowGeometry(QRect(0, 0, width, height));
}

// Shows `window` at `geometry` and opens `logdir` in it, read whole.
bool showAndOpen(MainWindow& window, QRect geometry, const QString& logdir)
{
    window.setGeometry(geometry);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && test::openAndWait(window, logdir);
}

// Why the neighbourhood's boxes, edges and labels are not all drawn within the view's viewport;
// empty when they are.
QString notWhollyShown(const views::GraphStructurePanel& panel)
{
    QGraphicsView* view = panel.view();
    const QRect viewport = view->viewport()->rect();
    const QRect drawn = view->mapFromScene(view->scene()->itemsBoundingRect()).boundingRect();
    if (viewport.contains(drawn))
        return {};
    return QStringLiteral("%1×%2 drawn at %3,%4 in a viewport of %5×%6")
        .arg(drawn.width())
        .arg(drawn.height())
        .arg(drawn.x())
        .arg(drawn.y())
        .arg(viewport.width())
        .arg(viewport.height());
}

// The keras logdir of tensorflowlogdir.hpp, then two more hosts of the same run that traced the
// same graph and ran no eager op: as a multi-worker job dumps it, each worker's file set
// (every file present) with its own name, started a second after the first.
bool writeThreeHostTensorFlowLogdir(const std::filesystem::path& dir)
{
    test::writeTensorFlowLogdir(dir, test::TensorFlowStack::KerasModel);
    std::filesystem::path metadata;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".metadata")
            metadata = entry.path();
    if (metadata.empty())
        return false;
    // tfdbg_events.<seconds>.<host>
    const std::string prefix = metadata.stem().string();
    const std::string seconds = prefix.substr(13, prefix.find('.', 13) - 13);
    const std::string later = std::to_string(std::stoll(seconds) + 1);
    for (const char* host : {"worker-1", "worker-2"}) {
        const std::string other = "tfdbg_events." + later + "." + host;
        for (const char* suffix : {".metadata", ".graph_execution_traces"})
            std::filesystem::copy_file(dir / (prefix + suffix), dir / (other + suffix));
        for (const char* suffix : {".execution", ".graphs", ".source_files", ".stack_frames"})
            std::ofstream(dir / (other + suffix));
    }
    return true;
}

// Two hosts of one run whose executions interleave in time, 3 ms apart: host-a runs every third
// (20 Exp), host-b the others (40 Add), host-b starting later.
bool writeInterleavedHosts(const std::filesystem::path& dir)
{
    auto a = test::openHost(dir, "interleaved", "host-a");
    auto b = test::openSecondHost(dir, "interleaved", "host-b");
    if (!a.ok() || !b.ok())
        return false;
    const std::int64_t shape[1] = {2};
    const float values[2] = {1.0F, 2.0F};
    bool ok = true;
    for (int i = 0; i < 60; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        Recorder& recorder = i % 3 == 0 ? **a : **b;
        ok = ok && recorder
                       .recordExecution({.opType = i % 3 == 0 ? "Exp" : "Add",
                                         .outputIds = {recorder.newTensorId()},
                                         .outputs = {{.data = values, .shape = shape}}})
                       .ok();
    }
    return ok && (*a)->close().ok() && (*b)->close().ok();
}

// Two hosts of one run, each with executions on two devices named as TensorFlow names them.
bool writeTwoHostsTwoDevices(const std::filesystem::path& dir)
{
    auto a = test::openHost(dir, "places", "worker-0");
    auto b = test::openSecondHost(dir, "places", "worker-1");
    if (!a.ok() || !b.ok())
        return false;
    const std::int64_t shape[1] = {2};
    const float values[2] = {-INFINITY, 2.0F};
    bool ok = true;
    for (Recorder* recorder : {a->get(), b->get()})
        for (const char* device : {"/job:worker/replica:0/task:0/device:GPU:0",
                                   "/job:worker/replica:0/task:0/device:CPU:0"})
            ok = ok && recorder
                           ->recordExecution({.opType = "Log",
                                              .outputIds = {recorder->newTensorId()},
                                              .outputs = {{.data = values, .shape = shape}},
                                              .device = device})
                           .ok();
    return ok && (*a)->close().ok() && (*b)->close().ok();
}

// `ranks` ranks of a PyTorch run (one host each): executions with module paths, so that the
// Executions panel shows its op type and module boxes, and with two ranks its host box.
bool writeRanksWithModules(const std::filesystem::path& dir, int ranks)
{
    std::vector<std::unique_ptr<Recorder>> recorders;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string host = "node-rank" + std::to_string(rank);
        auto opened = rank == 0 ? test::openHost(dir, "ranks", host.c_str())
                                : test::openSecondHost(dir, "ranks", host.c_str());
        if (!opened.ok())
            return false;
        recorders.push_back(std::move(*opened));
    }
    const std::int64_t shape[1] = {2};
    const float values[2] = {1.0F, 2.0F};
    bool ok = true;
    for (const auto& recorder : recorders)
        for (const char* op : {"aten::linear", "aten::scaled_dot_product_attention"})
            ok = ok &&
                 recorder
                     ->recordExecution({.opType = op,
                                        .outputIds = {recorder->newTensorId()},
                                        .outputs = {{.data = values, .shape = shape}},
                                        .context = {.modulePath = "Transformer.blocks.0.attn"}})
                     .ok();
    for (const auto& recorder : recorders)
        ok = ok && recorder->close().ok();
    return ok;
}

} // namespace

class TestLayoutRoom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eagerNeighbourhoodFitsItsPane();
    void threeHostsLeaveGraphStructureItsRoom();
    void lanesOfSeveralHostsShareAWallTimeAxis();
    void theOpFilterStaysReadableBesideTwoPlaceFilters();
    void aHostBoxWidensNoExecutionsPanel();
};

// An eager run (PyTorch's shape) at 1280 × 800, focused on its first NaN: Log, with the linear
// layer that fed it above and the mul that read it below.
void TestLayoutRoom::eagerNeighbourhoodFitsItsPane()
{
    const test::EagerLogdir logdir(3, 1);
    QVERIFY(logdir.ok());
    MainWindow window({.useSettings = false});
    QVERIFY(showAndOpen(window, windowOn(1280, 800), logdir.path()));
    views::GraphStructurePanel* panel = window.graphStructurePanel();
    QSignalSpy laidOut(panel, &views::GraphStructurePanel::layoutFinished);
    QVERIFY(window.jumpToFirstAlert());
    QVERIFY(laidOut.wait(kWait));
    QTRY_VERIFY(!window.isBusy());
    QCOMPARE(panel->visibleOpNames(),
             (QStringList{QStringLiteral("aten::log #11"), QStringLiteral("aten::linear #10"),
                          QStringLiteral("aten::mul #12")}));
    // Once the scroll bars the pane no longer needs are gone (the event loop hides them).
    QTRY_VERIFY2(notWhollyShown(*panel).isEmpty(), qPrintable(notWhollyShown(*panel)));
    // Fitted, not shrunk out of reading: the labels keep most of the UI font's size.
    for (const views::GraphStructurePanel::NodeState& node : panel->nodes())
        QVERIFY2(node.labelPixels >= 0.6 * QFontMetricsF(panel->font()).height(),
                 qPrintable(QString::number(node.labelPixels)));
    QVERIFY(test::saveScreenshot(&window, QStringLiteral("layoutroom-eager-1280")));
}

// Three hosts of a TensorFlow run at 1920 × 1080, two of them without executions: their lanes are
// a line each, and Graph Structure keeps the room for Log's inputs and consumers.
void TestLayoutRoom::threeHostsLeaveGraphStructureItsRoom()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeThreeHostTensorFlowLogdir(dir.path().toStdString()));
    for (const QRect geometry : {windowOn(1920, 1080), windowOn(1280, 800)}) {
        MainWindow window({.useSettings = false});
        QVERIFY(showAndOpen(window, geometry, dir.path()));
        QVERIFY(window.jumpToFirstAlert());
        QTRY_VERIFY(!window.isBusy());
        views::ExecutionTimelinePanel* timeline = window.timelinePanel();
        QCOMPARE(timeline->laneCount(), std::size_t{3});
        const int line = timeline->fontMetrics().height();
        for (const std::size_t lane : {std::size_t{1}, std::size_t{2}}) {
            QCOMPARE(timeline->laneStrip(lane)->itemCount(), quint64(0));
            QVERIFY2(timeline->laneRect(lane).height() <= line + 6,
                     qPrintable(QString::number(timeline->laneRect(lane).height())));
        }
        views::GraphStructurePanel* panel = window.graphStructurePanel();
        QCOMPARE(panel->visibleOpNames().size(), 3); // Log, its input, its consumer
        QTRY_VERIFY2(notWhollyShown(*panel).isEmpty(),
                     qPrintable(QStringLiteral("%1×%2 window: %3")
                                    .arg(geometry.width())
                                    .arg(geometry.height())
                                    .arg(notWhollyShown(*panel))));
        QVERIFY(test::saveScreenshot(&window,
                                     QStringLiteral("layoutroom-hosts-%1").arg(geometry.width())));
    }
}

// host-a's and host-b's executions interleave in time; on the lanes' time axis (the toolbar's
// Time) what ran at the same time lines up: both lanes map a wall time to the same x, whichever
// lane is zoomed or scrolled.
void TestLayoutRoom::lanesOfSeveralHostsShareAWallTimeAxis()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeInterleavedHosts(dir.path().toStdString()));
    core::LogdirReader reader(dir.path().toStdString());
    views::Navigator navigator;
    views::ExecutionTimelinePanel panel(&navigator);
    panel.resize(900, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    navigator.setSnapshot(reader.update());
    QCOMPARE(panel.laneCount(), std::size_t{2});
    panel.timeAxisButton()->click();
    widgets::TimelineStrip* a = panel.laneStrip(0);
    widgets::TimelineStrip* b = panel.laneStrip(1);
    QVERIFY(a->timeAxis() && b->timeAxis());
    QCOMPARE(a->itemCount(), quint64(20));
    QCOMPARE(b->itemCount(), quint64(40));
    const auto check = [&] {
        // x = origin + time × scale, from host-a's first and last executions; host-b's lie on
        // that line (give or take the pixel each point is rounded to).
        const std::uint64_t last = a->itemCount() - 1;
        const double t0 = a->source()->time(0);
        const double t1 = a->source()->time(last);
        const double x0 = a->pointOf(0).x();
        const double x1 = a->pointOf(last).x();
        if (!(t1 > t0) || x1 == x0)
            return QStringLiteral("host-a's executions share a time or an x");
        for (std::uint64_t i = 0; i < b->itemCount(); ++i) {
            const double expected = x0 + (b->source()->time(i) - t0) / (t1 - t0) * (x1 - x0);
            if (std::abs(b->pointOf(i).x() - expected) > 2)
                return QStringLiteral("host-b's #%1 at x %2, host-a's axis puts its time at %3")
                    .arg(i)
                    .arg(b->pointOf(i).x())
                    .arg(expected);
        }
        return QString();
    };
    QString failure = check();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(test::saveScreenshot(&panel, QStringLiteral("layoutroom-lanes-time")));
    // Zoomed in one lane (Ctrl and the wheel, as a user does), the other follows; so it does a
    // scroll.
    QWheelEvent wheel(QPointF(600, 40), b->viewport()->mapToGlobal(QPointF(600, 40)), {}, {0, 240},
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    const double fitted = b->scale().pixelsPerItem;
    QApplication::sendEvent(b->viewport(), &wheel);
    QVERIFY(b->scale().pixelsPerItem > fitted && b->scale().scroll > 0);
    failure = check();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    a->horizontalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
    QCOMPARE(a->scale().scroll, b->scale().scroll);
    failure = check();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(test::saveScreenshot(&panel, QStringLiteral("layoutroom-lanes-zoomed")));
    // The toggle still offers the index order, lane by lane.
    panel.timeAxisButton()->click();
    QVERIFY(!a->timeAxis() && !b->timeAxis());
    QVERIFY(a->pointOf(0).x() < a->pointOf(1).x());
}

// Two hosts with two devices each at 1280 × 800: the host and device filters beside the op
// filter left it "Fi…"; the op filter keeps room for its placeholder.
void TestLayoutRoom::theOpFilterStaysReadableBesideTwoPlaceFilters()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeTwoHostsTwoDevices(dir.path().toStdString()));
    MainWindow window({.useSettings = false});
    QVERIFY(showAndOpen(window, windowOn(1280, 800), dir.path()));
    views::AlertsPanel* alerts = window.alertsPanel();
    QLineEdit* text = nullptr;
    for (QLineEdit* edit : alerts->findChildren<QLineEdit*>())
        if (edit->placeholderText() == QStringLiteral("Filter by op"))
            text = edit;
    QVERIFY(text);
    QTRY_VERIFY(text->isVisible());
    QTest::qWait(50); // the docks' last resize
    // The placeholder and the clear button, with the field's frame.
    const int wanted = text->fontMetrics().horizontalAdvance(text->placeholderText()) + 24;
    QVERIFY2(text->width() >= wanted,
             qPrintable(QStringLiteral("%1 < %2").arg(text->width()).arg(wanted)));
    QVERIFY(text->width() <= text->sizeHint().width() * 2);
    // And the window fits the screen: the boxes no longer widen it.
    QVERIFY2(window.width() <= 1280, qPrintable(QString::number(window.width())));
    QVERIFY(test::saveScreenshot(alerts, QStringLiteral("layoutroom-alert-filters")));
}

// The Executions panel of two ranks is as narrow as one rank's: its host box beside the op type
// and module boxes made a two-rank PyTorch run's window 1358 pixels wide at least, past a
// 1280-pixel screen; with the trailing tools it takes their line when the panel is narrow.
void TestLayoutRoom::aHostBoxWidensNoExecutionsPanel()
{
    std::vector<int> minimumWidths;
    for (const int ranks : {1, 2}) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeRanksWithModules(dir.path().toStdString(), ranks));
        MainWindow window({.useSettings = false});
        QVERIFY(showAndOpen(window, windowOn(1280, 800), dir.path()));
        views::ExecutionsPanel* executions = window.executionsPanel();
        QTRY_COMPARE(executions->hostBox()->isVisible(), ranks > 1);
        QTest::qWait(50); // the docks' last resize
        minimumWidths.push_back(executions->minimumSizeHint().width());
        QVERIFY2(window.width() <= 1280, qPrintable(QString::number(window.width())));
        if (ranks > 1)
            QVERIFY(test::saveScreenshot(&window, QStringLiteral("layoutroom-two-ranks")));
    }
    QVERIFY2(minimumWidths[1] <= minimumWidths[0],
             qPrintable(QStringLiteral("%1 > %2").arg(minimumWidths[1]).arg(minimumWidths[0])));
}

QTEST_MAIN(TestLayoutRoom)
#include "tst_layoutroom.moc"
