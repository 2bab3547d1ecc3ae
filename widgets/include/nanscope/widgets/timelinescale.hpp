// SPDX-License-Identifier: GPL-3.0-or-later
// The coordinate maths of a horizontal strip of N equal items that can be zoomed and scrolled:
// a plain value type, so that it is tested without painting anything. Items stand side by side
// (item i at i item widths), or, on a time axis, where their times put them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace nanscope::widgets {

struct TimelineScale
{
    // Items [first, last).
    struct Range
    {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint64_t size() const { return last - first; }
        bool empty() const { return last <= first; }
        friend bool operator==(const Range&, const Range&) = default;
    };

    // Widest an item gets when the strip is fitted (few items should not become huge boxes).
    static constexpr double kMaxFitPixels = 48;
    static constexpr double kMaxPixels = 64;
    // Scroll bars count in int pixels: the content never grows past this.
    static constexpr double kMaxContentPixels = 1 << 30;

    std::uint64_t count = 0;
    double pixelsPerItem = 1; // the zoom; below 1, several items share a pixel column
    double scroll = 0;        // the content x (pixels) at the view's left edge
    int width = 0;            // of the view, pixels

    // On a time axis: each item's left edge in item widths, rising, from 0 to count - 1 (see
    // timePositions), or within [0, length) on an axis shared with other strips; null: item i
    // at i.
    std::shared_ptr<const std::vector<double>> positions;
    // The content's length in item widths on a time axis shared with other strips (they all
    // have the same, so that one zoom and scroll shows the same times in each); 0: count.
    double length = 0;

    double position(std::uint64_t item) const
    {
        return positions ? (*positions)[item] : static_cast<double>(item);
    }

    double extent() const { return length > 0 ? length : static_cast<double>(count); }
    double contentWidth() const { return extent() * pixelsPerItem; }
    double fitPixelsPerItem() const;
    double minPixelsPerItem() const;
    double maxPixelsPerItem() const;
    bool aggregated() const { return pixelsPerItem < 1; }

    // View x of the left edge of `item` (may lie outside [0, width)).
    double xOf(std::uint64_t item) const;
    // The item drawn at view x, if any.
    std::optional<std::uint64_t> itemAt(double x) const;
    // The items at least partly visible.
    Range visibleRange() const;
    // The items whose left edge lies in pixel column [column, column + 1). Every item belongs to
    // exactly one column, so aggregating columns never counts an item twice; when items are
    // wider than a pixel, most columns are empty.
    Range itemsInColumn(int column) const;

    void fit();
    // Zooms by `factor`, keeping the point under view x where it is.
    void zoomAround(double x, double factor);
    void setScroll(double value);
    void clampScroll();
    void centreOn(std::uint64_t item);
    // Scrolls as little as needed; centres the item when it is far away.
    void ensureVisible(std::uint64_t item);
};

// Positions for a time axis from the items' times (seconds, in item order): the span from the
// first to the latest time over count - 1 item widths, so that the strip keeps its length and
// zoom. A time earlier than one before it (clocks are not monotonic) stays at the latest so far.
std::vector<double> timePositions(const std::vector<double>& times);
// Positions on an axis shared with other strips: `start` at 0, `secondsPerItem` seconds per item
// width; times out of order as above.
std::vector<double> timePositions(const std::vector<double>& times, double start,
                                  double secondsPerItem);
// Seconds per item width of those positions (0 when all times are equal).
double secondsPerItem(const std::vector<double>& times);

} // namespace nanscope::widgets
