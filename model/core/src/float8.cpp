// SPDX-License-Identifier: GPL-3.0-or-later
#include "float8.hpp"

#include <cmath>
#include <limits>

namespace nanscope::core {

Float8 float8Of(DType type)
{
    const int value = static_cast<int>(type);
    return value >= 24 && value <= 28 ? static_cast<Float8>(value - 23) : Float8::None;
}

double decodeFloat8(std::uint8_t b, Float8 format)
{
    const bool negative = (b & 0x80u) != 0;
    const bool fnuz =
        format == Float8::E4M3FNUZ || format == Float8::E4M3B11FNUZ || format == Float8::E5M2FNUZ;
    if ((fnuz && b == 0x80u) || (format == Float8::E4M3FN && (b & 0x7fu) == 0x7fu))
        return std::numeric_limits<double>::quiet_NaN();
    const bool wide = format == Float8::E5M2 || format == Float8::E5M2FNUZ; // 5 exponent bits
    const int mantissaBits = wide ? 2 : 3;
    const int bias = format == Float8::E5M2       ? 15
                     : format == Float8::E5M2FNUZ ? 16
                     : format == Float8::E4M3FN   ? 7
                     : format == Float8::E4M3FNUZ ? 8
                                                  : 11;
    const int exponent = (b & 0x7fu) >> mantissaBits;
    const int mantissa = b & ((1u << mantissaBits) - 1);
    if (format == Float8::E5M2 && exponent == 0x1f)
        return mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                             : (negative ? -std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::infinity());
    const double fraction = static_cast<double>(mantissa) / (1 << mantissaBits);
    const double magnitude = exponent == 0 ? std::ldexp(fraction, 1 - bias)
                                           : std::ldexp(1.0 + fraction, exponent - bias);
    return negative ? -magnitude : magnitude;
}

} // namespace nanscope::core
