// SPDX-License-Identifier: GPL-3.0-or-later
// Why an op may have produced NaN or infinity from its inputs, and the usual fixes: a table of
// rules keyed by op type and the health of the op's inputs.
#pragma once

#include "nanscope/core/health.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

struct Hint
{
    std::string rule;  // a stable name of the rule that matched ("log-of-zero", "fallback" …)
    std::string cause; // one sentence: what most likely happened
    std::string fix;   // one sentence: what usually fixes it
};

// `inputs` in the op's input order (Detail::None for an input whose health is unknown).
Hint explainNonFinite(std::string_view opType, const std::vector<TensorHealth>& inputs,
                      const TensorHealth& output);

} // namespace nanscope::core
