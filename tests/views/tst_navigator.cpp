// SPDX-License-Identifier: GPL-3.0-or-later
// The Navigator: focus of traces, executions, ops, alerts and the origin, frames and back/forward.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/navigator.hpp"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace nanscope;
using nanscope::views::Navigator;

class TestNavigator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void traceFocusSelectsOpStackAndUserLine();
    void executionFocusUsesCallStack();
    void alertsAndOriginLandOnTheLog();
    void frameAndSourceFocus();
    void backAndForward();
    void newLogdirClearsHistory();

private:
    items::SnapshotPtr m_snapshot;
    QTemporaryDir m_dir;
    core::OpId m_log = core::kNoOp, m_probs = core::kNoOp;
    int m_logLine = 0, m_callLine = 0;
};

void TestNavigator::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto r = Recorder::open({.dumpRoot = m_dir.path().toStdString(),
                             .mode = TensorDebugMode::FullHealth,
                             .circularBufferSize = -1});
    QVERIFY(r.ok());
    auto& rec = **r;
    auto graph = *rec.declareGraph("loss");
    auto probs = *rec.declareOp({.graph = graph, .type = "Placeholder", .name = "probs"});
    const OpSpec logSpec{.graph = graph, .type = "Log", .name = "Log", .inputs = {"probs:0"}};
    m_logLine = __LINE__ + 1;
    auto log = *rec.declareOp(logSpec);
    const float p[2] = {0.5f, 0.0f};
    const float l[2] = {std::log(0.5f), -INFINITY};
    const std::int64_t shape[1] = {2};
    QVERIFY(rec.recordTrace(probs, 0, {.data = p, .shape = shape}).ok());
    QVERIFY(rec.recordTrace(log, 0, {.data = l, .shape = shape}).ok());
    const ExecutionSpec call{.opType = "__inference_loss_1",
                             .graph = &graph,
                             .outputIds = {1},
                             .outputs = {{.data = l, .shape = shape}}};
    m_callLine = __LINE__ + 1;
    QVERIFY(rec.recordExecution(call).ok());
    QVERIFY(rec.close().ok());

    core::LogdirReader reader(m_dir.path().toStdString());
    m_snapshot = reader.update();
    QVERIFY(m_snapshot->readable());
    m_log = m_snapshot->graphs().findOp(graph.id, "Log");
    m_probs = m_snapshot->graphs().findOp(graph.id, "probs");
    QVERIFY(m_log != core::kNoOp);
}

void TestNavigator::traceFocusSelectsOpStackAndUserLine()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    QSignalSpy changed(&nav, &Navigator::focusChanged);
    nav.focusTrace(1);
    QCOMPARE(changed.count(), 1);
    const auto& f = nav.focus();
    QVERIFY(f.event.has_value());
    QCOMPARE(f.event->index, 1u);
    QCOMPARE(f.op, m_log);
    QCOMPARE(f.stackFrameIds, m_snapshot->graphs().op(m_log).stackFrameIds);
    QVERIFY(f.fileIndex.has_value());
    QCOMPARE(f.line, m_logLine);
    QVERIFY(m_snapshot->code().files()[*f.fileIndex].filePath.ends_with("tst_navigator.cpp"));

    nav.focusTrace(99); // out of range: ignored
    QCOMPARE(changed.count(), 1);
}

void TestNavigator::executionFocusUsesCallStack()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    nav.focusExecution(0);
    QVERIFY(nav.focus().event->source == core::EventSource::Eager);
    QCOMPARE(nav.focus().op, core::kNoOp);
    QCOMPARE(nav.focus().line, m_callLine);
}

void TestNavigator::alertsAndOriginLandOnTheLog()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    QVERIFY(m_snapshot->alertCount() >= 1);
    nav.focusAlert(0);
    QCOMPARE(nav.focus().op, m_log);
    nav.focusTrace(0);
    QVERIFY(nav.focusOrigin());
    QCOMPARE(nav.focus().op, m_log);
    QVERIFY(nav.focus().event->source == core::EventSource::Graph);
}

void TestNavigator::frameAndSourceFocus()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    nav.focusTrace(1);
    const auto file = *nav.focus().fileIndex;
    nav.focusSource(file, 3);
    QCOMPARE(nav.focus().line, 3);
    QCOMPARE(nav.focus().op, m_log); // the rest of the focus stays
    nav.focusFrame(0);
    QCOMPARE(nav.focus().line, m_logLine);
    QCOMPARE(nav.focus().frame, std::optional<std::size_t>(0));
    nav.focusOp(m_probs);
    QCOMPARE(nav.focus().op, m_probs);
    QVERIFY(!nav.focus().event.has_value()); // the focused trace was Log's, not probs'
}

void TestNavigator::backAndForward()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    QSignalSpy history(&nav, &Navigator::historyChanged);
    QVERIFY(!nav.canGoBack());
    nav.focusTrace(0);
    nav.focusTrace(1);
    nav.focusExecution(0);
    QVERIFY(nav.canGoBack());
    QVERIFY(!nav.canGoForward());
    nav.back();
    QCOMPARE(nav.focus().event->index, 1u);
    QVERIFY(nav.focus().event->source == core::EventSource::Graph);
    nav.back();
    QCOMPARE(nav.focus().event->index, 0u);
    QVERIFY(!nav.canGoBack());
    nav.forward();
    QCOMPARE(nav.focus().event->index, 1u);
    nav.focusTrace(0); // a new move drops the forward history
    QVERIFY(!nav.canGoForward());
    QVERIFY(history.count() >= 6);
}

void TestNavigator::newLogdirClearsHistory()
{
    Navigator nav;
    nav.setSnapshot(m_snapshot);
    nav.focusTrace(1);
    nav.setSnapshot(m_snapshot); // the same logdir again: focus kept
    QVERIFY(nav.focus().event.has_value());
    nav.setSnapshot(nullptr);
    QVERIFY(!nav.focus().event.has_value());
    QVERIFY(!nav.canGoBack());
}

QTEST_GUILESS_MAIN(TestNavigator)
#include "tst_navigator.moc"
