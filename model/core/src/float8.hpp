// SPDX-License-Identifier: GPL-3.0-or-later
// TensorFlow's float8 types (DataType 24 to 28) and their values. They are newer than the shared
// vocabulary (nanscope/dtype.hpp), which the recorder also reads as the types it accepts: only the
// reader knows them, to read the values TensorFlow writes of them.
#pragma once

#include "nanscope/dtype.hpp"

#include <cstdint>

namespace nanscope::core {

enum class Float8 : std::uint8_t {
    None,
    E5M2,     // IEEE-like: infinities, NaN with the exponent all ones
    E4M3FN,   // no infinities; NaN is S.1111.111
    E4M3FNUZ, // no infinities, no -0: NaN is 0x80 (the three "fnuz" types)
    E4M3B11FNUZ,
    E5M2FNUZ,
};

// Float8::None for any other type.
Float8 float8Of(DType type);

// A float8 value, exactly (every one is a double): sign, exponent bits, exponent bias.
double decodeFloat8(std::uint8_t b, Float8 format);

} // namespace nanscope::core
