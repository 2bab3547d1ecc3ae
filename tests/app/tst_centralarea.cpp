// SPDX-License-Identifier: GPL-3.0-or-later
// The central area readies the panels while its start page waits: each dock is laid out and
// painted once off screen, in idle moments, so that the first logdir opened shows them at once.
#include "centralarea.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QTest>
#include <vector>

using nanscope::app::CentralArea;

class TestCentralArea : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theStartPageReadiesEveryDock();
    void aWindowHiddenMeanwhileFinishesWhenShownAgain();
    void panelsShownFirstNeedNoReadying();
};

namespace {

class PaintCounter : public QWidget
{
public:
    int paints = 0;

protected:
    void paintEvent(QPaintEvent*) override { ++paints; }
};

struct Panels
{
    QMainWindow* host = new QMainWindow; // owned by the central area once given to it
    std::vector<PaintCounter*> counters;
    std::vector<QDockWidget*> docks;

    Panels()
    {
        host->setCentralWidget(new QWidget);
        for (const auto area : {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea}) {
            auto* dock = new QDockWidget(QStringLiteral("Dock"), host);
            auto* counter = new PaintCounter;
            dock->setWidget(counter);
            host->addDockWidget(area, dock);
            counters.push_back(counter);
            docks.push_back(dock);
        }
    }
};

} // namespace

void TestCentralArea::theStartPageReadiesEveryDock()
{
    Panels panels;
    CentralArea area(panels.host);
    area.resize(900, 600);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QVERIFY(area.isShowingStartPage());
    QTRY_VERIFY(area.panelsPrepared());
    QVERIFY(area.isShowingStartPage()); // still: nothing was shown to do it
    for (std::size_t i = 0; i < panels.docks.size(); ++i) {
        QVERIFY(panels.counters[i]->paints > 0);
        // Laid out at the size the page gives them, not at a hidden widget's default.
        QVERIFY(panels.docks[i]->height() > 300);
    }
}

void TestCentralArea::aWindowHiddenMeanwhileFinishesWhenShownAgain()
{
    Panels panels;
    CentralArea area(panels.host);
    area.resize(900, 600);
    area.show();
    area.hide(); // before any idle moment: the steps stop
    QTest::qWait(50);
    QVERIFY(!area.panelsPrepared());
    area.show();
    area.show(); // again: still one step at a time
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QTRY_VERIFY(area.panelsPrepared());
    for (const PaintCounter* counter : panels.counters)
        QCOMPARE(counter->paints, 1); // each dock rendered once, off screen
}

void TestCentralArea::panelsShownFirstNeedNoReadying()
{
    Panels panels;
    CentralArea area(panels.host);
    area.showPanels(true); // as a logdir named on the command line does
    area.resize(900, 600);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QTest::qWait(50);
    QVERIFY(!area.panelsPrepared());
    for (const PaintCounter* counter : panels.counters)
        QVERIFY(counter->paints > 0); // painted on screen, as panels that show are
}

QTEST_MAIN(TestCentralArea)
#include "tst_centralarea.moc"
