// SPDX-License-Identifier: Apache-2.0
// Element types of tensors, numbered as TensorFlow's DataType enum (the tfdbg2 wire value).
#pragma once

#include "nanscope/export.h"

#include <cstddef>
#include <string_view>

namespace nanscope {

enum class DType : int {
    Invalid = 0,
    Float32 = 1,
    Float64 = 2,
    Int32 = 3,
    UInt8 = 4,
    Int16 = 5,
    Int8 = 6,
    String = 7,
    Complex64 = 8,
    Int64 = 9,
    Bool = 10,
    BFloat16 = 14,
    UInt16 = 17,
    Complex128 = 18,
    Float16 = 19,
    Resource = 20,
    Variant = 21,
    UInt32 = 22,
    UInt64 = 23,
};

// Bytes per element for fixed-size types; 0 for String, Resource, Variant and Invalid.
NANSCOPE_API std::size_t elementSize(DType dtype);

// float16, bfloat16, float32, float64 (TensorFlow's DType.is_floating for summarised types).
NANSCOPE_API bool isFloating(DType dtype);

// Signed and unsigned integers of 8 to 64 bits.
NANSCOPE_API bool isInteger(DType dtype);

// Whether the recorder can summarise or copy the values of this type from a raw buffer.
NANSCOPE_API bool hasFixedSizeElements(DType dtype);

// TensorBoard's display name ("float32", "int64" …), or "unknown".
NANSCOPE_API std::string_view dtypeName(DType dtype);

} // namespace nanscope
