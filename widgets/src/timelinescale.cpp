// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/timelinescale.hpp"

#include <algorithm>
#include <cmath>

namespace nanscope::widgets {
namespace {

std::uint64_t clampIndex(double value, std::uint64_t count)
{
    if (!(value > 0))
        return 0;
    if (value >= static_cast<double>(count))
        return count;
    return static_cast<std::uint64_t>(value);
}

} // namespace

double TimelineScale::fitPixelsPerItem() const
{
    if (extent() <= 0 || width <= 0)
        return 1;
    return std::min(kMaxFitPixels, static_cast<double>(width) / extent());
}

double TimelineScale::minPixelsPerItem() const
{
    return fitPixelsPerItem();
}

double TimelineScale::maxPixelsPerItem() const
{
    if (extent() <= 0)
        return kMaxPixels;
    const double byContent = kMaxContentPixels / extent();
    return std::max(minPixelsPerItem(), std::min(kMaxPixels, byContent));
}

double TimelineScale::xOf(std::uint64_t item) const
{
    return position(item) * pixelsPerItem - scroll;
}

std::optional<std::uint64_t> TimelineScale::itemAt(double x) const
{
    const double at = (x + scroll) / pixelsPerItem;
    if (!(at >= 0 && at < static_cast<double>(count))) // NaN too
        return std::nullopt;
    if (!positions)
        return static_cast<std::uint64_t>(at);
    // The last item starting at or before the point, if its box reaches it.
    const auto it = std::upper_bound(positions->begin(), positions->begin() + count, at);
    if (it == positions->begin() || at >= *std::prev(it) + 1)
        return std::nullopt;
    return static_cast<std::uint64_t>(std::prev(it) - positions->begin());
}

TimelineScale::Range TimelineScale::visibleRange() const
{
    if (positions) {
        // Boxes one item wide: those starting after scroll - 1 and before the right edge.
        const auto begin = positions->begin();
        const auto end = begin + static_cast<std::ptrdiff_t>(count);
        const auto first = std::upper_bound(begin, end, scroll / pixelsPerItem - 1) - begin;
        const auto last = std::lower_bound(begin, end, (scroll + width) / pixelsPerItem) - begin;
        return {static_cast<std::uint64_t>(first),
                static_cast<std::uint64_t>(std::max(first, last))};
    }
    const std::uint64_t first = clampIndex(std::floor(scroll / pixelsPerItem), count);
    const std::uint64_t last = clampIndex(std::ceil((scroll + width) / pixelsPerItem), count);
    return {first, std::max(first, last)};
}

TimelineScale::Range TimelineScale::itemsInColumn(int column) const
{
    // Item i starts at content x = position(i) * ppi; it belongs to column c when
    // c <= position(i)*ppi - scroll < c+1.
    const double from = (column + scroll) / pixelsPerItem;
    const double to = (column + 1 + scroll) / pixelsPerItem;
    if (positions) {
        const auto begin = positions->begin();
        const auto end = begin + static_cast<std::ptrdiff_t>(count);
        const auto first = std::lower_bound(begin, end, from) - begin;
        const auto last = std::lower_bound(begin, end, to) - begin;
        return {static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(last)};
    }
    const std::uint64_t first = clampIndex(std::ceil(from), count);
    const std::uint64_t last = clampIndex(std::ceil(to), count);
    return {first, std::max(first, last)};
}

void TimelineScale::fit()
{
    pixelsPerItem = fitPixelsPerItem();
    scroll = 0;
}

void TimelineScale::zoomAround(double x, double factor)
{
    const double anchor = (x + scroll) / pixelsPerItem;
    pixelsPerItem = std::clamp(pixelsPerItem * factor, minPixelsPerItem(), maxPixelsPerItem());
    scroll = anchor * pixelsPerItem - x;
    clampScroll();
}

void TimelineScale::setScroll(double value)
{
    scroll = value;
    clampScroll();
}

void TimelineScale::clampScroll()
{
    const double maximum = std::max(0.0, contentWidth() - width);
    scroll = std::clamp(scroll, 0.0, maximum);
}

void TimelineScale::centreOn(std::uint64_t item)
{
    setScroll((position(item) + 0.5) * pixelsPerItem - width / 2.0);
}

double secondsPerItem(const std::vector<double>& times)
{
    if (times.size() < 2)
        return 0;
    const double latest = *std::max_element(times.begin(), times.end(), [](double a, double b) {
        return std::isnan(a) || (!std::isnan(b) && a < b); // NaN never wins
    });
    const double span = latest - times.front();
    return std::isfinite(span) && span > 0 ? span / static_cast<double>(times.size() - 1) : 0;
}

std::vector<double> timePositions(const std::vector<double>& times)
{
    std::vector<double> positions(times.size(), 0);
    const double perItem = secondsPerItem(times);
    if (perItem <= 0) { // no span to spread them over: side by side
        for (std::size_t i = 0; i < positions.size(); ++i)
            positions[i] = static_cast<double>(i);
        return positions;
    }
    return timePositions(times, times.front(), perItem);
}

std::vector<double> timePositions(const std::vector<double>& times, double start,
                                  double secondsPerItem)
{
    std::vector<double> positions(times.size(), 0);
    double latest = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const double at = (times[i] - start) / secondsPerItem;
        if (std::isfinite(at))
            latest = std::max(latest, at);
        positions[i] = latest;
    }
    return positions;
}

void TimelineScale::ensureVisible(std::uint64_t item)
{
    const double left = xOf(item);
    const double right = left + std::max(pixelsPerItem, 1.0);
    if (left >= 0 && right <= width)
        return;
    // A step just past an edge scrolls by a little, as keyboard users expect; a jump centres.
    const double margin = std::min(width / 4.0, 8 * std::max(pixelsPerItem, 1.0));
    if (left < 0 && left > -width / 2.0)
        setScroll(scroll + left - margin);
    else if (right > width && right < width * 1.5)
        setScroll(scroll + (right - width) + margin);
    else
        centreOn(item);
}

} // namespace nanscope::widgets
