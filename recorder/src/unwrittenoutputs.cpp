// SPDX-License-Identifier: Apache-2.0
#include "unwrittenoutputs.hpp"

#include "nanscope/unwrittenops.hpp"

namespace nanscope::detail {

bool summariesWouldReadGarbage(std::string_view opType, TensorDebugMode mode)
{
    switch (mode) {
    case TensorDebugMode::NoTensor:
    case TensorDebugMode::Shape:
        return false; // no value is read
    case TensorDebugMode::CurtHealth:
    case TensorDebugMode::ConciseHealth:
    case TensorDebugMode::FullHealth:
    case TensorDebugMode::FullTensor:
        break;
    }
    return nanscope::writesNoValues(opType);
}

} // namespace nanscope::detail
