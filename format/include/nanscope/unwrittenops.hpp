// SPDX-License-Identifier: Apache-2.0
// Ops that allocate their output and write nothing into it (torch.empty, Tensor.resize_,
// TensorFlow's Empty): its bits are whatever was in memory, often NaN or inf, and no value the
// program computed. The recorder leaves them unsummarised; the reader gives their outputs no
// health, so that logdirs written before (or by TensorFlow) raise no alert and no origin there.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace nanscope {

// PyTorch's op types are the schema's name, without the overload ("aten::empty" for
// aten::empty.memory_format and aten::empty.out alike); in-place ops keep their '_'. The
// functional resize and resize_as are what functionalization (torch.compile) makes of them.
inline constexpr std::array kUnwrittenOutputOps = {
    std::string_view{"aten::empty"},
    std::string_view{"aten::empty_like"},
    std::string_view{"aten::empty_strided"},
    std::string_view{"aten::empty_permuted"},
    std::string_view{"aten::new_empty"},
    std::string_view{"aten::new_empty_strided"},
    std::string_view{"aten::resize_"},
    std::string_view{"aten::resize_as_"},
    std::string_view{"aten::resize"},
    std::string_view{"aten::resize_as"},
    std::string_view{"Empty"}, // TensorFlow's, with init=False (its default)
};

// Whether an op of this type allocates its outputs without writing values into them.
inline bool writesNoValues(std::string_view opType)
{
    return std::find(kUnwrittenOutputOps.begin(), kUnwrittenOutputOps.end(), opType) !=
           kUnwrittenOutputOps.end();
}

} // namespace nanscope
