// SPDX-License-Identifier: GPL-3.0-or-later
// The one dtype vocabulary (nanscope/dtype.hpp) against the wire it names: TensorFlow's DataType
// enum as our types.proto spells it, element sizes against the C++ types, the 16-bit float
// decoders against an independent computation over every bit pattern, and the classes of float
// bit patterns against std::fpclassify of the decoded values. Also the unaligned load
// (nanscope/unaligned.hpp) every layer reads bytes with.
#include "nanscope/dtype.hpp"
#include "nanscope/tfdbg/types.pb.h"
#include "nanscope/unaligned.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// The class of a value by the C library, independent of FloatFormat's bit arithmetic.
FloatClass libraryClass(double value)
{
    switch (std::fpclassify(value)) {
    case FP_NAN:
        return FloatClass::NaN;
    case FP_INFINITE:
        return std::signbit(value) ? FloatClass::NegativeInfinity : FloatClass::PositiveInfinity;
    case FP_ZERO:
        return FloatClass::Zero;
    default:
        return std::signbit(value) ? FloatClass::NegativeFinite : FloatClass::PositiveFinite;
    }
}

// Each predicate says yes for its own class and no other.
template <class Format>
void checkPredicates(typename Format::Bits bits, FloatClass expected)
{
    REQUIRE(Format::classify(bits) == expected);
    REQUIRE(Format::isNaN(bits) == (expected == FloatClass::NaN));
    REQUIRE(Format::isPositiveInfinity(bits) == (expected == FloatClass::PositiveInfinity));
    REQUIRE(Format::isNegativeInfinity(bits) == (expected == FloatClass::NegativeInfinity));
    REQUIRE(Format::isZero(bits) == (expected == FloatClass::Zero));
    REQUIRE(Format::isNegativeFinite(bits) == (expected == FloatClass::NegativeFinite));
    REQUIRE(Format::isPositiveFinite(bits) == (expected == FloatClass::PositiveFinite));
}

// The patterns at the edges of every class, with either sign: zero, the smallest subnormal, the
// largest finite value, infinity, the first and last NaN.
template <class Format>
std::vector<typename Format::Bits> edgePatterns()
{
    using Bits = typename Format::Bits;
    std::vector<Bits> edges;
    for (const Bits magnitude :
         {Bits{0}, Bits{1}, static_cast<Bits>(Format::kInfinity - 1), Format::kInfinity,
          static_cast<Bits>(Format::kInfinity + 1), Format::kMagnitude}) {
        edges.push_back(magnitude);
        edges.push_back(static_cast<Bits>(magnitude | Format::kSign));
    }
    return edges;
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

TEST_CASE("float16 and bfloat16 bit patterns classify as their values, every pattern", "[dtype]")
{
    for (std::uint32_t wide = 0; wide <= 0xffffu; ++wide) {
        const auto bits = static_cast<std::uint16_t>(wide);
        checkPredicates<Float16Format>(bits, libraryClass(decodeFloat16(bits)));
        checkPredicates<BFloat16Format>(bits, libraryClass(decodeBFloat16(bits)));
    }
}

TEST_CASE("float32 and float64 bit patterns classify as their values", "[dtype]")
{
    const auto float32 = [](std::uint32_t bits) {
        return static_cast<double>(loadUnaligned<float>(&bits));
    };
    const auto float64 = [](std::uint64_t bits) {
        return loadUnaligned<double>(&bits);
    };
    for (const std::uint32_t bits : edgePatterns<Float32Format>())
        checkPredicates<Float32Format>(bits, libraryClass(float32(bits)));
    for (const std::uint64_t bits : edgePatterns<Float64Format>())
        checkPredicates<Float64Format>(bits, libraryClass(float64(bits)));
    std::mt19937_64 random(7);
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t bits = random();
        checkPredicates<Float32Format>(static_cast<std::uint32_t>(bits),
                                       libraryClass(float32(static_cast<std::uint32_t>(bits))));
        checkPredicates<Float64Format>(bits, libraryClass(float64(bits)));
        // Exponents of all ones are rare among random patterns: force them too.
        const std::uint64_t special = bits | Float64Format::kInfinity;
        checkPredicates<Float64Format>(special, libraryClass(float64(special)));
    }
}

TEST_CASE("values classify as their bit patterns do", "[dtype]")
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    static_assert(classifyFloat(-inf) == FloatClass::NegativeInfinity);
    static_assert(classifyFloat(inf) == FloatClass::PositiveInfinity);
    static_assert(classifyFloat(-0.0) == FloatClass::Zero);
    static_assert(classifyFloat(-std::numeric_limits<double>::denorm_min()) ==
                  FloatClass::NegativeFinite);
    static_assert(classifyFloat(std::numeric_limits<double>::max()) == FloatClass::PositiveFinite);
    static_assert(Float32Format::classify(0xffc00000u) == FloatClass::NaN); // constexpr too
    CHECK(classifyFloat(std::numeric_limits<double>::quiet_NaN()) == FloatClass::NaN);
    CHECK(classifyFloat(-std::numeric_limits<double>::quiet_NaN()) == FloatClass::NaN);
    for (const std::uint64_t bits : edgePatterns<Float64Format>())
        CHECK(classifyFloat(loadUnaligned<double>(&bits)) == Float64Format::classify(bits));
}

TEST_CASE("an unaligned load reads the bytes at any offset, of char and unsigned char", "[dtype]")
{
    unsigned char bytes[16] = {};
    const std::uint64_t value = 0x0102030405060708u;
    const double real = -2.5;
    for (std::size_t offset = 0; offset + sizeof value <= sizeof bytes; ++offset) {
        std::memcpy(bytes + offset, &value, sizeof value);
        CHECK(loadUnaligned<std::uint64_t>(bytes + offset) == value);
        const auto* chars = reinterpret_cast<const char*>(bytes);
        CHECK(loadUnaligned<std::uint64_t>(chars + offset) == value);
        std::memcpy(bytes + offset, &real, sizeof real);
        CHECK(loadUnaligned<double>(bytes + offset) == real);
    }
    // Little-endian, as every file NaNscope reads is.
    const unsigned char le[4] = {0x78, 0x56, 0x34, 0x12};
    CHECK(loadUnaligned<std::uint32_t>(le) == 0x12345678u);
    CHECK(loadUnaligned<std::uint16_t>(le + 1) == 0x3456u);
}
