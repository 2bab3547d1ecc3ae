// SPDX-License-Identifier: GPL-3.0-or-later
// The execution timeline panel over the loss logdir: the strip follows the navigator, clicks and
// keys move the focus, and the details describe the focused execution's outputs.
#include "hostlogdirs.hpp"
#include "losslogdir.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "screenshot.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

using namespace nanscope;
using test::LossLogdir;

using test::saveScreenshot;

class TestExecutionTimelinePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void stripShowsEveryExecutionAndMarksAlerts();
    void detailsOfANanExecution();
    void detailsOfAnInfinityAmongAThousand();
    void clickFocusesTheExecution();
    void keysMoveTheFocus();
    void graphTraceFocusShowsNothingFocused();
    void closingTheLogdirEmptiesTheStrip();
    void wallTimeAxisPlacesExecutionsByTime();
    void aFunctionCallShowsItsGraphExecutions();
    void detailsStackWhenThePaneIsNarrow();
    void aHundredThousandExecutions();
    void wallTimesNoClockShows();
    void severalHostsHaveOneLaneEach();
    void valuesSetAsideAreNotMarked();

private:
    std::unique_ptr<LossLogdir> m_logdir;
    std::unique_ptr<views::Navigator> m_navigator;
    std::unique_ptr<views::ExecutionTimelinePanel> m_panel;
};

void TestExecutionTimelinePanel::initTestCase()
{
    m_logdir = std::make_unique<LossLogdir>();
    QVERIFY(m_logdir->ok());
    QCOMPARE(m_logdir->snapshot()->executionCount(), quint64(6));
}

void TestExecutionTimelinePanel::init()
{
    m_navigator = std::make_unique<views::Navigator>();
    m_panel = std::make_unique<views::ExecutionTimelinePanel>(m_navigator.get());
    m_panel->resize(900, 360);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_navigator->setSnapshot(m_logdir->snapshot());
}

void TestExecutionTimelinePanel::cleanup()
{
    m_panel.reset();
    m_navigator.reset();
}

void TestExecutionTimelinePanel::stripShowsEveryExecutionAndMarksAlerts()
{
    widgets::TimelineStrip* strip = m_panel->strip();
    QCOMPARE(strip->itemCount(), quint64(6));
    // Step 1's eager Log (-inf) and its call of "loss" (NaN).
    const std::vector<std::uint64_t> expected{LossLogdir::kExecutionsPerStep +
                                                  LossLogdir::kEagerLog,
                                              LossLogdir::kExecutionsPerStep + LossLogdir::kCall};
    QCOMPARE(strip->markers(), expected);
    QCOMPARE(strip->current(), std::nullopt);
    QCOMPARE(m_panel->detailsText(), QString());
}

void TestExecutionTimelinePanel::detailsOfANanExecution()
{
    const int call = LossLogdir::kExecutionsPerStep + LossLogdir::kCall;
    m_navigator->focusExecution(call);
    QCOMPARE(m_panel->strip()->current(), std::optional<std::uint64_t>(call));
    const QString text = m_panel->detailsText();
    QVERIFY2(text.startsWith(QStringLiteral("Execution #%1: __inference_loss_7").arg(call)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Kind: function call of graph “loss”")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Health: non-finite outputs: NaN")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Debug mode: FULL_HEALTH")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Output slot 0: 4 elements: 1 NaN")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("float32")), qPrintable(text));
    QVERIFY(saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-details")));
}

void TestExecutionTimelinePanel::detailsOfAnInfinityAmongAThousand()
{
    m_navigator->focusExecution(LossLogdir::kExecutionsPerStep + LossLogdir::kEagerLog);
    const QString text = m_panel->detailsText();
    QVERIFY2(text.contains(QStringLiteral("Kind: eager op")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Output slot 0: 1000 elements: 1 -inf, 999 negative")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Inputs: 1 tensor (")), qPrintable(text));
    // The healthy step before: no alert words.
    m_navigator->focusExecution(LossLogdir::kEagerLog);
    QVERIFY(m_panel->detailsText().contains(QStringLiteral("Health: all outputs finite")));
}

void TestExecutionTimelinePanel::clickFocusesTheExecution()
{
    widgets::TimelineStrip* strip = m_panel->strip();
    QTest::mouseClick(strip->viewport(), Qt::LeftButton, {}, strip->pointOf(4));
    const views::Focus& focus = m_navigator->focus();
    QVERIFY(focus.event.has_value());
    QVERIFY(focus.event->source == core::EventSource::Eager);
    QCOMPARE(focus.event->index, quint64(4));
    QCOMPARE(strip->current(), std::optional<std::uint64_t>(4));
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #4: Log")));
}

void TestExecutionTimelinePanel::keysMoveTheFocus()
{
    widgets::TimelineStrip* strip = m_panel->strip();
    m_navigator->focusExecution(1);
    QTest::keyClick(strip, Qt::Key_Right);
    QCOMPARE(m_navigator->focus().event->index, quint64(2));
    QTest::keyClick(strip, Qt::Key_End);
    QCOMPARE(m_navigator->focus().event->index, quint64(5));
    QTest::keyClick(strip, Qt::Key_Home);
    QCOMPARE(m_navigator->focus().event->index, quint64(0));
    QTest::keyClick(strip, Qt::Key_Right, Qt::ControlModifier); // the next alert
    QCOMPARE(m_navigator->focus().event->index, quint64(4));
    // Back through the navigator's history.
    m_navigator->back();
    QCOMPARE(strip->current(), std::optional<std::uint64_t>(0));
}

void TestExecutionTimelinePanel::graphTraceFocusShowsNothingFocused()
{
    m_navigator->focusExecution(2);
    m_navigator->focusTrace(LossLogdir::kTracesPerStep + LossLogdir::kLog);
    QCOMPARE(m_panel->strip()->current(), std::nullopt);
    QCOMPARE(m_panel->strip()->itemCount(), quint64(6));
    QCOMPARE(m_panel->detailsText(), QString());
}

void TestExecutionTimelinePanel::closingTheLogdirEmptiesTheStrip()
{
    m_navigator->focusExecution(2);
    m_navigator->setSnapshot(nullptr);
    QCOMPARE(m_panel->strip()->itemCount(), quint64(0));
    QCOMPARE(m_panel->strip()->current(), std::nullopt);
    QCOMPARE(m_panel->detailsText(), QString());
    QVERIFY(!m_panel->grab().isNull());
}

namespace {

// `count` executions: plain ops with a function call every 50th, NaN from 60 % on in some.
items::SnapshotPtr writeMany(const QString& dir, int count)
{
    auto opened = Recorder::open({.dumpRoot = dir.toStdString(),
                                  .mode = TensorDebugMode::CurtHealth,
                                  .circularBufferSize = -1});
    if (!opened.ok())
        return nullptr;
    Recorder& recorder = **opened;
    const GraphHandle step = *recorder.declareGraph("train_step");
    const float good[1] = {1.0f};
    const float bad[1] = {NAN};
    const std::int64_t shape[1] = {1};
    const char* types[] = {"MatMul", "AddV2", "Relu", "Softmax", "Log", "Mul", "ReadVariableOp"};
    for (int i = 0; i < count; ++i) {
        const bool call = i % 50 == 49;
        const bool nan = i > count * 6 / 10 && i % 997 < 3;
        ExecutionSpec spec{.opType = call ? "__inference_train_step_81" : types[i % 7],
                           .graph = call ? &step : nullptr,
                           .outputIds = {recorder.newTensorId()},
                           .outputs = {{.data = nan ? bad : good, .shape = shape}}};
        if (!recorder.recordExecution(spec).ok())
            return nullptr;
    }
    if (!recorder.close().ok())
        return nullptr;
    core::LogdirReader reader(dir.toStdString());
    return reader.update();
}

// Executions whose wall times are NaN and 1e300, written record by record (the recorder stamps
// real times): converting such a value to a date was undefined behaviour.
items::SnapshotPtr writeImpossibleTimes(const QString& dir)
{
    const std::string prefix = dir.toStdString() + "/tfdbg_events.1700000000.host.";
    auto write = [](const std::string& path, const std::vector<tfdbg::DebugEvent>& events) {
        std::string bytes;
        for (const auto& e : events)
            format::appendRecord(bytes, e.SerializeAsString());
        std::ofstream(path, std::ios::binary) << bytes;
    };
    tfdbg::DebugEvent metadata;
    metadata.set_wall_time(1.0);
    metadata.mutable_debug_metadata()->set_file_version("debug.Event:1");
    std::vector<tfdbg::DebugEvent> executions(2);
    executions[0].set_wall_time(std::nan(""));
    executions[1].set_wall_time(1e300);
    for (auto& e : executions)
        e.mutable_execution()->set_op_type("Exp");
    write(prefix + "metadata", {metadata});
    write(prefix + "execution", executions);
    for (const char* suffix : {"source_files", "stack_frames", "graphs", "graph_execution_traces"})
        write(prefix + suffix, {});
    core::LogdirReader reader(dir.toStdString());
    return reader.update();
}

} // namespace

void TestExecutionTimelinePanel::wallTimesNoClockShows()
{
    QTemporaryDir dir;
    const items::SnapshotPtr odd = writeImpossibleTimes(dir.path());
    QVERIFY(odd && odd->executionCount() == 2);
    m_navigator->setSnapshot(odd);
    m_navigator->focusExecution(0);
    QVERIFY2(m_panel->detailsText().contains(QStringLiteral("Wall time: not a time (nan)")),
             qPrintable(m_panel->detailsText()));
    m_navigator->focusExecution(1);
    QVERIFY2(m_panel->detailsText().contains(QStringLiteral("Wall time: not a time (1e+300)")),
             qPrintable(m_panel->detailsText()));
}

void TestExecutionTimelinePanel::aHundredThousandExecutions()
{
    QTemporaryDir dir;
    const items::SnapshotPtr many = writeMany(dir.path(), 100'000);
    QVERIFY(many && many->executionCount() == 100'000);
    QElapsedTimer timer;
    timer.start();
    m_navigator->setSnapshot(many);
    qInfo("100k executions loaded into the strip in %lld ms", timer.elapsed());
    widgets::TimelineStrip* strip = m_panel->strip();
    QCOMPARE(strip->itemCount(), quint64(100'000));
    QVERIFY(strip->scale().aggregated());
    QVERIFY(!strip->markers().empty());
    // Painting the fitted strip reads every column, not every execution.
    timer.restart();
    for (int i = 0; i < 10; ++i)
        strip->viewport()->repaint();
    qInfo("fitted strip painted in %.2f ms", timer.elapsed() / 10.0);
    // The first alert, from the keyboard; the strip scrolls to it once zoomed in.
    strip->setFocus();
    QTest::keyClick(strip, Qt::Key_Home);
    QTest::keyClick(strip, Qt::Key_Right, Qt::ControlModifier);
    const std::uint64_t first = strip->markers().front();
    QCOMPARE(m_navigator->focus().event->index, first);
    for (int i = 0; i < 12; ++i)
        strip->zoomIn();
    const double x = strip->scale().xOf(first);
    QVERIFY(x >= 0 && x < strip->scale().width);
    QVERIFY(m_panel->detailsText().contains(QStringLiteral("has NaN or ±inf")));
    m_panel->resize(1000, 330);
    QVERIFY(saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-zoomed")));
    strip->fit();
    QVERIFY(saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-fit")));
}

// Focusing a tf.function call (in the strip, or anywhere) highlights the graph executions that
// call ran in Graph Execution, and puts them in sight; a plain op highlights nothing.
void TestExecutionTimelinePanel::aFunctionCallShowsItsGraphExecutions()
{
    views::GraphExecutionPanel traces(m_navigator.get());
    traces.resize(900, 400);
    traces.show();
    m_navigator->setSnapshot(nullptr);
    m_navigator->setSnapshot(m_logdir->snapshot());
    const int call = LossLogdir::kExecutionsPerStep + LossLogdir::kCall; // step 1's call
    m_navigator->focusExecution(call);
    QList<quint64> expected;
    for (int t = 0; t < LossLogdir::kTracesPerStep; ++t)
        expected << quint64(LossLogdir::kTracesPerStep + t);
    QTRY_COMPARE_WITH_TIMEOUT(traces.highlightedInputs(), expected, 15000);
    QVERIFY2(traces.statusText().contains(QStringLiteral("5 graph executions")),
             qPrintable(traces.statusText()));
    // Step 0's call: step 0's traces.
    m_navigator->focusExecution(LossLogdir::kCall);
    expected.clear();
    for (int t = 0; t < LossLogdir::kTracesPerStep; ++t)
        expected << quint64(t);
    QTRY_COMPARE_WITH_TIMEOUT(traces.highlightedInputs(), expected, 15000);
    // A plain eager op: nothing, and no note.
    m_navigator->focusExecution(LossLogdir::kCast);
    QTRY_VERIFY_WITH_TIMEOUT(traces.highlightedInputs().isEmpty(), 15000);
    QVERIFY(!traces.statusText().contains(QStringLiteral("graph executions")));
}

void TestExecutionTimelinePanel::detailsStackWhenThePaneIsNarrow()
{
    m_navigator->focusExecution(LossLogdir::kExecutionsPerStep + LossLogdir::kCall);
    m_panel->resize(1000, 360);
    QTRY_VERIFY(m_panel->detailsSideBySide());
    m_panel->resize(480, 360);
    QTRY_VERIFY(!m_panel->detailsSideBySide());
    QVERIFY(saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-narrow")));
}

void TestExecutionTimelinePanel::wallTimeAxisPlacesExecutionsByTime()
{
    widgets::TimelineStrip* strip = m_panel->strip();
    const items::SnapshotPtr& snapshot = m_logdir->snapshot();
    const std::uint64_t count = snapshot->executionCount();
    QVERIFY(count >= 3);
    const std::uint64_t focused = LossLogdir::kExecutionsPerStep + LossLogdir::kEagerLog;
    m_navigator->focusExecution(focused);
    strip->zoomIn();
    strip->zoomIn();
    QVERIFY(!strip->timeAxis());
    m_panel->timeAxisButton()->click();
    QVERIFY(strip->timeAxis());
    // Positions follow wall time: a later execution never stands left of an earlier one.
    for (std::uint64_t i = 1; i < count; ++i) {
        const double earlier = snapshot->execution(i - 1).wallTime;
        const double later = snapshot->execution(i).wallTime;
        if (later >= earlier)
            QVERIFY2(strip->scale().xOf(i) >= strip->scale().xOf(i - 1),
                     qPrintable(QString::number(i)));
    }
    const double first = snapshot->execution(0).wallTime;
    const double span = snapshot->execution(count - 1).wallTime - first;
    if (span > 0) {
        // Proportional: the fraction of the strip is the fraction of the run's time.
        const double at = (snapshot->execution(focused).wallTime - first) / span;
        const double x = strip->scale().position(focused) / static_cast<double>(count - 1);
        QVERIFY(std::abs(at - x) < 1e-6);
    }
    // The focused execution stays in sight across the switch, both ways.
    QVERIFY(strip->viewport()->rect().contains(strip->pointOf(focused)));
    QCOMPARE(strip->current(), std::optional<std::uint64_t>(focused));
    strip->fit();
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-time")));
    strip->zoomIn();
    strip->zoomIn();
    m_panel->timeAxisButton()->click();
    QVERIFY(!strip->timeAxis());
    QVERIFY(strip->viewport()->rect().contains(strip->pointOf(focused)));
}

// Two hosts of one run: host-a records Exp and Log (-inf), host-b Sqrt, Div (NaN) and Add.
void TestExecutionTimelinePanel::severalHostsHaveOneLaneEach()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(test::writeTwoHostExecutions(dir.path().toStdString()));
    core::LogdirReader reader(dir.path().toStdString());
    const items::SnapshotPtr snapshot = reader.update();
    QCOMPARE(snapshot->executionCount(), quint64(2)); // TensorFlow's: the first host's
    m_navigator->setSnapshot(snapshot);

    QCOMPARE(m_panel->laneCount(), std::size_t{2});
    QCOMPARE(m_panel->laneName(0), QStringLiteral("host-a"));
    QCOMPARE(m_panel->laneName(1), QStringLiteral("host-b"));
    widgets::TimelineStrip* first = m_panel->laneStrip(0);
    widgets::TimelineStrip* second = m_panel->laneStrip(1);
    QCOMPARE(first, m_panel->strip());
    QTRY_VERIFY(second->isVisible()); // laid out once the event loop runs
    QVERIFY(first->mapTo(m_panel.get(), QPoint()).y() < second->mapTo(m_panel.get(), QPoint()).y());
    QCOMPARE(first->itemCount(), quint64(2));
    QCOMPARE(second->itemCount(), quint64(3));
    QCOMPARE(first->markers(), std::vector<std::uint64_t>{1});
    QCOMPARE(second->markers(), std::vector<std::uint64_t>{1});
    QVERIFY2(m_panel->summaryText().startsWith(QStringLiteral("5 executions on 2 hosts · 2 with")),
             qPrintable(m_panel->summaryText()));

    // A click on host-b's Div shows it; the Navigator, which names host-a's executions only,
    // keeps its focus, and the details say so.
    QTest::mouseClick(second->viewport(), Qt::LeftButton, {}, second->pointOf(1));
    QCOMPARE(second->current(), std::optional<std::uint64_t>(1));
    QCOMPARE(first->current(), std::nullopt);
    QVERIFY(!m_navigator->focus().event.has_value());
    QString text = m_panel->detailsText();
    QVERIFY2(text.startsWith(QStringLiteral("Execution #1 of host host-b: Div")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Health: non-finite outputs: NaN")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Host: host-b")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Output slot 0: 2 elements: 1 NaN")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Focus: not moved")), qPrintable(text));
    QVERIFY(saveScreenshot(m_panel.get(), QStringLiteral("executiontimelinepanel-hosts")));
    // Keys move within the lane.
    QTest::keyClick(second, Qt::Key_Right);
    QCOMPARE(second->current(), std::optional<std::uint64_t>(2));
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #2 of host host-b: Add")));
    // A newer snapshot of the same logdir keeps it shown.
    m_navigator->setSnapshot(reader.update());
    QCOMPARE(second->current(), std::optional<std::uint64_t>(2));
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #2 of host host-b")));

    // host-a's executions focus as before.
    QTest::mouseClick(first->viewport(), Qt::LeftButton, {}, first->pointOf(1));
    QVERIFY(m_navigator->focus().event.has_value());
    QCOMPARE(m_navigator->focus().event->index, quint64(1));
    QCOMPARE(first->current(), std::optional<std::uint64_t>(1));
    QCOMPARE(second->current(), std::nullopt);
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #1: Log")));
    // The same execution again, after one of host-b's: the Navigator does not move, the
    // details do.
    QTest::mouseClick(second->viewport(), Qt::LeftButton, {}, second->pointOf(0));
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #0 of host host-b")));
    QTest::mouseClick(first->viewport(), Qt::LeftButton, {}, first->pointOf(1));
    QVERIFY(m_panel->detailsText().startsWith(QStringLiteral("Execution #1: Log")));
    QCOMPARE(second->current(), std::nullopt);

    // One host: one lane, with no name.
    m_navigator->setSnapshot(m_logdir->snapshot());
    QCOMPARE(m_panel->laneCount(), std::size_t{1});
    QCOMPARE(m_panel->laneName(0), QString());
    QCOMPARE(m_panel->strip()->itemCount(), quint64(6));
    QVERIFY(!m_panel->summaryText().contains(QStringLiteral("hosts")));
}

void TestExecutionTimelinePanel::valuesSetAsideAreNotMarked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    test::writeMaskedAttentionLogdir(dir.path().toStdString());
    core::LogdirReader reader(dir.path().toStdString());
    const items::SnapshotPtr snapshot = reader.update();
    QCOMPARE(snapshot->alertCount(), quint64(3));
    m_navigator->setSnapshot(snapshot);
    // The digests mark every non-finite execution at once; the analysis then takes the mask's
    // masked_fill off (its -inf was written on purpose and absorbed by the softmax).
    const std::vector<std::uint64_t> counted{test::Log, test::Mean};
    QTRY_COMPARE(m_panel->strip()->markers(), counted);
    QVERIFY2(m_panel->summaryText().contains(QStringLiteral("2 with NaN/∞")),
             qPrintable(m_panel->summaryText()));
    // Drawn as the plain op it is to the user, and said so in its tooltip.
    const widgets::TimelineSource* source = m_panel->strip()->source();
    QVERIFY(source);
    QCOMPARE(source->category(test::MaskedFill), std::uint8_t{0}); // a plain op's colour
    QCOMPARE(m_panel->strip()->itemCategory(test::MaskedFill), std::uint8_t{0}); // drawn so
    QVERIFY(source->category(test::Log) != std::uint8_t{0});
    QVERIFY(source->toolTip(test::MaskedFill).contains(QStringLiteral("set aside as intended")));

    // "Treat as Expected" from the strip asks for the execution's op and kinds.
    QCOMPARE(m_panel->expectedPatternForExecution(test::Log), QStringLiteral("aten::log:-inf"));
    QCOMPARE(m_panel->expectedPatternForExecution(test::Softmax), QString()); // finite
    QSignalSpy asked(m_panel.get(), &views::ExecutionTimelinePanel::treatAsExpectedRequested);
    m_panel->treatExecutionAsExpected(test::Mean);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toString(), QStringLiteral("aten::mean:-inf"));
}

QTEST_MAIN(TestExecutionTimelinePanel)
#include "tst_executiontimelinepanel.moc"
