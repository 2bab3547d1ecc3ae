// SPDX-License-Identifier: GPL-3.0-or-later
// Qt's raster painter on the GUI thread (widgets::paintOnTheGuiThread): a blended fill large enough
// for Qt to split it into pool tasks is painted on the GUI thread at once, even while every thread
// of Qt's global pool is busy; other threads still get Qt's own answer about the pool. A process of
// its own: the call comes before the QApplication, as in the app's main().
#include "nanscope/widgets/inlinepainting.hpp"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <atomic>

class TestInlinePainting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newerQtsSwitchIsSet();
    void aBlendedFillIsPaintedWhileQtsGlobalPoolIsBusy();
    void poolThreadsAndOtherThreadsGetQtsAnswer();
};

void TestInlinePainting::newerQtsSwitchIsSet()
{
    QVERIFY(nanscope::widgets::paintingOnTheGuiThread());
    QCOMPARE(qgetenv("QT_NO_GUI_THREADPOOL"), QByteArray("1"));
}

void TestInlinePainting::aBlendedFillIsPaintedWhileQtsGlobalPoolIsBusy()
{
#if !defined(__ELF__)
    QSKIP("Qt's pool is asked about the GUI thread only where its answer can be given (ELF)");
#endif
    QThreadPool* global = QThreadPool::globalInstance();
    const int threads = global->maxThreadCount();
    QSemaphore started;
    QSemaphore release;
    std::atomic_int waitedInVain{0};
    for (int i = 0; i < threads; ++i)
        global->start([&] {
            started.release();
            if (!release.tryAcquire(1, 10000)) // never longer, whatever happens below
                ++waitedInVain;
        });
    QVERIFY(started.tryAcquire(threads, 10000));

    // 300 lines of a translucent brush: Qt would hand five 64-line tasks to the busy pool and
    // wait for them, ten seconds here, until the tasks above give up.
    QImage image(400, 300, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.fillRect(image.rect(), QColor(0, 0, 255, 128));
    }
    const int inVainDuringTheFill = waitedInVain.load();
    release.release(threads);
    global->waitForDone();
    QCOMPARE(inVainDuringTheFill, 0);
    QCOMPARE(waitedInVain.load(), 0);
    // Every line was filled: white under half-transparent blue.
    for (const int y : {0, 150, 299}) {
        const QColor pixel = image.pixelColor(200, y);
        QCOMPARE(pixel.blue(), 255);
        QVERIFY2(pixel.red() > 120 && pixel.red() < 135, qPrintable(QString::number(pixel.red())));
    }
}

void TestInlinePainting::poolThreadsAndOtherThreadsGetQtsAnswer()
{
    QThreadPool pool;
    std::atomic_bool insideItsOwnPool{false};
    pool.start([&] { insideItsOwnPool = pool.contains(QThread::currentThread()); });
    pool.waitForDone();
    QVERIFY(insideItsOwnPool.load());

    std::atomic_bool otherThreadInside{true};
    QThread* other =
        QThread::create([&] { otherThreadInside = pool.contains(QThread::currentThread()); });
    other->start();
    QVERIFY(other->wait(10000));
    delete other;
    QVERIFY(!otherThreadInside.load());
}

int main(int argc, char* argv[])
{
    nanscope::widgets::paintOnTheGuiThread();
    QApplication app(argc, argv);
    TestInlinePainting test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_inlinepainting.moc"
