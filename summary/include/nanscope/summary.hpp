// SPDX-License-Identifier: Apache-2.0
// CPU summaries of tensors: the exact vectors of DebugNumericSummaryV2 (tfdbg2 format §6.2).
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/export.h"
#include "nanscope/tensordebugmode.hpp"

#include <cstdint>
#include <span>

namespace nanscope {

// Exact element counts by class. For integers and bool every element is finite; bool true
// counts as positive, false as zero. −0.0 counts as zero; subnormals as negative or positive.
struct HealthCounts
{
    std::uint64_t size = 0;
    std::uint64_t negativeInfinity = 0;
    std::uint64_t positiveInfinity = 0;
    std::uint64_t nan = 0;
    std::uint64_t negativeFinite = 0;
    std::uint64_t zero = 0;
    std::uint64_t positiveFinite = 0;

    std::uint64_t nonFinite() const { return negativeInfinity + positiveInfinity + nan; }
    friend bool operator==(const HealthCounts&, const HealthCounts&) = default;
};

// Counts `count` elements of `dtype` at `data` (host memory, any alignment). Vectorised; the
// result is exact and independent of the instruction set used. `dtype` must satisfy
// hasFixedSizeElements() and not be complex.
NANSCOPE_API HealthCounts countHealth(const void* data, DType dtype, std::uint64_t count);

// The scalar, one-element-at-a-time reference of countHealth (for tests and benchmarks).
NANSCOPE_API HealthCounts countHealthReference(const void* data, DType dtype, std::uint64_t count);

// Writes the summary vector of `mode` (a summarising mode) into `out`, which must hold
// summaryLength(mode) values. `tensorId` goes in slot 0 (−1 for eager tensors).
NANSCOPE_API void summarize(TensorDebugMode mode, const void* data, DType dtype,
                            std::span<const std::int64_t> shape, double tensorId,
                            std::span<double> out);

// Builds the summary vector from counts already known (the GPU path produces counts too).
NANSCOPE_API void summaryFromCounts(TensorDebugMode mode, const HealthCounts& counts, DType dtype,
                                    std::span<const std::int64_t> shape, double tensorId,
                                    std::span<double> out);

} // namespace nanscope
