// SPDX-License-Identifier: GPL-3.0-or-later
// TensorProto decoding without libprotobuf (format §3.12, §7.4, §8.5): dtype, shape, values from
// tensor_content or from the typed fields with TensorFlow's fill rule, and full-tensor health.
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/core/health.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// TensorFlow DataType values used here (format §3.13).
namespace dtype {
constexpr int Invalid = 0, Float = 1, Double = 2, Int32 = 3, UInt8 = 4, Int16 = 5, Int8 = 6,
              String = 7, Complex64 = 8, Int64 = 9, Bool = 10, QInt8 = 11, QUInt8 = 12, QInt32 = 13,
              BFloat16 = 14, QInt16 = 15, QUInt16 = 16, UInt16 = 17, Complex128 = 18, Half = 19,
              Resource = 20, Variant = 21, UInt32 = 22, UInt64 = 23;
}

// Bytes per element of the types whose values NaNscope converts; 0 for the others.
std::size_t numericElementSize(int dtype);
// float16, float32, float64: the types TensorBoard's full-tensor alert looks at.
bool isAlertFloating(int dtype);

struct TensorProtoView
{
    int dtype = dtype::Invalid;
    int rank = 0;
    bool shapeValid = true;         // no negative dimension, element count fits in 63 bits
    std::uint64_t elementCount = 1; // product of the dimensions (1 for a scalar)
    std::string_view shape;         // the TensorShapeProto bytes
    std::string_view content;       // tensor_content
    std::string_view message;       // the whole TensorProto, for the typed fields
    bool hasTypedValues = false;
};

// False when the bytes are not a valid TensorProto.
bool parseTensorProto(std::string_view bytes, TensorProtoView& out);

std::vector<std::int64_t> dimensions(const TensorProtoView& view);

// Reads the first out.size() values as doubles, the way TensorFlow's MakeNdarray would give them.
// Returns the number of values read, or -1 when the tensor cannot be parsed as numbers (an
// invalid dtype, content of the wrong size, a non-numeric type).
std::int64_t readDoubles(const TensorProtoView& view, std::span<double> out);

// Every value as a double. Refuses tensors of more than `maxElements` (a short typed field can
// claim any number of elements).
bool readAllDoubles(const TensorProtoView& view, std::vector<double>& out, std::string* error,
                    std::uint64_t maxElements = std::uint64_t{1} << 27);

// Counts -inf, +inf, NaN, negative, zero and positive values of a floating tensor (float16,
// bfloat16, float32, float64); Detail::None for other types, for empty tensors and when the values
// cannot be parsed.
TensorHealth fullTensorHealth(const TensorProtoView& view);

TensorValue toTensorValue(const TensorProtoView& view);

} // namespace nanscope::core
