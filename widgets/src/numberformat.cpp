// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/numberformat.hpp"

#include "shapedtext.hpp"

#include <QLocale>
#include <cmath>

namespace nanscope::widgets {

QString compactCount(double value)
{
    const QLocale locale;
    if (!std::isfinite(value))
        return locale.toString(value);
    const double magnitude = std::abs(value);
    if (magnitude < 100000)
        return locale.toString(static_cast<qlonglong>(std::llround(value)));
    constexpr char kUnits[] = {'k', 'M', 'G', 'T', 'P'};
    double scaled = magnitude / 1000;
    int unit = 0;
    while (scaled >= 999.5 && unit < 4) {
        scaled /= 1000;
        ++unit;
    }
    const QString digits = locale.toString(scaled, 'f', scaled < 9.95 ? 1 : 0);
    return (value < 0 ? QStringLiteral("-") : QString()) + digits + QLatin1Char(kUnits[unit]);
}

QString countThatFits(double value, const QFont& font, int width)
{
    const QLocale locale;
    const QString whole = std::trunc(value) == value && std::abs(value) < 1e18
                              ? locale.toString(static_cast<qlonglong>(value))
                              : locale.toString(value, 'g', 15);
    return ShapedText::advance(font, whole) <= width ? whole : compactCount(value);
}

} // namespace nanscope::widgets
