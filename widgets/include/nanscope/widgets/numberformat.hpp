// SPDX-License-Identifier: GPL-3.0-or-later
// Counts in cells too narrow for all their digits: a number is shortened, never cut.
#pragma once

#include <QString>

class QFont;

namespace nanscope::widgets {

// 12,345 below 100,000; then 123k, 1.2M, 35G, 4.0T (the locale's digits and separators).
QString compactCount(double value);

// The whole number when it fits `width` pixels in `font`, its compact form otherwise.
QString countThatFits(double value, const QFont& font, int width);

} // namespace nanscope::widgets
