// SPDX-License-Identifier: GPL-3.0-or-later
// What timelinestrip.cpp and timelinestrippaint.cpp share: the strip's rows and pixel rounding.
#pragma once

#include "nanscope/widgets/timelinestrip.hpp"

#include <QRect>

namespace nanscope::widgets {

// Pixel positions as ints. Far off-screen ones (a close zoom on a hundred million items is wider
// than an int) are clamped and NaN is 0: converting a double out of an int's range is undefined.
inline int toPixels(double x)
{
    constexpr double kLimit = 1 << 30;
    if (!(x >= -kLimit))
        return x < 0 ? -(1 << 30) : 0;
    return x <= kLimit ? static_cast<int>(x) : 1 << 30;
}

struct TimelineStrip::Rows
{
    QRect ruler;
    QRect groups; // empty when no item has a group
    QRect markers;
    QRect items;
};

} // namespace nanscope::widgets
