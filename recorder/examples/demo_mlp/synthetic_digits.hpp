// SPDX-License-Identifier: Apache-2.0
// MNIST-like images drawn by the program, for runs without the MNIST files: digit glyphs made
// of strokes, randomly shifted, scaled, slanted, rotated, warped and thickened.
#pragma once

#include "dataset.hpp"

#include <cstdint>

namespace nanscope::demo {

struct SyntheticDigitsOptions
{
    std::int64_t trainSize = 6000;
    std::int64_t testSize = 1000;
    std::uint64_t seed = 42;
};

DataSplits makeSyntheticDigits(const SyntheticDigitsOptions& options);

} // namespace nanscope::demo
