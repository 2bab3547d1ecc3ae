// SPDX-License-Identifier: GPL-3.0-or-later
// The one dtype vocabulary (nanscope/dtype.hpp) against the wire it names: TensorFlow's DataType
// enum as our types.proto spells it, element sizes against the C++ types, and the 16-bit float
// decoders against an independent computation over every bit pattern.
#include "nanscope/dtype.hpp"
#include "nanscope/tfdbg/types.pb.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

using namespace nanscope;

namespace {

// TensorFlow's Python names differ from the enum's in three places; the rest is the enum name in
// lower case without "DT_".
std::string pythonName(const std::string& enumName)
{
    if (enumName == "DT_FLOAT")
        return "float32";
    if (enumName == "DT_DOUBLE")
        return "float64";
    if (enumName == "DT_HALF")
        return "float16";
    std::string name = enumName.substr(3);
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
}

// binary16 by its definition: (-1)^s × 2^(e-15) × 1.m, subnormals 2^-14 × 0.m.
double float16ByDefinition(std::uint16_t bits)
{
    const double sign = (bits & 0x8000u) != 0 ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (exponent == 0x1f)
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    if (exponent == 0)
        return sign * std::ldexp(mantissa / 1024.0, -14);
    return sign * std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
}

} // namespace

TEST_CASE("every DType is TensorFlow's DataType value of the same name", "[dtype]")
{
    int named = 0;
    for (int value = 0; value <= 64; ++value) {
        const auto dtype = static_cast<DType>(value);
        INFO("value " << value);
        if (value == 0 || !tfdbg::DataType_IsValid(value)) {
            CHECK(knownDtypeName(dtype).empty());
            continue;
        }
        const std::string expected = pythonName(tfdbg::DataType_Name(value));
        const std::string_view name = knownDtypeName(dtype);
        if (name.empty()) // a type newer than the vocabulary (float8, int4 …): no name, no size
            CHECK(elementSize(dtype) == 0);
        else
            CHECK(std::string(name) == expected);
        named += name.empty() ? 0 : 1;
    }
    CHECK(named == 23); // DT_FLOAT … DT_UINT64
    CHECK(dtypeName(DType::Invalid) == "unknown");
    CHECK(dtypeName(static_cast<DType>(99)) == "unknown");
}

TEST_CASE("element sizes are the sizes of the C++ types", "[dtype]")
{
    CHECK(elementSize(DType::Float32) == sizeof(float));
    CHECK(elementSize(DType::Float64) == sizeof(double));
    CHECK(elementSize(DType::Float16) == 2);
    CHECK(elementSize(DType::BFloat16) == 2);
    CHECK(elementSize(DType::Int8) == sizeof(std::int8_t));
    CHECK(elementSize(DType::Int16) == sizeof(std::int16_t));
    CHECK(elementSize(DType::Int32) == sizeof(std::int32_t));
    CHECK(elementSize(DType::Int64) == sizeof(std::int64_t));
    CHECK(elementSize(DType::UInt8) == sizeof(std::uint8_t));
    CHECK(elementSize(DType::UInt16) == sizeof(std::uint16_t));
    CHECK(elementSize(DType::UInt32) == sizeof(std::uint32_t));
    CHECK(elementSize(DType::UInt64) == sizeof(std::uint64_t));
    CHECK(elementSize(DType::Bool) == sizeof(bool));
    CHECK(elementSize(DType::Complex64) == sizeof(std::complex<float>));
    CHECK(elementSize(DType::Complex128) == sizeof(std::complex<double>));
    CHECK(elementSize(DType::QInt8) == 1);
    CHECK(elementSize(DType::QInt32) == 4);
    for (const DType none : {DType::Invalid, DType::String, DType::Resource, DType::Variant,
                             static_cast<DType>(-1), static_cast<DType>(24)}) {
        CHECK(elementSize(none) == 0);
        CHECK_FALSE(hasFixedSizeElements(none));
    }
    // Quantized values mean nothing without their scale: nothing reads them element by element.
    CHECK_FALSE(hasFixedSizeElements(DType::QUInt16));
    CHECK(hasFixedSizeElements(DType::Complex64));
}

TEST_CASE("the type classes", "[dtype]")
{
    int floating = 0, integer = 0, alert = 0, quantized = 0;
    for (int value = 0; value <= 24; ++value) {
        const auto dtype = static_cast<DType>(value);
        floating += isFloating(dtype) ? 1 : 0;
        integer += isInteger(dtype) ? 1 : 0;
        alert += isAlertFloating(dtype) ? 1 : 0;
        quantized += isQuantized(dtype) ? 1 : 0;
        if (isAlertFloating(dtype))
            CHECK(isFloating(dtype));
        CHECK_FALSE((isFloating(dtype) && isInteger(dtype)));
    }
    CHECK(floating == 4);
    CHECK(integer == 8);
    CHECK(alert == 3);
    CHECK_FALSE(isAlertFloating(DType::BFloat16)); // TensorFlow's full-tensor alert skips it
    CHECK(quantized == 5);
    CHECK_FALSE(isInteger(DType::Bool));
}

TEST_CASE("float16 decodes exactly, every bit pattern", "[dtype]")
{
    int nans = 0;
    for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
        const auto h = static_cast<std::uint16_t>(bits);
        const float decoded = decodeFloat16(h);
        const double expected = float16ByDefinition(h);
        INFO("bits 0x" << std::hex << bits);
        if (std::isnan(expected)) {
            REQUIRE(std::isnan(decoded));
            ++nans;
            continue;
        }
        REQUIRE(static_cast<double>(decoded) == expected);
        REQUIRE(std::signbit(decoded) == ((h & 0x8000u) != 0)); // -0 stays -0
    }
    CHECK(nans == 2 * 1023);
    CHECK(decodeFloat16(0x0001) == std::ldexp(1.0F, -24)); // the smallest subnormal
    CHECK(decodeFloat16(0x7bff) == 65504.0F);              // the largest finite value
}

TEST_CASE("bfloat16 decodes as the upper half of a float32, every bit pattern", "[dtype]")
{
    for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
        const float decoded = decodeBFloat16(static_cast<std::uint16_t>(bits));
        std::uint32_t wide = 0;
        std::memcpy(&wide, &decoded, sizeof wide);
        REQUIRE(wide == bits << 16);
    }
    CHECK(decodeBFloat16(0x3f80) == 1.0F);
    CHECK(std::isinf(decodeBFloat16(0xff80)));
}
