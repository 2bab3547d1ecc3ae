// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineStrip's painting: the ruler (items or time), group bands, items, markers, outlines.
#include "nanscope/widgets/timelinestrip.hpp"
#include "timelinestriprows.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <vector>

namespace nanscope::widgets {
namespace {

constexpr double kLabelPixels = 11; // items at least this wide get their label drawn

// A tick step of 1, 2 or 5 times a power of ten that leaves room for its label.
std::uint64_t tickStep(double pixelsPerItem, double labelWidth)
{
    const double wanted = labelWidth / pixelsPerItem;
    std::uint64_t power = 1;
    while (true) {
        for (const std::uint64_t factor : {1u, 2u, 5u})
            if (static_cast<double>(power * factor) >= wanted)
                return power * factor;
        if (power > UINT64_MAX / 100)
            return power;
        power *= 10;
    }
}

} // namespace

void TimelineStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    const QPalette& pal = palette();
    painter.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    const Rows r = rows();
    if (itemCount() == 0) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect(), Qt::AlignCenter, m_placeholder);
        return;
    }
    paintRuler(painter, r);
    paintGroups(painter, r);
    paintItems(painter, r);
    paintMarkers(painter, r);
    if (m_hovered && m_hovered != m_current)
        paintOutline(painter, r, *m_hovered, pal.color(QPalette::Mid), 1);
    if (m_current)
        paintOutline(painter, r, *m_current, pal.color(QPalette::Text), 2);
}

QString TimelineStrip::timeLabel(double seconds, double step)
{
    // As many decimals as the step needs, no more.
    const auto decimals = [](double stepInUnit) {
        return stepInUnit >= 1 ? 0 : (stepInUnit >= 0.1 ? 1 : (stepInUnit >= 0.01 ? 2 : 3));
    };
    if (seconds <= 0)
        return QStringLiteral("0");
    if (seconds < 1 && step < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1000, 0, 'f', decimals(step * 1000));
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', decimals(step));
    if (step < 60) {
        const double minutes = std::floor(seconds / 60);
        return QStringLiteral("%1 min %2 s")
            .arg(minutes)
            .arg(seconds - minutes * 60, 0, 'f', decimals(step));
    }
    const long long minutes = std::llround(seconds / 60);
    if (minutes < 60)
        return QStringLiteral("%1 min").arg(minutes);
    return minutes % 60 == 0 ? QStringLiteral("%1 h").arg(minutes / 60)
                             : QStringLiteral("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

void TimelineStrip::paintTimeRuler(QPainter& painter, const Rows& r) const
{
    const double perItem = m_timeFrame ? m_timeFrame->secondsPerItem : secondsPerItem(m_itemTime);
    if (perItem <= 0 || m_itemTime.empty())
        return;
    const QFontMetrics metrics = fontMetrics();
    // Seconds per pixel, and a step of 1, 2 or 5 times a power of ten (or a whole number of
    // minutes or hours) that leaves room for a label.
    const double perPixel = perItem / m_scale.pixelsPerItem;
    const double wanted = perPixel * (metrics.horizontalAdvance(QStringLiteral("00.000 ms")) + 16);
    double step = 0;
    for (const double unit : {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0}) {
        for (const double factor : {1.0, 2.0, 5.0})
            if (unit * factor >= wanted && step == 0)
                step = unit * factor;
    }
    for (const double big : {60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0, 7200.0, 21600.0, 86400.0})
        if (step == 0 && big >= wanted)
            step = big;
    if (step == 0)
        step = std::ceil(wanted / 86400.0) * 86400.0;
    const double left = m_scale.scroll * perPixel;
    const double right = (m_scale.scroll + m_scale.width) * perPixel;
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const int baseline = r.ruler.top() + metrics.ascent() + 1;
    for (double t = std::floor(left / step) * step; t <= right; t += step) {
        const double x = t / perPixel - m_scale.scroll;
        if (x < 0)
            continue;
        painter.drawLine(QPointF(x, r.ruler.bottom() - 3), QPointF(x, r.ruler.bottom()));
        painter.drawText(QPointF(x + 3, baseline), timeLabel(t, step));
    }
    painter.setPen(palette().color(QPalette::Midlight));
    painter.drawLine(r.ruler.bottomLeft(), r.ruler.bottomRight());
}

void TimelineStrip::paintRuler(QPainter& painter, const Rows& r) const
{
    if (timeAxis())
        return paintTimeRuler(painter, r);
    const QFontMetrics metrics = fontMetrics();
    const QString widest = QString::number(std::max<std::uint64_t>(itemCount(), 1) - 1);
    const std::uint64_t step =
        tickStep(m_scale.pixelsPerItem, metrics.horizontalAdvance(widest) + 24.0);
    const TimelineScale::Range visible = m_scale.visibleRange();
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const int baseline = r.ruler.top() + metrics.ascent() + 1;
    for (std::uint64_t tick = visible.first / step * step; tick < visible.last; tick += step) {
        const double x = m_scale.xOf(tick) + std::max(m_scale.pixelsPerItem, 1.0) / 2;
        if (x < 0)
            continue;
        painter.drawLine(QPointF(x, r.ruler.bottom() - 3), QPointF(x, r.ruler.bottom()));
        painter.drawText(QPointF(x + 3, baseline), QString::number(tick));
    }
    painter.setPen(palette().color(QPalette::Midlight));
    painter.drawLine(r.ruler.bottomLeft(), r.ruler.bottomRight());
}

void TimelineStrip::paintGroups(QPainter& painter, const Rows& r) const
{
    if (r.groups.isEmpty() || !m_source)
        return;
    const TimelineScale::Range visible = m_scale.visibleRange();
    const QFontMetrics metrics = fontMetrics();
    const QColor shades[2] = {QColor(0xe8, 0xea, 0xed), QColor(0xd2, 0xe3, 0xfc)};
    auto run = std::upper_bound(m_groupRuns.begin(), m_groupRuns.end(), visible.first,
                                [](std::uint64_t i, const GroupRun& g) { return i < g.first; });
    if (run != m_groupRuns.begin())
        --run;
    for (; run != m_groupRuns.end() && run->first < visible.last; ++run) {
        const std::uint64_t end =
            std::next(run) == m_groupRuns.end() ? itemCount() : std::next(run)->first;
        if (run->group == 0)
            continue;
        const qreal x0 = std::max(0.0, m_scale.xOf(std::max(run->first, visible.first)));
        const qreal x1 = std::min<qreal>(m_scale.width, m_scale.xOf(std::min(end, visible.last)));
        if (x1 - x0 < 1)
            continue;
        const QRectF band(x0, r.groups.top() + 1, x1 - x0 - 1, r.groups.height() - 2);
        painter.fillRect(band, shades[run->group % 2]);
        if (band.width() > 24) {
            painter.setPen(QColor(0x20, 0x21, 0x24)); // the bands are light in every theme
            painter.drawText(band.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(m_source->groupName(run->group), Qt::ElideRight,
                                                static_cast<int>(band.width()) - 6));
        }
    }
}

void TimelineStrip::paintItems(QPainter& painter, const Rows& r) const
{
    const std::size_t categoryCount = kMaxCategories;
    auto colourOf = [&](std::size_t category) {
        return categoryColour(category);
    };
    const qreal top = r.items.top() + 2;
    const qreal height = r.items.height() - 4;
    if (m_scale.aggregated()) {
        // One pixel column stands for many items: its ordinary items' blended colour fills it,
        // and a bar from the bottom, as tall as the share of items in alarm, shows the worst
        // alarm (at least a few pixels, so one NaN in ten thousand still shows). A run of
        // alarms stays a wall; scattered ones read as a density, not a solid bar.
        painter.setPen(Qt::NoPen);
        constexpr qreal kMinAlarm = 3;
        for (int column = 0; column < m_scale.width; ++column) {
            const TimelineScale::Range range = m_scale.itemsInColumn(column);
            if (range.empty())
                continue;
            const ColumnSummary summary = columnSummary(range);
            if (summary.base.isValid())
                painter.fillRect(QRectF(column, top, 1, height), summary.base);
            if (summary.alarm.isValid()) {
                const qreal alarm = std::max(kMinAlarm, height * summary.alarmShare);
                painter.fillRect(QRectF(column, top + height - alarm, 1, alarm), summary.alarm);
            }
        }
        return;
    }
    const TimelineScale::Range visible = m_scale.visibleRange();
    const qreal gap = m_scale.pixelsPerItem >= 4 ? 1 : 0;
    std::vector<std::vector<QRectF>> rects(categoryCount);
    for (std::uint64_t i = visible.first; i < visible.last; ++i) {
        const std::size_t category = std::min<std::size_t>(m_itemCategory[i], categoryCount - 1);
        rects[category].emplace_back(m_scale.xOf(i), top, m_scale.pixelsPerItem - gap, height);
    }
    painter.setPen(Qt::NoPen);
    for (std::size_t c = 0; c < categoryCount; ++c) {
        painter.setBrush(colourOf(c));
        painter.drawRects(rects[c].data(), static_cast<int>(rects[c].size()));
    }
    if (m_scale.pixelsPerItem < kLabelPixels || !m_source)
        return;
    painter.setPen(QColor(0x20, 0x21, 0x24)); // the item colours are light in every theme
    const QFontMetrics metrics = fontMetrics();
    for (std::uint64_t i = visible.first; i < visible.last; ++i) {
        const QRectF box(m_scale.xOf(i), top, m_scale.pixelsPerItem - gap, height);
        // The whole label if it fits, else its first letter, as Debugger V2's boxes show.
        QString text = m_source->label(i);
        if (metrics.horizontalAdvance(text) > box.width() - 4)
            text.truncate(1);
        painter.drawText(box, Qt::AlignCenter | Qt::TextSingleLine, text);
    }
}

void TimelineStrip::paintMarkers(QPainter& painter, const Rows& r) const
{
    const TimelineScale::Range visible = m_scale.visibleRange();
    auto it = std::lower_bound(m_markers.begin(), m_markers.end(), visible.first);
    painter.setPen(Qt::NoPen);
    painter.setBrush(m_markerColour);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const qreal half = std::clamp(m_scale.pixelsPerItem / 2, 3.0, 5.0);
    int lastColumn = -1;
    for (; it != m_markers.end() && *it < visible.last; ++it) {
        const qreal x = m_scale.xOf(*it) + std::max(m_scale.pixelsPerItem, 1.0) / 2;
        const int column = toPixels(x);
        if (column == lastColumn)
            continue; // one marker per pixel column is all anyone can see
        lastColumn = column;
        const QPointF points[3] = {{x - half, qreal(r.markers.top() + 1)},
                                   {x + half, qreal(r.markers.top() + 1)},
                                   {x, qreal(r.markers.bottom())}};
        painter.drawPolygon(points, 3);
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineStrip::paintOutline(QPainter& painter, const Rows& r, std::uint64_t item,
                                 const QColor& colour, qreal penWidth) const
{
    // Narrow items get a box of a few pixels anyway, so that the focus is always visible.
    const qreal width = std::max(m_scale.pixelsPerItem, 5.0);
    const qreal centre = m_scale.xOf(item) + std::max(m_scale.pixelsPerItem, 1.0) / 2;
    const QRectF box(centre - width / 2, r.items.top() + penWidth / 2, width,
                     r.items.height() - penWidth);
    painter.setPen(QPen(colour, penWidth));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(box);
}

} // namespace nanscope::widgets
