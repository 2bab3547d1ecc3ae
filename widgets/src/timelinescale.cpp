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
    if (count == 0 || width <= 0)
        return 1;
    return std::min(kMaxFitPixels, static_cast<double>(width) / static_cast<double>(count));
}

double TimelineScale::minPixelsPerItem() const
{
    return fitPixelsPerItem();
}

double TimelineScale::maxPixelsPerItem() const
{
    if (count == 0)
        return kMaxPixels;
    const double byContent = kMaxContentPixels / static_cast<double>(count);
    return std::max(minPixelsPerItem(), std::min(kMaxPixels, byContent));
}

double TimelineScale::xOf(std::uint64_t item) const
{
    return static_cast<double>(item) * pixelsPerItem - scroll;
}

std::optional<std::uint64_t> TimelineScale::itemAt(double x) const
{
    const double position = (x + scroll) / pixelsPerItem;
    if (!(position >= 0 && position < static_cast<double>(count))) // NaN too
        return std::nullopt;
    return static_cast<std::uint64_t>(position);
}

TimelineScale::Range TimelineScale::visibleRange() const
{
    const std::uint64_t first = clampIndex(std::floor(scroll / pixelsPerItem), count);
    const std::uint64_t last = clampIndex(std::ceil((scroll + width) / pixelsPerItem), count);
    return {first, std::max(first, last)};
}

TimelineScale::Range TimelineScale::itemsInColumn(int column) const
{
    // Item i starts at content x = i * ppi; it belongs to column c when c <= i*ppi - scroll < c+1.
    const std::uint64_t first = clampIndex(std::ceil((column + scroll) / pixelsPerItem), count);
    const std::uint64_t last = clampIndex(std::ceil((column + 1 + scroll) / pixelsPerItem), count);
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
    setScroll((static_cast<double>(item) + 0.5) * pixelsPerItem - width / 2.0);
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
