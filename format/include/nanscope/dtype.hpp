// SPDX-License-Identifier: Apache-2.0
// The element types of tensors, numbered as TensorFlow's DataType enum: the value tfdbg2 writes
// on the wire. The one vocabulary of types for the recorder, the GPU summaries and the reader:
// names, sizes, classes, the decoding of the 16-bit floating formats, and the classes (NaN,
// ±inf, zero, sign) of floating bit patterns.
//
// Header-only and C++17, so that nvcc compiles it into the health kernel, and so that a value
// read from a file converts with a plain static_cast<DType>(int) (the enum's underlying type is
// int, so every int is a valid DType value; unknown ones have no name and no size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

// What the health kernel calls is compiled for the device too (the kernels are built without
// nvcc's relaxed constexpr, so constexpr alone would leave it host-only).
#if defined(__CUDACC__)
#define NANSCOPE_HOST_DEVICE __host__ __device__
#else
#define NANSCOPE_HOST_DEVICE
#endif

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
    QInt8 = 11,
    QUInt8 = 12,
    QInt32 = 13,
    BFloat16 = 14,
    QInt16 = 15,
    QUInt16 = 16,
    UInt16 = 17,
    Complex128 = 18,
    Float16 = 19,
    Resource = 20,
    Variant = 21,
    UInt32 = 22,
    UInt64 = 23,
};

// Bytes per element of the fixed-size types (quantized ones included); 0 for String, Resource,
// Variant, Invalid and values TensorFlow does not define.
constexpr std::size_t elementSize(DType dtype)
{
    switch (dtype) {
    case DType::Int8:
    case DType::UInt8:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::Bool:
        return 1;
    case DType::Int16:
    case DType::UInt16:
    case DType::QInt16:
    case DType::QUInt16:
    case DType::Float16:
    case DType::BFloat16:
        return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::QInt32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex64:
        return 8;
    case DType::Complex128:
        return 16;
    case DType::Invalid:
    case DType::String:
    case DType::Resource:
    case DType::Variant:
        break;
    }
    return 0;
}

// float16, bfloat16, float32, float64 (TensorFlow's DType.is_floating for summarised types).
constexpr bool isFloating(DType dtype)
{
    return dtype == DType::Float16 || dtype == DType::BFloat16 || dtype == DType::Float32 ||
           dtype == DType::Float64;
}

// Signed and unsigned integers of 8 to 64 bits (not the quantized types, not bool).
constexpr bool isInteger(DType dtype)
{
    switch (dtype) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64:
        return true;
    default:
        return false;
    }
}

// qint8, quint8, qint16, quint16, qint32: integers that carry a scale elsewhere.
constexpr bool isQuantized(DType dtype)
{
    return dtype == DType::QInt8 || dtype == DType::QUInt8 || dtype == DType::QInt16 ||
           dtype == DType::QUInt16 || dtype == DType::QInt32;
}

// The types whose values TensorBoard's full-tensor alert checks: float16, float32, float64
// (TensorFlow's reader leaves bfloat16 out).
constexpr bool isAlertFloating(DType dtype)
{
    return dtype == DType::Float16 || dtype == DType::Float32 || dtype == DType::Float64;
}

// Whether a raw buffer of this type can be read element by element: every fixed-size type but
// the quantized ones, whose values mean nothing without their scale.
constexpr bool hasFixedSizeElements(DType dtype)
{
    return elementSize(dtype) != 0 && !isQuantized(dtype);
}

// TensorFlow's name of the type ("float32", "int64" …); empty for values it does not define.
constexpr std::string_view knownDtypeName(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
        return "float16";
    case DType::BFloat16:
        return "bfloat16";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    case DType::Int8:
        return "int8";
    case DType::Int16:
        return "int16";
    case DType::Int32:
        return "int32";
    case DType::Int64:
        return "int64";
    case DType::UInt8:
        return "uint8";
    case DType::UInt16:
        return "uint16";
    case DType::UInt32:
        return "uint32";
    case DType::UInt64:
        return "uint64";
    case DType::Bool:
        return "bool";
    case DType::String:
        return "string";
    case DType::Complex64:
        return "complex64";
    case DType::Complex128:
        return "complex128";
    case DType::QInt8:
        return "qint8";
    case DType::QUInt8:
        return "quint8";
    case DType::QInt16:
        return "qint16";
    case DType::QUInt16:
        return "quint16";
    case DType::QInt32:
        return "qint32";
    case DType::Resource:
        return "resource";
    case DType::Variant:
        return "variant";
    case DType::Invalid:
        break;
    }
    return {};
}

// TensorFlow's name of the type, or "unknown".
constexpr std::string_view dtypeName(DType dtype)
{
    const std::string_view name = knownDtypeName(dtype);
    return name.empty() ? std::string_view("unknown") : name;
}

// IEEE 754 binary16 to float, exactly (every binary16 value is a float): infinities, NaN
// (payload kept), subnormals and signed zeros included.
inline float decodeFloat16(std::uint16_t bits)
{
    const std::uint32_t sign = std::uint32_t{bits & 0x8000u} << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    std::uint32_t mantissa = bits & 0x3ffu;
    std::uint32_t wide = 0;
    if (exponent == 0x1f) {
        wide = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        wide = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        wide = sign;
    } else { // subnormal: shift the mantissa up to its leading one
        std::uint32_t shift = 0;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        wide = sign | ((113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float value = 0;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// bfloat16 is the upper half of a float32.
inline float decodeBFloat16(std::uint16_t bits)
{
    const std::uint32_t wide = std::uint32_t{bits} << 16;
    float value = 0;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// The classes a floating value falls in, in the order FULL_HEALTH counts them (slots 5 to 10).
// Subnormals are finite; -0 is a zero.
enum class FloatClass : std::uint8_t {
    NegativeInfinity,
    PositiveInfinity,
    NaN,
    NegativeFinite, // below zero
    Zero,
    PositiveFinite, // above zero
};

// An IEEE 754 binary format seen through the unsigned integer of its width and the pattern of its
// +infinity: every pattern above infinity in magnitude is a NaN, whatever its payload. One
// definition for the summaries' vectorised counts, the GPU kernel and the reader.
//
// The predicates are branch-free and use signed comparisons where an ordering is needed, because
// SSE and AVX2 compare signed integers only: the summaries' loops add each predicate to a
// per-lane counter, and each becomes one vector compare. With s the pattern read as a signed
// integer and m its magnitude (sign cleared):
//   NaN: m > inf;  zero: m == 0;  ±inf: s == ±inf;
//   negative finite non-zero: s - 1 < bits(-inf) - 1 as signed integers, since s - 1 (wrapping)
//   sends -0 to the top of the signed range, while the negative finite patterns, just below
//   -inf's, stay at the bottom.
template <class UInt, UInt Infinity>
struct FloatFormat
{
    static_assert(std::is_unsigned_v<UInt>);
    using Bits = UInt;
    using Signed = std::make_signed_t<Bits>;
    static constexpr Bits kSign = static_cast<Bits>(Bits{1} << (sizeof(Bits) * 8 - 1));
    static constexpr Bits kMagnitude = static_cast<Bits>(~kSign);
    static constexpr Bits kInfinity = Infinity;
    static constexpr Bits kNegativeInfinity = static_cast<Bits>(kSign | Infinity);

    NANSCOPE_HOST_DEVICE static constexpr Signed asSigned(Bits bits)
    {
        return static_cast<Signed>(bits);
    }
    NANSCOPE_HOST_DEVICE static constexpr bool isNaN(Bits bits)
    {
        return asSigned(static_cast<Bits>(bits & kMagnitude)) > asSigned(kInfinity);
    }
    NANSCOPE_HOST_DEVICE static constexpr bool isZero(Bits bits)
    {
        return asSigned(static_cast<Bits>(bits & kMagnitude)) == 0;
    }
    NANSCOPE_HOST_DEVICE static constexpr bool isPositiveInfinity(Bits bits)
    {
        return asSigned(bits) == asSigned(kInfinity);
    }
    NANSCOPE_HOST_DEVICE static constexpr bool isNegativeInfinity(Bits bits)
    {
        return asSigned(bits) == asSigned(kNegativeInfinity);
    }
    NANSCOPE_HOST_DEVICE static constexpr bool isNegativeFinite(Bits bits)
    {
        return asSigned(static_cast<Bits>(bits - 1)) <
               asSigned(static_cast<Bits>(kNegativeInfinity - 1));
    }
    // Above +0 and below +inf: the same wrap as isNegativeFinite, unsigned.
    NANSCOPE_HOST_DEVICE static constexpr bool isPositiveFinite(Bits bits)
    {
        return static_cast<Bits>(bits - 1) < static_cast<Bits>(kInfinity - 1);
    }
    NANSCOPE_HOST_DEVICE static constexpr FloatClass classify(Bits bits)
    {
        if (isNaN(bits))
            return FloatClass::NaN;
        if (isPositiveInfinity(bits))
            return FloatClass::PositiveInfinity;
        if (isNegativeInfinity(bits))
            return FloatClass::NegativeInfinity;
        if (isZero(bits))
            return FloatClass::Zero;
        return (bits & kSign) != 0 ? FloatClass::NegativeFinite : FloatClass::PositiveFinite;
    }
};

using Float16Format = FloatFormat<std::uint16_t, 0x7c00u>;
using BFloat16Format = FloatFormat<std::uint16_t, 0x7f80u>;
using Float32Format = FloatFormat<std::uint32_t, 0x7f800000u>;
using Float64Format = FloatFormat<std::uint64_t, 0x7ff0000000000000u>;

// A value's class, for values already converted (float8, typed protobuf fields): the same
// classes as Float64Format::classify of its bits.
constexpr FloatClass classifyFloat(double value)
{
    if (value != value) // NaN alone is unequal to itself (std::isnan is not constexpr before C++23)
        return FloatClass::NaN;
    if (value == std::numeric_limits<double>::infinity())
        return FloatClass::PositiveInfinity;
    if (value == -std::numeric_limits<double>::infinity())
        return FloatClass::NegativeInfinity;
    if (value == 0)
        return FloatClass::Zero;
    return value < 0 ? FloatClass::NegativeFinite : FloatClass::PositiveFinite;
}

} // namespace nanscope
