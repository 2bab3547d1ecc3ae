// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline strip as a widget: clicks activate the item under the mouse (the most remarkable
// one where items share a pixel), keys move from the current item, markers, zoom keys.
#include "nanscope/widgets/timelinestrip.hpp"

#include <QSignalSpy>
#include <QTest>

using namespace nanscope::widgets;

namespace {

class FakeSource : public TimelineSource
{
public:
    explicit FakeSource(std::uint64_t count) : m_count(count) {}
    std::uint64_t itemCount() const override { return m_count; }
    std::uint8_t category(std::uint64_t item) const override
    {
        return item == m_special ? 3 : static_cast<std::uint8_t>(item % 2);
    }
    QString label(std::uint64_t item) const override { return QStringLiteral("Op%1").arg(item); }
    QString toolTip(std::uint64_t item) const override { return label(item); }

    std::uint64_t m_count;
    std::uint64_t m_special = UINT64_MAX;
};

// Items in modules, as a PyTorch run's executions: 0-9 outside any, 10-29 in "MLP.hidden",
// 30-39 in "MLP.logits", 40-49 in "MLP.hidden" again.
class ModuleSource : public FakeSource
{
public:
    using FakeSource::FakeSource;
    std::uint32_t group(std::uint64_t item) const override
    {
        if (item < 10)
            return 0;
        return item < 30 || item >= 40 ? 1 : 2;
    }
    QString groupName(std::uint32_t group) const override
    {
        return group == 1 ? QStringLiteral("MLP.hidden") : QStringLiteral("MLP.logits");
    }
};

std::vector<TimelineCategory> fourCategories()
{
    return {{QStringLiteral("a"), Qt::lightGray},
            {QStringLiteral("b"), Qt::cyan},
            {QStringLiteral("c"), Qt::yellow},
            {QStringLiteral("d"), Qt::red}};
}

quint64 lastActivated(const QSignalSpy& spy)
{
    return spy.last().at(0).value<quint64>();
}

} // namespace

class TestTimelineStrip : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clickActivatesTheItemUnderTheMouse();
    void clickOnASharedColumnPicksTheRemarkableItem();
    void keysMoveFromTheCurrentItem();
    void markersAreReachedWithControlArrows();
    void zoomKeysAndFit();
    void appendedItemsKeepTheStripFitted();
    void paintsEveryZoomLevel();
    void groupsAreRunsDrawnAsBands();
    void sharedColumnsShowTheAlarmDensity();
};

void TestTimelineStrip::groupsAreRunsDrawnAsBands()
{
    FakeSource plain(50);
    ModuleSource modules(50);
    TimelineStrip strip;
    strip.setCategories(fourCategories());
    strip.setSource(&plain);
    const int plainHeight = strip.sizeHint().height();
    QVERIFY(strip.groupRuns().size() == 1 && strip.groupRuns().front().group == 0);

    strip.setSource(&modules);
    QVERIFY(strip.sizeHint().height() > plainHeight); // the band's row
    const auto& runs = strip.groupRuns();
    QCOMPARE(runs.size(), std::size_t(4));
    QCOMPARE(runs[1].first, std::uint64_t(10));
    QCOMPARE(runs[1].group, 1u);
    QCOMPARE(runs[2].first, std::uint64_t(30));
    QCOMPARE(runs[3].group, 1u);
    QCOMPARE(strip.groupOf(5), 0u);
    QCOMPARE(strip.groupOf(29), 1u);
    QCOMPARE(strip.groupOf(35), 2u);
    QCOMPARE(strip.groupOf(49), 1u);

    strip.resize(1000, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    // Items sit below the band and are still hit where they are drawn.
    QSignalSpy spy(&strip, &TimelineStrip::itemActivated);
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.pointOf(35));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(lastActivated(spy), quint64(35));
    // The band is painted in its row: the pixel above item 20 is not the background.
    const QImage image = strip.viewport()->grab().toImage();
    const QPoint item = strip.pointOf(20);
    const int bandY = strip.fontMetrics().height() + 4 + strip.fontMetrics().height() / 2 + 1;
    QVERIFY(image.pixelColor(item.x(), bandY) != strip.palette().color(QPalette::Base));
    QCOMPARE(image.pixelColor(strip.pointOf(5).x(), bandY), strip.palette().color(QPalette::Base));

    // Appended items extend the last run or start new ones.
    modules.m_count = 60;
    strip.itemsAppended();
    QCOMPARE(strip.groupRuns().size(), std::size_t(4));
    QCOMPARE(strip.groupOf(59), 1u);
}

void TestTimelineStrip::clickActivatesTheItemUnderTheMouse()
{
    FakeSource source(500);
    TimelineStrip strip;
    strip.setCategories(fourCategories());
    strip.resize(1000, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    QCOMPARE(strip.scale().pixelsPerItem, 2.0);
    QSignalSpy spy(&strip, &TimelineStrip::itemActivated);
    for (const std::uint64_t item : {0ull, 17ull, 499ull}) {
        QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.pointOf(item));
        QCOMPARE(lastActivated(spy), item);
    }
    // Activating does not make it current: the owner decides (through its navigator).
    QCOMPARE(strip.current(), std::nullopt);
}

void TestTimelineStrip::clickOnASharedColumnPicksTheRemarkableItem()
{
    FakeSource source(100'000);
    source.m_special = 54'321;
    TimelineStrip strip;
    strip.setCategories(fourCategories());
    strip.resize(500, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    QVERIFY(strip.scale().aggregated());
    QSignalSpy spy(&strip, &TimelineStrip::itemActivated);
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.pointOf(54'321));
    QCOMPARE(lastActivated(spy), quint64(54'321));
}

void TestTimelineStrip::keysMoveFromTheCurrentItem()
{
    FakeSource source(1000);
    TimelineStrip strip;
    strip.resize(800, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    QSignalSpy spy(&strip, &TimelineStrip::itemActivated);
    strip.setCurrent(10);
    QTest::keyClick(&strip, Qt::Key_Right);
    QCOMPARE(lastActivated(spy), quint64(11));
    QTest::keyClick(&strip, Qt::Key_Left);
    QCOMPARE(lastActivated(spy), quint64(9));
    QTest::keyClick(&strip, Qt::Key_End);
    QCOMPARE(lastActivated(spy), quint64(999));
    QTest::keyClick(&strip, Qt::Key_Home);
    QCOMPARE(lastActivated(spy), quint64(0));
    strip.setCurrent(0);
    QTest::keyClick(&strip, Qt::Key_Left); // stays at the first item
    QCOMPARE(lastActivated(spy), quint64(0));
    strip.setCurrent(999);
    QTest::keyClick(&strip, Qt::Key_Right);
    QCOMPARE(lastActivated(spy), quint64(999));
    // An out-of-range current item is no current item.
    strip.setCurrent(5000);
    QCOMPARE(strip.current(), std::nullopt);
}

void TestTimelineStrip::markersAreReachedWithControlArrows()
{
    FakeSource source(1000);
    TimelineStrip strip;
    strip.resize(800, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    strip.setMarkers({50, 70, 900});
    QSignalSpy spy(&strip, &TimelineStrip::itemActivated);
    strip.setCurrent(60);
    QTest::keyClick(&strip, Qt::Key_Right, Qt::ControlModifier);
    QCOMPARE(lastActivated(spy), quint64(70));
    QTest::keyClick(&strip, Qt::Key_Left, Qt::ControlModifier);
    QCOMPARE(lastActivated(spy), quint64(50));
    strip.setCurrent(900);
    const auto before = spy.count();
    strip.nextMarker(); // none after the last
    QCOMPARE(spy.count(), before);
}

void TestTimelineStrip::zoomKeysAndFit()
{
    FakeSource source(100'000);
    TimelineStrip strip;
    strip.resize(1000, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    const double fit = strip.scale().pixelsPerItem;
    strip.setCurrent(40'000);
    QTest::keyClick(&strip, Qt::Key_Plus);
    QTest::keyClick(&strip, Qt::Key_Plus);
    QVERIFY(strip.scale().pixelsPerItem > fit);
    // Zooming from the keyboard keeps the current item in view.
    const double x = strip.scale().xOf(40'000);
    QVERIFY(x >= 0 && x < strip.scale().width);
    QTest::keyClick(&strip, Qt::Key_Minus);
    QTest::keyClick(&strip, Qt::Key_0);
    QCOMPARE(strip.scale().pixelsPerItem, fit);
    // Ctrl+wheel zooms around the mouse.
    const QPointF at(250, strip.pointOf(0).y());
    const auto under = strip.scale().itemAt(at.x());
    QWheelEvent wheel(at, strip.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 480), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(strip.viewport(), &wheel);
    QVERIFY(strip.scale().pixelsPerItem > fit);
    QCOMPARE(strip.scale().itemAt(at.x()), under);
}

void TestTimelineStrip::appendedItemsKeepTheStripFitted()
{
    FakeSource source(100);
    TimelineStrip strip;
    strip.resize(1000, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    source.m_count = 10'000;
    strip.itemsAppended();
    QCOMPARE(strip.itemCount(), quint64(10'000));
    QCOMPARE(strip.scale().visibleRange().size(), quint64(10'000));
}

void TestTimelineStrip::paintsEveryZoomLevel()
{
    FakeSource source(200'000);
    source.m_special = 100'000;
    TimelineStrip strip;
    strip.setCategories(fourCategories());
    strip.setMarkers({5, 100'000, 100'001});
    strip.resize(900, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    strip.setCurrent(100'000);
    for (int i = 0; i < 24; ++i) {
        const QImage image = strip.grab().toImage();
        QVERIFY(!image.isNull());
        strip.zoomIn();
    }
    // Zoomed in, the current item is a box with its label.
    QVERIFY(strip.scale().pixelsPerItem >= 11);
}

// Far more items than pixels: a column with a few alarms shows them as a short bar over its
// ordinary colour; a column of alarms only is alarm colour from top to bottom.
void TestTimelineStrip::sharedColumnsShowTheAlarmDensity()
{
    class DensitySource : public FakeSource
    {
    public:
        using FakeSource::FakeSource;
        // The first half: one alarm in a hundred; the second half: alarms only.
        std::uint8_t category(std::uint64_t item) const override
        {
            if (item >= m_count / 2)
                return 3;
            return item % 100 == 0 ? 3 : 0;
        }
    };
    DensitySource source(400'000);
    std::vector<TimelineCategory> categories = fourCategories();
    categories[3].alarm = true;
    TimelineStrip strip;
    strip.setCategories(categories);
    strip.resize(400, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    strip.setSource(&source);
    strip.fit();
    QVERIFY(strip.scale().aggregated());
    const QImage image = strip.viewport()->grab().toImage();
    const int width = image.width();
    // Down the middle of a column of the first quarter, and of the last quarter.
    auto columnColours = [&](int x) {
        QList<QRgb> colours;
        for (int y = 0; y < image.height(); ++y)
            colours << image.pixel(x, y);
        return colours;
    };
    const QRgb red = QColor(Qt::red).rgb();
    const QRgb grey = QColor(Qt::lightGray).rgb();
    const QList<QRgb> sparse = columnColours(width / 8);
    const QList<QRgb> dense = columnColours(width * 7 / 8);
    const auto redInSparse = sparse.count(red);
    QVERIFY2(redInSparse >= 3, "one alarm in a hundred still shows");
    QVERIFY2(sparse.count(grey) > 3 * redInSparse, "the ordinary items fill most of the column");
    QVERIFY2(sparse.lastIndexOf(red) > sparse.lastIndexOf(grey), "the alarms rise from the bottom");
    QVERIFY(dense.count(red) > 3 * redInSparse);
    QCOMPARE(dense.count(grey), 0);
}

QTEST_MAIN(TestTimelineStrip)
#include "tst_timelinestrip.moc"
