// SPDX-License-Identifier: GPL-3.0-or-later
// TensorProto decoding without libprotobuf (format §3.12, §7.4, §8.5): dtype, shape, values from
// tensor_content or from the typed fields with TensorFlow's fill rule, and full-tensor health.
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/core/health.hpp"
#include "nanscope/dtype.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// Bytes per element of the types whose values NaNscope converts to numbers (complex ones have
// none; TensorFlow's float8 types, DataType 24 to 28, have 1); 0 for the others.
std::size_t numericElementSize(DType dtype);

// One element of a tensor_content buffer of `dtype` (little-endian, numericElementSize bytes at
// `p`) as a double; 0 for a type with no numeric values.
double elementValue(DType dtype, const char* p);

// The TensorProto field that holds values of `dtype` when it has no tensor_content (float_val,
// int_val, half_val …): packed fixed32 for float32, fixed64 for float64, varints for the others;
// 0 for a type that has none here (complex, float8, strings).
std::uint32_t typedValuesField(DType dtype);

struct TensorProtoView
{
    DType dtype = DType::Invalid;
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

// The content bytes (8 per value) of a summary vector in TensorFlow's exact layout (a rank-1
// float64 tensor_content of at most 15 values); empty for any other layout.
std::string_view summaryVectorContent(std::string_view bytes);

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
// bfloat16, float32, float64, TensorFlow's five float8 types); the non-finite elements of a complex
// one (Detail::Counts: a complex value has no sign); Detail::None for other types, for empty
// tensors and when the values cannot be parsed.
TensorHealth fullTensorHealth(const TensorProtoView& view);

// The dtype, the shape and the first `maxValues` values: what a person reads of a tensor. Linear
// in the record's size at most (a typed field is walked to its end), never in the claimed shape.
TensorValue toTensorValue(const TensorProtoView& view, std::size_t maxValues = kTensorValuesKept);

} // namespace nanscope::core
