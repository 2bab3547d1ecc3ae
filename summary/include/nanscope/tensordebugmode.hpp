// SPDX-License-Identifier: Apache-2.0
// How much of each tensor the recorder writes (tfdbg2's TensorDebugMode).
#pragma once

#include "nanscope/export.h"

#include <optional>
#include <string_view>

namespace nanscope {

enum class TensorDebugMode : int {
    NoTensor = 1,      // which tensors were computed, no values
    CurtHealth = 2,    // [id, any non-finite]
    ConciseHealth = 3, // [id, size, -inf, +inf, nan]
    FullHealth = 4,    // [id, -1, dtype, rank, size, -inf, +inf, nan, -finite, zero, +finite]
    Shape = 5,         // [id, dtype, rank, size, six shape slots]
    FullTensor = 7,    // every value
};

// "NO_TENSOR", "CURT_HEALTH" … as TensorFlow spells them.
NANSCOPE_API std::string_view toString(TensorDebugMode mode);

// Accepts TensorFlow's spellings, case-insensitively; nullopt for anything else.
NANSCOPE_API std::optional<TensorDebugMode> parseTensorDebugMode(std::string_view text);

// Length of the summary vector of a summarising mode; 0 for NoTensor and FullTensor.
NANSCOPE_API int summaryLength(TensorDebugMode mode);

} // namespace nanscope
