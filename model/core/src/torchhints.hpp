// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch's side of the hints: which rule an aten op falls under, and the fixes in PyTorch's
// words. The rules themselves (hints.cpp) are the same for both frameworks.
#pragma once

#include "nanscope/core/hints.hpp"

#include <string_view>

namespace nanscope::core {

// Whether an op type is PyTorch's ("aten::log", "aten::add_").
bool isAtenOp(std::string_view opType);

// The TensorFlow op type whose rule explains an aten op ("aten::log_" -> "Log"); empty when none
// does.
std::string_view ruleOpOfAten(std::string_view opType);

// Rewrites a hint's fix (and a cause that names TensorFlow) in PyTorch's terms.
void rewordForPyTorch(Hint& hint);

// Whether an op is a collective of torch.distributed ("c10d::allreduce_", "_c10d_functional::
// all_reduce"): it writes values that other ranks computed.
bool isCollective(std::string_view opType);

// The hint for a non-finite value a collective brought in from other ranks. `isOrigin`: the
// collective's own output was recorded non-finite from finite inputs (its record was taken after
// the values arrived); otherwise an op read what the collective wrote (its record predates them:
// the program waits for the collective after the op returns). Which of the two a run shows is a
// race, so both share one rule.
Hint collectiveInputHint(std::string_view collective, bool isOrigin);

} // namespace nanscope::core
