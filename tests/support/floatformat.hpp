// SPDX-License-Identifier: GPL-3.0-or-later
// The bit layout of the floating types the summaries classify, for tests and benchmarks that
// build special values (NaN payloads, infinities, subnormals) bit by bit.
#pragma once

#include "nanscope/dtype.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
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

// Writes the low `bytes` bytes (1, 2, 4 or 8) of `bits` as one element, in native byte order.
inline void storeBits(unsigned char* p, std::size_t bytes, std::uint64_t bits)
{
    switch (bytes) {
    case 1: {
        const auto v = static_cast<std::uint8_t>(bits);
        std::memcpy(p, &v, 1);
        break;
    }
    case 2: {
        const auto v = static_cast<std::uint16_t>(bits);
        std::memcpy(p, &v, 2);
        break;
    }
    case 4: {
        const auto v = static_cast<std::uint32_t>(bits);
        std::memcpy(p, &v, 4);
        break;
    }
    default:
        std::memcpy(p, &bits, 8);
        break;
    }
}

} // namespace nanscope::test
