// SPDX-License-Identifier: GPL-3.0-or-later
// The colours of tensor health, shared by every panel so that NaN looks the same everywhere.
// Saturated for the non-finite classes, muted for the finite ones; all read on light and dark
// backgrounds.
#pragma once

#include "nanscope/widgets/healthbardelegate.hpp"

#include <QColor>

namespace nanscope::views::healthstyle {

inline QColor nan()
{
    return {0xe5, 0x25, 0x92}; // Debugger V2's alert pink
}
inline QColor negativeInfinity()
{
    return {0x7e, 0x57, 0xc2};
}
inline QColor positiveInfinity()
{
    return {0xef, 0x6c, 0x00};
}
inline QColor negative()
{
    return {0x64, 0xb5, 0xf6};
}
inline QColor zero()
{
    return {0x90, 0xa4, 0xae};
}
inline QColor positive()
{
    return {0x4d, 0xb6, 0xac};
}

// Segments of the health bar over a model's six count roles, which follow `negInfRole` in the
// order −∞, +∞, NaN, negative, zero, positive (GraphExecutionModel's and ExecutionModel's).
QList<widgets::HealthBarDelegate::Segment> countSegments(int negInfRole);

} // namespace nanscope::views::healthstyle
