// SPDX-License-Identifier: GPL-3.0-or-later
// whenIdle: work that may wait runs after the events already waiting, once, and not at all when
// its context is gone first.
#include "nanscope/widgets/whenidle.hpp"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

using nanscope::widgets::whenIdle;

class TestWhenIdle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsAfterTheEventsAlreadyWaiting();
    void aChainOfStepsLetsTimersRunBetweenThem();
    void notAtAllWhenItsContextIsGone();
};

// A queued call posted after the step was asked for still runs first: a step is not one more
// posted event in the batch (what QTimer::singleShot(0, …) makes of it).
void TestWhenIdle::runsAfterTheEventsAlreadyWaiting()
{
    QObject context;
    QStringList order;
    whenIdle(&context, [&] { order << QStringLiteral("idle step"); });
    QMetaObject::invokeMethod(
        &context, [&] { order << QStringLiteral("queued call"); }, Qt::QueuedConnection);
    QTRY_COMPARE(order.size(), 2);
    QCOMPARE(order, (QStringList{QStringLiteral("queued call"), QStringLiteral("idle step")}));
    QTest::qWait(20);
    QCOMPARE(order.size(), 2); // once
}

// Steps of 4 ms that each ask for the next: a 1 ms timer ticks between them, so that the event
// loop never stalls for more than about one step.
void TestWhenIdle::aChainOfStepsLetsTimersRunBetweenThem()
{
    QObject context;
    constexpr int kSteps = 6;
    int stepsDone = 0;
    int ticks = 0;
    std::vector<int> ticksBeforeStep;
    QTimer meter;
    meter.setInterval(1);
    connect(&meter, &QTimer::timeout, [&] { ++ticks; });
    meter.start();
    std::function<void()> step = [&] {
        ticksBeforeStep.push_back(ticks);
        QElapsedTimer busy;
        busy.start();
        while (busy.elapsed() < 4) {
        }
        if (++stepsDone < kSteps)
            whenIdle(&context, step);
    };
    whenIdle(&context, step);
    QTRY_COMPARE(stepsDone, kSteps);
    for (std::size_t i = 1; i < ticksBeforeStep.size(); ++i)
        QVERIFY2(ticksBeforeStep[i] > ticksBeforeStep[i - 1],
                 qPrintable(QStringLiteral("no tick between steps %1 and %2").arg(i - 1).arg(i)));
}

void TestWhenIdle::notAtAllWhenItsContextIsGone()
{
    bool ran = false;
    auto context = std::make_unique<QObject>();
    whenIdle(context.get(), [&] { ran = true; });
    context.reset();
    QTest::qWait(20);
    QVERIFY(!ran);
}

QTEST_MAIN(TestWhenIdle)
#include "tst_whenidle.moc"
