// SPDX-License-Identifier: GPL-3.0-or-later
// Tensors that exercise every class a summary counts, shared by the host and device tests.
#pragma once

#include "nanscope/dtype.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace nanscope::test {

// Every dtype with a summary.
inline constexpr std::array kSummarisedDtypes = {
    DType::Float16, DType::BFloat16, DType::Float32, DType::Float64, DType::Int8,
    DType::Int16,   DType::Int32,    DType::Int64,   DType::UInt8,   DType::UInt16,
    DType::UInt32,  DType::UInt64,   DType::Bool,
};

// `count` random elements of `dtype` (little-endian bytes), the same for the same seed. Floats
// mix normal values with ±0, subnormals, ±inf and NaNs with random payloads and either sign, in
// stretches where they are dense and stretches where they are rare (so that both the kernel's
// all-finite fast path and its full classification run); integers mix zeros, -1, the extremes
// and random bits; bool bytes are 0, 1 or any other non-zero byte.
std::vector<unsigned char> healthData(DType dtype, std::uint64_t count, std::uint64_t seed);

// 0, 1, and 2^k - 1, 2^k, 2^k + 1 for k = 1 … maxLog2, ascending and without repeats.
std::vector<std::uint64_t> edgeSizes(int maxLog2);

} // namespace nanscope::test
