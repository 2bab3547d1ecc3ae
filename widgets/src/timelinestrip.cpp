// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineStrip's state, item cache, zoom and scroll (painting: timelinestrippaint.cpp; input:
// timelinestripinput.cpp).
#include "nanscope/widgets/timelinestrip.hpp"

#include "timelinestriprows.hpp"

#include <QScrollBar>
#include <algorithm>
#include <cmath>

namespace nanscope::widgets {
namespace {

constexpr std::uint64_t kBlock = 64;
constexpr int kMarkerRowHeight = 9;
constexpr int kMinItemsHeight = 22;
constexpr int kItemsHeight = 34;
constexpr double kZoomStep = 1.5;

} // namespace

TimelineStrip::TimelineStrip(QWidget* parent) : QAbstractScrollArea(parent)
{
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_scale.width = viewport()->width();
}

TimelineStrip::~TimelineStrip() = default;

void TimelineStrip::setCategories(std::vector<TimelineCategory> categories)
{
    m_categories = std::move(categories);
    viewport()->update();
}

void TimelineStrip::setMarkerColour(const QColor& colour)
{
    m_markerColour = colour;
    viewport()->update();
}

void TimelineStrip::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    viewport()->update();
}

void TimelineStrip::setSource(const TimelineSource* source)
{
    m_source = source;
    m_itemCategory.clear();
    m_itemTime.clear();
    m_blockCategory.clear();
    m_blockCounts.clear();
    m_hovered.reset();
    if (m_current && (!source || *m_current >= source->itemCount()))
        m_current.reset();
    readCategories(0);
    m_scale.count = m_itemCategory.size();
    updatePositions();
    m_fitted = true;
    fit();
}

void TimelineStrip::itemsAppended()
{
    const std::uint64_t before = m_itemCategory.size();
    readCategories(before);
    m_scale.count = m_itemCategory.size();
    updatePositions();
    if (m_fitted) {
        m_scale.fit();
    } else {
        // Keep the zoom unless the longer strip no longer fits the scroll bar's range.
        m_scale.pixelsPerItem = std::min(m_scale.pixelsPerItem, m_scale.maxPixelsPerItem());
        m_scale.clampScroll();
    }
    syncScrollBar();
    viewport()->update();
}

void TimelineStrip::readCategories(std::uint64_t from)
{
    const std::uint64_t count = m_source ? m_source->itemCount() : 0;
    if (count < from)
        return;
    m_itemCategory.resize(count);
    m_itemTime.resize(count);
    const bool hadGroups = m_hasGroups;
    if (from == 0) {
        m_groupRuns.clear();
        m_hasGroups = false;
        m_timeSpan.reset();
    }
    for (std::uint64_t i = from; i < count; ++i) {
        m_itemCategory[i] = std::min<std::uint8_t>(m_source->category(i), kMaxCategories - 1);
        m_itemTime[i] = m_source->time(i);
        if (std::isfinite(m_itemTime[i])) {
            if (!m_timeSpan)
                m_timeSpan = TimeSpan{m_itemTime[i], m_itemTime[i]};
            m_timeSpan->latest = std::max(m_timeSpan->latest, m_itemTime[i]);
        }
        const std::uint32_t group = m_source->group(i);
        if (m_groupRuns.empty() || m_groupRuns.back().group != group)
            m_groupRuns.push_back({i, group});
        m_hasGroups = m_hasGroups || group != 0;
    }
    if (m_hasGroups != hadGroups)
        updateGeometry(); // the band's row appears
    // Blocks from the first one the new items touch.
    const std::uint64_t blocks = (count + kBlock - 1) / kBlock;
    m_blockCategory.resize(blocks);
    m_blockCounts.resize(blocks);
    for (std::uint64_t b = from / kBlock; b < blocks; ++b)
        summariseBlock(b);
}

void TimelineStrip::summariseBlock(std::uint64_t block)
{
    const std::uint64_t count = m_itemCategory.size();
    std::uint8_t highest = 0;
    std::array<std::uint8_t, kMaxCategories> counts{};
    for (std::uint64_t i = block * kBlock; i < std::min(count, (block + 1) * kBlock); ++i) {
        highest = std::max(highest, m_itemCategory[i]);
        ++counts[m_itemCategory[i]];
    }
    m_blockCategory[block] = highest;
    m_blockCounts[block] = counts;
}

void TimelineStrip::categoriesChanged(const std::vector<std::uint64_t>& items)
{
    std::uint64_t lastBlock = UINT64_MAX;
    for (const std::uint64_t i : items) { // sorted: each block is summarised once
        if (!m_source || i >= m_itemCategory.size())
            continue;
        m_itemCategory[i] = std::min<std::uint8_t>(m_source->category(i), kMaxCategories - 1);
        if (i / kBlock != lastBlock && lastBlock != UINT64_MAX)
            summariseBlock(lastBlock);
        lastBlock = i / kBlock;
    }
    if (lastBlock != UINT64_MAX)
        summariseBlock(lastBlock);
    viewport()->update();
}

std::uint8_t TimelineStrip::highestCategory(TimelineScale::Range range) const
{
    std::uint8_t highest = 0;
    std::uint64_t i = range.first;
    for (; i < range.last && i % kBlock != 0; ++i)
        highest = std::max(highest, m_itemCategory[i]);
    for (; i + kBlock <= range.last; i += kBlock)
        highest = std::max(highest, m_blockCategory[i / kBlock]);
    for (; i < range.last; ++i)
        highest = std::max(highest, m_itemCategory[i]);
    return highest;
}

QColor TimelineStrip::categoryColour(std::size_t category) const
{
    return category < m_categories.size() ? m_categories[category].colour
                                          : palette().color(QPalette::Mid);
}

TimelineStrip::ColumnSummary TimelineStrip::columnSummary(TimelineScale::Range range) const
{
    std::array<std::uint64_t, kMaxCategories> counts{};
    std::uint64_t i = range.first;
    for (; i < range.last && i % kBlock != 0; ++i)
        ++counts[m_itemCategory[i]];
    for (; i + kBlock <= range.last; i += kBlock)
        for (std::size_t c = 0; c < kMaxCategories; ++c)
            counts[c] += m_blockCounts[i / kBlock][c];
    for (; i < range.last; ++i)
        ++counts[m_itemCategory[i]];
    ColumnSummary summary;
    std::uint64_t alarms = 0, ordinary = 0;
    double red = 0, green = 0, blue = 0;
    for (std::size_t c = 0; c < kMaxCategories; ++c) {
        if (counts[c] == 0)
            continue;
        const QColor colour = categoryColour(c);
        if (c < m_categories.size() && m_categories[c].alarm) {
            alarms += counts[c];
            summary.alarm = colour; // categories are ordered: the last is the worst
            continue;
        }
        ordinary += counts[c];
        red += colour.redF() * static_cast<double>(counts[c]);
        green += colour.greenF() * static_cast<double>(counts[c]);
        blue += colour.blueF() * static_cast<double>(counts[c]);
    }
    if (ordinary > 0) {
        const auto n = static_cast<double>(ordinary);
        summary.base = QColor::fromRgbF(static_cast<float>(red / n), static_cast<float>(green / n),
                                        static_cast<float>(blue / n));
    }
    summary.alarmShare =
        range.size() ? static_cast<double>(alarms) / static_cast<double>(range.size()) : 0;
    return summary;
}

void TimelineStrip::setMarkers(std::vector<std::uint64_t> items)
{
    m_markers = std::move(items);
    viewport()->update();
}

void TimelineStrip::setCurrent(std::optional<std::uint64_t> item)
{
    if (item && *item >= itemCount())
        item.reset();
    // Scroll only when the item changes: the same item again (a new snapshot while following)
    // leaves the user's scrolling alone.
    const bool moved = item != m_current;
    m_current = item;
    if (m_current && moved) {
        const TimelineScale before = m_scale;
        m_scale.ensureVisible(*m_current);
        syncScrollBar();
        if (m_scale.scroll != before.scroll)
            Q_EMIT viewChanged();
    }
    viewport()->update();
}

std::optional<std::uint64_t> TimelineStrip::itemAt(QPoint viewportPoint) const
{
    if (viewportPoint.y() < rows().markers.top())
        return std::nullopt;
    if (m_scale.aggregated()) {
        // The column's items: the one to pick is the most remarkable, as drawn.
        const TimelineScale::Range range = m_scale.itemsInColumn(viewportPoint.x());
        if (range.empty())
            return m_scale.itemAt(viewportPoint.x());
        const std::uint8_t shown = highestCategory(range);
        for (std::uint64_t i = range.first; i < range.last; ++i)
            if (m_itemCategory[i] == shown)
                return i;
    }
    return m_scale.itemAt(viewportPoint.x());
}

QPoint TimelineStrip::pointOf(std::uint64_t item) const
{
    // Aggregated, an item belongs to the column its left edge is in.
    const double x = m_scale.xOf(item) + (m_scale.aggregated() ? 0 : m_scale.pixelsPerItem / 2);
    return {toPixels(std::floor(x)), rows().items.center().y()};
}

QSize TimelineStrip::sizeHint() const
{
    const int height =
        fontMetrics().height() + 4 + groupRowHeight() + kMarkerRowHeight + itemsHeight();
    return {600, height + horizontalScrollBar()->sizeHint().height()};
}

QSize TimelineStrip::minimumSizeHint() const
{
    const int height =
        fontMetrics().height() + 4 + groupRowHeight() + kMarkerRowHeight + kMinItemsHeight;
    return {120, height + horizontalScrollBar()->sizeHint().height()};
}

void TimelineStrip::zoomIn()
{
    const double x = m_current ? m_scale.xOf(*m_current) : m_scale.width / 2.0;
    zoomBy(std::clamp(x, 0.0, static_cast<double>(m_scale.width)), kZoomStep);
}

void TimelineStrip::zoomOut()
{
    const double x = m_current ? m_scale.xOf(*m_current) : m_scale.width / 2.0;
    zoomBy(std::clamp(x, 0.0, static_cast<double>(m_scale.width)), 1 / kZoomStep);
}

void TimelineStrip::fit()
{
    m_fitted = true;
    m_scale.fit();
    syncScrollBar();
    viewport()->update();
    Q_EMIT scaleChanged();
    Q_EMIT viewChanged();
}

void TimelineStrip::zoomBy(double x, double factor)
{
    m_scale.zoomAround(x, factor);
    m_fitted = m_scale.pixelsPerItem <= m_scale.fitPixelsPerItem() && m_scale.scroll == 0;
    syncScrollBar();
    viewport()->update();
    Q_EMIT scaleChanged();
    Q_EMIT viewChanged();
}

void TimelineStrip::setView(double pixelsPerItem, double scroll)
{
    m_scale.pixelsPerItem =
        std::clamp(pixelsPerItem, m_scale.minPixelsPerItem(), m_scale.maxPixelsPerItem());
    m_scale.setScroll(scroll);
    m_fitted = m_scale.pixelsPerItem <= m_scale.fitPixelsPerItem() && m_scale.scroll == 0;
    syncScrollBar();
    viewport()->update();
}

void TimelineStrip::userScrolled()
{
    m_fitted = false;
    syncScrollBar();
    viewport()->update();
    Q_EMIT viewChanged();
}

void TimelineStrip::syncScrollBar()
{
    m_syncing = true;
    QScrollBar* bar = horizontalScrollBar();
    const double maximum = std::max(0.0, m_scale.contentWidth() - m_scale.width);
    bar->setRange(0, toPixels(std::ceil(maximum)));
    bar->setPageStep(std::max(1, m_scale.width));
    bar->setSingleStep(std::max(20, toPixels(m_scale.pixelsPerItem)));
    bar->setValue(toPixels(std::round(m_scale.scroll)));
    m_syncing = false;
}

void TimelineStrip::scrollContentsBy(int, int)
{
    if (!m_syncing) {
        m_scale.setScroll(horizontalScrollBar()->value());
        m_fitted = false;
        Q_EMIT viewChanged();
    }
    viewport()->update();
}

void TimelineStrip::activate(std::uint64_t item)
{
    if (item < itemCount())
        Q_EMIT itemActivated(item);
}

void TimelineStrip::nextMarker()
{
    const auto it = m_current ? std::upper_bound(m_markers.begin(), m_markers.end(), *m_current)
                              : m_markers.begin();
    if (it != m_markers.end())
        activate(*it);
}

void TimelineStrip::previousMarker()
{
    const auto it = m_current ? std::lower_bound(m_markers.begin(), m_markers.end(), *m_current)
                              : m_markers.end();
    if (it != m_markers.begin())
        activate(*std::prev(it));
}

TimelineStrip::Rows TimelineStrip::rows() const
{
    const QRect all = viewport()->rect();
    Rows r;
    r.ruler = QRect(all.left(), all.top(), all.width(), fontMetrics().height() + 4);
    r.groups = QRect(all.left(), r.ruler.bottom() + 1, all.width(), groupRowHeight());
    r.markers =
        QRect(all.left(), r.ruler.bottom() + 1 + groupRowHeight(), all.width(), kMarkerRowHeight);
    r.items = QRect(all.left(), r.markers.bottom() + 1, all.width(),
                    std::max(kMinItemsHeight, all.bottom() - r.markers.bottom() - 2));
    return r;
}

void TimelineStrip::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    m_scale.width = viewport()->width();
    if (m_fitted)
        m_scale.fit();
    else
        m_scale.pixelsPerItem = std::max(m_scale.pixelsPerItem, m_scale.minPixelsPerItem());
    m_scale.clampScroll();
    syncScrollBar();
}

void TimelineStrip::setTimeAxis(bool on)
{
    if (on == timeAxis())
        return;
    m_scale.positions =
        on ? std::make_shared<const std::vector<double>>(std::vector<double>()) : nullptr;
    reposition();
    if (m_current)
        m_scale.centreOn(*m_current);
    syncScrollBar();
    viewport()->update();
    Q_EMIT viewChanged();
}

void TimelineStrip::setTimeFrame(std::optional<TimeFrame> frame)
{
    if (frame && !(frame->secondsPerItem > 0 && frame->length > 0))
        frame.reset();
    if (frame == m_timeFrame)
        return;
    m_timeFrame = frame;
    if (!timeAxis())
        return;
    reposition();
    syncScrollBar();
    viewport()->update();
}

// The items' positions changed: fitted again, or the zoom kept within what they allow.
void TimelineStrip::reposition()
{
    updatePositions();
    if (m_fitted)
        m_scale.fit();
    m_scale.pixelsPerItem =
        std::clamp(m_scale.pixelsPerItem, m_scale.minPixelsPerItem(), m_scale.maxPixelsPerItem());
    m_scale.clampScroll();
}

std::optional<TimelineStrip::TimeSpan> TimelineStrip::timeSpan() const
{
    return m_timeSpan;
}

void TimelineStrip::updatePositions()
{
    if (!m_scale.positions) {
        m_scale.length = 0;
        return;
    }
    if (m_timeFrame) {
        m_scale.positions = std::make_shared<const std::vector<double>>(
            timePositions(m_itemTime, m_timeFrame->start, m_timeFrame->secondsPerItem));
        m_scale.length = m_timeFrame->length;
        return;
    }
    m_scale.positions = std::make_shared<const std::vector<double>>(timePositions(m_itemTime));
    m_scale.length = 0;
}

void TimelineStrip::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    updateGeometry();
}

int TimelineStrip::itemsHeight() const
{
    return m_compact ? kMinItemsHeight : kItemsHeight;
}

int TimelineStrip::groupRowHeight() const
{
    return m_hasGroups ? fontMetrics().height() + 2 : 0;
}

std::uint32_t TimelineStrip::groupOf(std::uint64_t item) const
{
    const auto after =
        std::upper_bound(m_groupRuns.begin(), m_groupRuns.end(), item,
                         [](std::uint64_t i, const GroupRun& run) { return i < run.first; });
    return after == m_groupRuns.begin() ? 0 : std::prev(after)->group;
}

} // namespace nanscope::widgets
