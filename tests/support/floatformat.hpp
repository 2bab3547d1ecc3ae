// SPDX-License-Identifier: GPL-3.0-or-later
// The bit layout of the floating types the summaries classify, for tests that build special
// values (NaN payloads, infinities, subnormals) bit by bit.
#pragma once

#include "nanscope/dtype.hpp"

#include <optional>

namespace nanscope::test {

struct FloatFormat
{
    int bits = 0;         // storage width
    int mantissaBits = 0; // explicit fraction bits
};

inline std::optional<FloatFormat> floatFormat(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
        return FloatFormat{16, 10};
    case DType::BFloat16:
        return FloatFormat{16, 7};
    case DType::Float32:
        return FloatFormat{32, 23};
    case DType::Float64:
        return FloatFormat{64, 52};
    default:
        return std::nullopt;
    }
}

} // namespace nanscope::test
