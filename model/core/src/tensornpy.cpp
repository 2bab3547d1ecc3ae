// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/tensornpy.hpp"

#include "float8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace nanscope::core {
namespace {

constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
constexpr std::size_t kPreambleBytes = 10; // magic (6), version (2), header length (2)
constexpr std::size_t kHeaderAlignment = 64;

// The integer type a quantized one stores (its scale lives elsewhere).
DType plainInteger(DType dtype)
{
    switch (dtype) {
    case DType::QInt8:
        return DType::Int8;
    case DType::QUInt8:
        return DType::UInt8;
    case DType::QInt16:
        return DType::Int16;
    case DType::QUInt16:
        return DType::UInt16;
    case DType::QInt32:
        return DType::Int32;
    default:
        return dtype;
    }
}

std::string descrOf(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
        return "<f2";
    case DType::Float32:
        return "<f4";
    case DType::Float64:
        return "<f8";
    case DType::Int8:
        return "|i1";
    case DType::UInt8:
        return "|u1";
    case DType::Int16:
        return "<i2";
    case DType::UInt16:
        return "<u2";
    case DType::Int32:
        return "<i4";
    case DType::UInt32:
        return "<u4";
    case DType::Int64:
        return "<i8";
    case DType::UInt64:
        return "<u8";
    case DType::Bool:
        return "|b1";
    default:
        return {};
    }
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "(";
    for (std::size_t d = 0; d < shape.size(); ++d)
        text += (d == 0 ? "" : ", ") + std::to_string(shape[d]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

NpyType npyTypeOf(DType dtype)
{
    NpyType type{.descr = descrOf(dtype), .written = dtype};
    if (!type.descr.empty())
        return type;
    // bfloat16 and float8 values are all float32 values exactly.
    if (dtype == DType::BFloat16 || float8Of(dtype) != Float8::None)
        return {.descr = descrOf(DType::Float32), .written = DType::Float32, .converted = true};
    if (const DType integer = plainInteger(dtype); integer != dtype)
        return {.descr = descrOf(integer), .written = integer, .converted = true};
    return type;
}

std::string npyHeader(const TensorData& tensor)
{
    const NpyType type = npyTypeOf(tensor.dtype());
    if (type.descr.empty())
        return {};
    std::string dict = "{'descr': '" + type.descr +
                       "', 'fortran_order': False, 'shape': " + shapeText(tensor.shape()) + ", }";
    // Spaces, then a newline, up to the alignment: what numpy.save writes.
    const std::size_t unpadded = kPreambleBytes + dict.size() + 1;
    dict.append((kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
    dict += '\n';
    if (dict.size() > 0xffff)
        return {};
    std::string header("\x93NUMPY\x01\x00", 8);
    header += static_cast<char>(dict.size() & 0xff);
    header += static_cast<char>(dict.size() >> 8);
    return header + dict;
}

bool writeNpy(const TensorData& tensor, const std::function<bool(std::string_view)>& write,
              std::string* error)
{
    const auto fail = [error](const char* why) {
        if (error)
            *error = why;
        return false;
    };
    const std::string header = npyHeader(tensor);
    if (header.empty())
        return fail("NumPy has no type for this tensor, or its shape is too long for a header");
    if (!write(header))
        return fail("the file could not be written");
    const NpyType type = npyTypeOf(tensor.dtype());
    const std::string_view bytes = tensor.elementBytes();
    // The quantized types' bytes are their integers' bytes.
    const bool asIs = !type.converted || isQuantized(tensor.dtype());
    if (asIs && tensor.dtype() != DType::Bool) {
        for (std::size_t at = 0; at < bytes.size(); at += kPieceBytes)
            if (!write(bytes.substr(at, kPieceBytes)))
                return fail("the file could not be written");
        return true;
    }
    // Element by element: bool as 0 or 1 (NumPy reads any other byte as a bool that prints
    // oddly), bfloat16 and float8 as float32.
    const std::size_t outWidth = tensor.dtype() == DType::Bool ? 1 : sizeof(float);
    const std::uint64_t perPiece = kPieceBytes / outWidth;
    std::string piece;
    for (std::uint64_t first = 0; first < tensor.elementCount(); first += perPiece) {
        const std::uint64_t end = std::min(tensor.elementCount(), first + perPiece);
        piece.clear();
        for (std::uint64_t i = first; i < end; ++i) {
            if (outWidth == 1) {
                piece += static_cast<char>(tensor.integer(i) != 0 ? 1 : 0);
            } else {
                const auto value = static_cast<float>(tensor.value(i));
                char raw[sizeof value];
                std::memcpy(raw, &value, sizeof value);
                piece.append(raw, sizeof raw);
            }
        }
        if (!write(piece))
            return fail("the file could not be written");
    }
    return true;
}

} // namespace nanscope::core
