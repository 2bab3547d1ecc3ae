// SPDX-License-Identifier: GPL-3.0-or-later
// A TensorData as a NumPy .npy file, format version 1.0 (numpy.lib.format): the magic string,
// a header that is a Python dict literal (descr, fortran_order, shape) padded to a multiple of 64
// bytes, then the elements in C order, little-endian.
#pragma once

#include "nanscope/core/tensordata.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace nanscope::core {

struct NpyType
{
    std::string descr;      // NumPy's type string: "<f4", "|b1" …; empty when there is none
    DType written;          // the type of the elements written
    bool converted = false; // NumPy has no such type: written as `written` (bfloat16 and
                            // float8 as float32, the quantized types as their integers)
};

NpyType npyTypeOf(DType dtype);

// The bytes before the elements; empty when the shape does not fit a version 1.0 header.
std::string npyHeader(const TensorData& tensor);

// Writes the header and the elements through `write`, in pieces of at most 1 MiB. False (with
// `error`) when the tensor has no NumPy type or `write` returns false.
bool writeNpy(const TensorData& tensor, const std::function<bool(std::string_view)>& write,
              std::string* error = nullptr);

} // namespace nanscope::core
