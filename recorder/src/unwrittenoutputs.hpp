// SPDX-License-Identifier: Apache-2.0
// Some ops allocate their output and write nothing into it (nanscope/unwrittenops.hpp): its bits
// are whatever was in memory, often NaN or inf. Summarising them
// would raise alerts about no value the program computed, and the first of them would take the
// origin from the real bug. In the modes that read values the recorder records such an op (its
// execution, tensor ids and stack, so that the data flow stays whole) as it records an op the
// op-type filter leaves out: without summaries of its outputs. SHAPE and NO_TENSOR read no value,
// so there the op is recorded as any other (its shape is real).
#pragma once

#include "nanscope/tensordebugmode.hpp"

#include <string_view>

namespace nanscope::detail {

// Whether the recorder leaves this op's outputs unsummarised in this mode.
bool summariesWouldReadGarbage(std::string_view opType, TensorDebugMode mode);

} // namespace nanscope::detail
