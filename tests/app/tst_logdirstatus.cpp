// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar while a logdir loads: the progress bar follows the loader without painting the
// window from inside the progress signal (QProgressBar::setValue repaints at once, and a repaint
// paints every region of the window waiting to be painted).
#include "logdirstatus.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/widgets/banner.hpp"

#include <QMainWindow>
#include <QProgressBar>
#include <QTest>

using namespace nanscope;

namespace {

// Counts the paint events a widget receives.
class PaintCounter : public QObject
{
public:
    int paints = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestLogdirStatus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void progressIsPaintedWithTheWindow();
};

void TestLogdirStatus::progressIsPaintedWithTheWindow()
{
    QMainWindow window;
    auto* banner = new widgets::Banner(&window);
    items::LogdirSession session;
    app::LogdirStatus status(&session, banner, &window);
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    Q_EMIT session.loadingStarted(QStringLiteral("/logdir"));
    auto* bar = window.findChild<QProgressBar*>();
    QVERIFY(bar);
    QTRY_VERIFY(bar->isVisible());
    QCoreApplication::processEvents(); // whatever showing it asked to paint

    PaintCounter counter;
    bar->installEventFilter(&counter);
    for (const qint64 done : {250, 500, 750}) {
        Q_EMIT session.progressChanged(done, 1000);
        QCOMPARE(bar->value(), static_cast<int>(done));
        QCOMPARE(counter.paints, 0); // not inside the signal…
    }
    QTRY_VERIFY(counter.paints > 0); // …but with the window's next paint
}

QTEST_MAIN(TestLogdirStatus)
#include "tst_logdirstatus.moc"
