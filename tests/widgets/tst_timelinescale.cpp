// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline strip's coordinate maths, without painting: pixel <-> item at several zoom
// levels, which items share a pixel column, zooming around a point, scrolling to an item.
#include "nanscope/widgets/timelinescale.hpp"
#include "nanscope/widgets/timelinestrip.hpp"

#include <QTest>
#include <cmath>

using nanscope::widgets::TimelineScale;

class TestTimelineScale : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitShowsEveryItem();
    void fewItemsStayReadable();
    void pixelToItemAndBack_data();
    void pixelToItemAndBack();
    void columnsPartitionTheItems_data();
    void columnsPartitionTheItems();
    void zoomKeepsThePointUnderTheMouse();
    void zoomIsClamped();
    void visibleRangeFollowsScroll();
    void ensureVisibleScrollsALittleOrCentres();
    void emptyStrip();
    void timeAxisPlacesItemsByTime();
    void aSharedTimeAxisHasOneLength();
    void timeLabelsInReadableUnits();
};

namespace {

TimelineScale fitted(std::uint64_t count, int width)
{
    TimelineScale scale;
    scale.count = count;
    scale.width = width;
    scale.fit();
    return scale;
}

} // namespace

void TestTimelineScale::fitShowsEveryItem()
{
    const TimelineScale scale = fitted(100'000, 1000);
    QCOMPARE(scale.pixelsPerItem, 0.01);
    QVERIFY(scale.aggregated());
    QCOMPARE(scale.scroll, 0.0);
    QCOMPARE(scale.visibleRange(), (TimelineScale::Range{0, 100'000}));
    QCOMPARE(scale.itemAt(0), std::optional<std::uint64_t>(0));
    QCOMPARE(scale.itemAt(999.99), std::optional<std::uint64_t>(99'999));
    QCOMPARE(scale.itemAt(1000), std::nullopt);
    QCOMPARE(scale.itemAt(-1), std::nullopt);
}

void TestTimelineScale::fewItemsStayReadable()
{
    const TimelineScale scale = fitted(10, 1000);
    QCOMPARE(scale.pixelsPerItem, TimelineScale::kMaxFitPixels);
    QVERIFY(!scale.aggregated());
    const double width = 10 * TimelineScale::kMaxFitPixels;
    QCOMPARE(scale.contentWidth(), width);
    QCOMPARE(scale.itemAt(width - 1), std::optional<std::uint64_t>(9));
    QCOMPARE(scale.itemAt(width + 1), std::nullopt);
}

void TestTimelineScale::pixelToItemAndBack_data()
{
    QTest::addColumn<double>("pixelsPerItem");
    QTest::addColumn<double>("scroll");
    QTest::addColumn<quint64>("item");
    QTest::newRow("zoomed in") << 20.0 << 0.0 << quint64(3);
    QTest::newRow("zoomed in, scrolled") << 20.0 << 1000.0 << quint64(70);
    QTest::newRow("one pixel") << 1.0 << 500.0 << quint64(900);
    QTest::newRow("aggregated") << 0.25 << 100.0 << quint64(2000);
    QTest::newRow("fractional") << 2.5 << 33.3 << quint64(51);
}

void TestTimelineScale::pixelToItemAndBack()
{
    QFETCH(double, pixelsPerItem);
    QFETCH(double, scroll);
    QFETCH(quint64, item);
    TimelineScale scale;
    scale.count = 10'000;
    scale.width = 800;
    scale.pixelsPerItem = pixelsPerItem;
    scale.scroll = scroll;
    const double left = scale.xOf(item);
    QCOMPARE(left, item * pixelsPerItem - scroll);
    // The middle of an item (or, when aggregated, its left edge) maps back to it.
    const double probe = pixelsPerItem >= 1 ? left + pixelsPerItem / 2 : left + 1e-9;
    QCOMPARE(scale.itemAt(probe), std::optional<std::uint64_t>(item));
}

void TestTimelineScale::columnsPartitionTheItems_data()
{
    QTest::addColumn<quint64>("count");
    QTest::addColumn<int>("width");
    QTest::newRow("100k in 1000 px") << quint64(100'000) << 1000;
    QTest::newRow("1001 in 1000 px") << quint64(1001) << 1000;
    QTest::newRow("3 million in 777 px") << quint64(3'000'000) << 777;
    QTest::newRow("999 in 1000 px") << quint64(999) << 1000;
}

void TestTimelineScale::columnsPartitionTheItems()
{
    QFETCH(quint64, count);
    QFETCH(int, width);
    const TimelineScale scale = fitted(count, width);
    // Every item in exactly one column, in order, with no gap.
    std::uint64_t next = 0;
    std::uint64_t widest = 0;
    for (int column = 0; column < width; ++column) {
        const TimelineScale::Range range = scale.itemsInColumn(column);
        if (range.empty())
            continue;
        QCOMPARE(range.first, next);
        next = range.last;
        widest = std::max(widest, range.size());
    }
    QCOMPARE(next, count);
    // Columns hold about count / width items each.
    const double perColumn = static_cast<double>(count) / width;
    QVERIFY(widest <= static_cast<std::uint64_t>(std::ceil(perColumn)) + 1);
    // The items of a column start in it.
    const TimelineScale::Range middle = scale.itemsInColumn(width / 2);
    QVERIFY(!middle.empty());
    QVERIFY(scale.xOf(middle.first) >= width / 2);
    QVERIFY(scale.xOf(middle.last - 1) < width / 2 + 1);
    QVERIFY(scale.xOf(middle.last) >= width / 2 + 1);
}

void TestTimelineScale::zoomKeepsThePointUnderTheMouse()
{
    TimelineScale scale = fitted(100'000, 1000);
    const std::optional<std::uint64_t> before = scale.itemAt(300);
    scale.zoomAround(300, 50);
    QCOMPARE(scale.pixelsPerItem, 0.5);
    QCOMPARE(scale.itemAt(300), before);
    scale.zoomAround(300, 40);
    QCOMPARE(scale.pixelsPerItem, 20.0);
    QCOMPARE(scale.itemAt(300), before);
    // Zooming out past "fit" stops at fit, scrolled back to the start.
    scale.zoomAround(700, 1e-9);
    QCOMPARE(scale.pixelsPerItem, scale.fitPixelsPerItem());
    QCOMPARE(scale.scroll, 0.0);
}

void TestTimelineScale::zoomIsClamped()
{
    TimelineScale scale = fitted(100, 1000);
    scale.zoomAround(0, 1000);
    QCOMPARE(scale.pixelsPerItem, TimelineScale::kMaxPixels);
    // A huge strip: the content stays within what a scroll bar can count.
    TimelineScale huge = fitted(500'000'000, 1000);
    huge.zoomAround(0, 1e12);
    QVERIFY(huge.contentWidth() <= TimelineScale::kMaxContentPixels);
    QVERIFY(huge.pixelsPerItem > 1);
}

void TestTimelineScale::visibleRangeFollowsScroll()
{
    TimelineScale scale = fitted(10'000, 1000);
    scale.pixelsPerItem = 10;
    scale.setScroll(2005);
    QCOMPARE(scale.visibleRange(), (TimelineScale::Range{200, 301}));
    scale.setScroll(1e12); // clamped to the end
    QCOMPARE(scale.scroll, 100'000.0 - 1000);
    QCOMPARE(scale.visibleRange(), (TimelineScale::Range{9900, 10'000}));
    scale.setScroll(-5);
    QCOMPARE(scale.scroll, 0.0);
}

void TestTimelineScale::ensureVisibleScrollsALittleOrCentres()
{
    TimelineScale scale = fitted(10'000, 1000);
    scale.pixelsPerItem = 10;
    scale.setScroll(0);
    scale.ensureVisible(50); // already visible
    QCOMPARE(scale.scroll, 0.0);
    scale.ensureVisible(100); // just past the right edge: a small step
    QVERIFY(scale.xOf(100) >= 0 && scale.xOf(100) + 10 <= 1000);
    QVERIFY(scale.scroll < 200);
    scale.ensureVisible(5000); // far away: centred
    QCOMPARE(scale.xOf(5000) + 5, 500.0);
}

void TestTimelineScale::emptyStrip()
{
    const TimelineScale scale = fitted(0, 1000);
    QVERIFY(scale.visibleRange().empty());
    QCOMPARE(scale.itemAt(10), std::nullopt);
    QVERIFY(scale.itemsInColumn(3).empty());
}

void TestTimelineScale::timeAxisPlacesItemsByTime()
{
    // Five items: a burst of three, a pause, one more; the fourth's clock stepped back.
    const std::vector<double> times{100.0, 100.1, 100.2, 100.15, 104.0};
    const std::vector<double> positions = nanscope::widgets::timePositions(times);
    QCOMPARE(positions.size(), times.size());
    QCOMPARE(positions.front(), 0.0);
    QCOMPARE(positions.back(), 4.0); // the strip keeps its length: count - 1 item widths
    for (std::size_t i = 1; i < positions.size(); ++i)
        QVERIFY(positions[i] >= positions[i - 1]); // never backwards
    QCOMPARE(positions[3], positions[2]);
    QVERIFY(qFuzzyCompare(nanscope::widgets::secondsPerItem(times), 1.0));
    // The pause shows: the gap before the last item is most of the strip.
    QVERIFY(positions[4] - positions[2] > 3.5);

    TimelineScale scale = fitted(5, 500); // 48 px per item at most
    scale.positions = std::make_shared<const std::vector<double>>(positions);
    for (std::uint64_t i = 0; i < 5; ++i)
        QCOMPARE(scale.xOf(i), positions[i] * scale.pixelsPerItem);
    QCOMPARE(scale.itemAt(scale.xOf(4) + 1), std::optional<std::uint64_t>(4));
    QCOMPARE(scale.itemAt(scale.xOf(2) + scale.pixelsPerItem + 2), std::nullopt); // in the pause
    QCOMPARE(scale.visibleRange(), (TimelineScale::Range{0, 5}));
    // Zoomed so that the strip scrolls: the right end shows only the last item.
    scale.pixelsPerItem = 400;
    scale.setScroll(scale.contentWidth());
    QCOMPARE(scale.visibleRange(), (TimelineScale::Range{4, 5}));
    // Columns still partition the items.
    scale.fit();
    std::uint64_t counted = 0;
    for (int column = 0; column < scale.width; ++column)
        counted += scale.itemsInColumn(column).size();
    QCOMPARE(counted, std::uint64_t(5));
    // No span (equal or unreadable times): side by side.
    QCOMPARE(nanscope::widgets::timePositions({1.0, 1.0, 1.0}), (std::vector<double>{0, 1, 2}));
    QCOMPARE(nanscope::widgets::timePositions({std::nan(""), 1.0}), (std::vector<double>{0, 1}));
}

// Two strips of one axis (two hosts): their items sit by time from the frame's start, and both
// have the frame's length, so that one zoom and scroll show the same times in each.
void TestTimelineScale::aSharedTimeAxisHasOneLength()
{
    // Host a ran at 10 s and 12 s, host b at 11, 11.5, 12.5, 14 s: the frame spans 10 to 14 s
    // over the busier host's 4 items, 4/3 s per item width.
    const double start = 10;
    const double perItem = 4.0 / 3;
    const auto a = nanscope::widgets::timePositions({10, 12}, start, perItem);
    const auto b = nanscope::widgets::timePositions({11, 11.5, 12.5, 14}, start, perItem);
    QCOMPARE(a, (std::vector<double>{0, 1.5}));
    QCOMPARE(b.back(), 3.0);
    QCOMPARE(b.front(), 0.75);
    TimelineScale first = fitted(2, 400);
    TimelineScale second = fitted(4, 400);
    for (auto [scale, positions] : {std::pair{&first, &a}, std::pair{&second, &b}}) {
        scale->positions = std::make_shared<const std::vector<double>>(*positions);
        scale->length = 4;
        scale->fit();
        QCOMPARE(scale->contentWidth(), 4 * scale->pixelsPerItem);
    }
    QCOMPARE(first.pixelsPerItem, second.pixelsPerItem);
    // 12 s: host a's second item and the middle of host b's second and third.
    QCOMPARE(first.xOf(1), (second.xOf(1) + second.xOf(2)) / 2);
    // Zoomed and scrolled alike, they still agree.
    for (TimelineScale* scale : {&first, &second}) {
        scale->zoomAround(200, 1.5);
        scale->setScroll(40);
    }
    QCOMPARE(first.pixelsPerItem, second.pixelsPerItem);
    QCOMPARE(first.xOf(1), (second.xOf(1) + second.xOf(2)) / 2);
}

void TestTimelineScale::timeLabelsInReadableUnits()
{
    using nanscope::widgets::TimelineStrip;
    QCOMPARE(TimelineStrip::timeLabel(0, 0.001), QStringLiteral("0"));
    QCOMPARE(TimelineStrip::timeLabel(0.25, 0.05), QStringLiteral("250 ms"));
    QCOMPARE(TimelineStrip::timeLabel(0.0005, 0.0001), QStringLiteral("0.5 ms"));
    QCOMPARE(TimelineStrip::timeLabel(1.5, 0.5), QStringLiteral("1.5 s"));
    QCOMPARE(TimelineStrip::timeLabel(20, 10), QStringLiteral("20 s"));
    QCOMPARE(TimelineStrip::timeLabel(90, 10), QStringLiteral("1 min 30 s"));
    QCOMPARE(TimelineStrip::timeLabel(120, 60), QStringLiteral("2 min"));
    QCOMPARE(TimelineStrip::timeLabel(5400, 1800), QStringLiteral("1 h 30 min"));
    QCOMPARE(TimelineStrip::timeLabel(7200, 3600), QStringLiteral("2 h"));
}

QTEST_APPLESS_MAIN(TestTimelineScale)
#include "tst_timelinescale.moc"
