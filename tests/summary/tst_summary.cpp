// SPDX-License-Identifier: GPL-3.0-or-later
#include "floatformat.hpp"
#include "nanscope/summary.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace nanscope;

namespace {

constexpr std::array kSupported = {
    DType::Float16, DType::BFloat16, DType::Float32, DType::Float64, DType::Int8,
    DType::Int16,   DType::Int32,    DType::Int64,   DType::UInt8,   DType::UInt16,
    DType::UInt32,  DType::UInt64,   DType::Bool,
};

bool isSignedInteger(DType dtype)
{
    return dtype == DType::Int8 || dtype == DType::Int16 || dtype == DType::Int32 ||
           dtype == DType::Int64;
}

std::uint64_t widthMask(std::size_t bytes)
{
    return bytes == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (bytes * 8)) - 1;
}

// Bit patterns at the edges of each class of `dtype`.
std::vector<std::uint64_t> specialPatterns(DType dtype)
{
    std::vector<std::uint64_t> out;
    if (const auto format = test::floatFormat(dtype)) {
        const test::FloatFormat f = *format;
        const std::uint64_t sign = std::uint64_t{1} << (f.bits - 1);
        const std::uint64_t mantissa = (std::uint64_t{1} << f.mantissaBits) - 1;
        const std::uint64_t infinity = (sign - 1) & ~mantissa;
        const std::uint64_t quiet = std::uint64_t{1} << (f.mantissaBits - 1);
        const std::uint64_t magnitudes[] = {
            infinity,            // ±inf
            infinity | quiet,    // quiet NaN
            infinity | 1,        // signalling NaN
            infinity | mantissa, // NaN with every payload bit
            infinity | quiet | 1,
            0,                                  // ±0
            1,                                  // smallest subnormal
            mantissa,                           // largest subnormal
            std::uint64_t{1} << f.mantissaBits, // smallest normal
            infinity - 1,                       // largest finite
        };
        for (const std::uint64_t m : magnitudes) {
            out.push_back(m);
            out.push_back(m | sign);
        }
    } else if (dtype == DType::Bool) {
        out = {0, 1, 2, 0x80, 0xff};
    } else {
        const std::size_t bytes = elementSize(dtype);
        const std::uint64_t all = widthMask(bytes);
        const std::uint64_t top = std::uint64_t{1} << (bytes * 8 - 1);
        // 0, 1, all ones (-1 or max), top bit only (min or a large unsigned), top - 1 (max).
        out = {0, 1, all, top, top - 1, top + 1};
    }
    return out;
}

// `count` random elements at byte `offset` of the returned buffer, about one in eight of
// them a special pattern. Random bit patterns cover every class of every type.
std::vector<unsigned char> randomBuffer(DType dtype, std::size_t count, std::size_t offset,
                                        std::mt19937_64& rng)
{
    const std::size_t bytes = elementSize(dtype);
    std::vector<unsigned char> buffer(offset + count * bytes + 8, 0xa5);
    const std::vector<std::uint64_t> specials = specialPatterns(dtype);
    std::uniform_int_distribution<std::size_t> pickSpecial(0, specials.size() - 1);
    for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t bits = rng();
        if (dtype == DType::Bool)
            bits = (bits & 1) ? (bits >> 8) | 1 : 0; // half false, the rest any non-zero byte
        if ((rng() & 7) == 0)
            bits = specials[pickSpecial(rng)];
        test::storeBits(buffer.data() + offset + i * bytes, bytes, bits & widthMask(bytes));
    }
    return buffer;
}

std::uint64_t classTotal(const HealthCounts& c)
{
    return c.negativeInfinity + c.positiveInfinity + c.nan + c.negativeFinite + c.zero +
           c.positiveFinite;
}

std::string describe(const HealthCounts& c)
{
    return "size " + std::to_string(c.size) + " -inf " + std::to_string(c.negativeInfinity) +
           " +inf " + std::to_string(c.positiveInfinity) + " nan " + std::to_string(c.nan) +
           " -fin " + std::to_string(c.negativeFinite) + " zero " + std::to_string(c.zero) +
           " +fin " + std::to_string(c.positiveFinite);
}

HealthCounts makeCounts(std::uint64_t size, std::uint64_t negInf, std::uint64_t posInf,
                        std::uint64_t nan, std::uint64_t negFinite, std::uint64_t zero,
                        std::uint64_t posFinite)
{
    HealthCounts c;
    c.size = size;
    c.negativeInfinity = negInf;
    c.positiveInfinity = posInf;
    c.nan = nan;
    c.negativeFinite = negFinite;
    c.zero = zero;
    c.positiveFinite = posFinite;
    return c;
}

// Checks both the vectorised counter and the reference against hand-computed counts.
template <class T>
void checkExact(DType dtype, const std::vector<T>& values, const HealthCounts& expected)
{
    INFO("dtype " << dtypeName(dtype));
    REQUIRE(sizeof(T) == elementSize(dtype));
    const HealthCounts fast = countHealth(values.data(), dtype, values.size());
    const HealthCounts reference = countHealthReference(values.data(), dtype, values.size());
    INFO("fast: " << describe(fast) << "; reference: " << describe(reference));
    CHECK(fast == expected);
    CHECK(reference == expected);
}

std::vector<double> summary(TensorDebugMode mode, const void* data, DType dtype,
                            std::vector<std::int64_t> shape, double id)
{
    std::vector<double> out(static_cast<std::size_t>(summaryLength(mode)), -12345.0);
    summarize(mode, data, dtype, shape, id, out);
    return out;
}

} // namespace

TEST_CASE("hand-counted float32 classes", "[summary]")
{
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values = {
        1.0f, -2.0f, 0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 1e-45f};
    // -2 | 0, -0 | 1, 1e-45 (subnormal) | inf | -inf | nan
    checkExact(DType::Float32, values, makeCounts(8, 1, 1, 1, 1, 2, 2));
}

TEST_CASE("hand-counted float32 NaN payloads and subnormals", "[summary]")
{
    const std::vector<std::uint32_t> bits = {
        0x7fc00000,             // quiet NaN
        0xffc00000,             // negative quiet NaN
        0x7f800001,             // signalling NaN
        0xff800001,             // negative signalling NaN
        0x7fffffff, 0xffffffff, // all-ones payloads
        0x80000001,             // negative smallest subnormal
        0x807fffff,             // negative largest subnormal
        0x00000001,             // smallest subnormal
        0x7f7fffff,             // largest finite
        0xff7fffff,             // lowest finite
        0x80000000,             // -0
    };
    checkExact(DType::Float32, bits, makeCounts(12, 0, 0, 6, 3, 1, 2));
}

TEST_CASE("hand-counted float16 classes", "[summary]")
{
    const std::vector<std::uint16_t> bits = {
        0x3c00, // 1
        0xc000, // -2
        0x0000, // 0
        0x8000, // -0
        0x7c00, // inf
        0xfc00, // -inf
        0x7e00, // quiet NaN
        0xfe00, // negative quiet NaN
        0x7c01, // signalling NaN
        0x0001, // smallest subnormal
        0x8001, // negative smallest subnormal
        0x7bff, // 65504, largest finite
    };
    checkExact(DType::Float16, bits, makeCounts(12, 1, 1, 3, 2, 2, 3));
}

TEST_CASE("hand-counted bfloat16 classes", "[summary]")
{
    const std::vector<std::uint16_t> bits = {
        0x3f80, // 1
        0xbf80, // -1
        0x7f80, // inf
        0xff80, // -inf
        0x7fc0, // quiet NaN
        0xff81, // negative signalling NaN
        0x0000, // 0
        0x8000, // -0
        0x0001, // subnormal
        0x7f7f, // largest finite
        0x7c00, // a float16 infinity pattern, an ordinary number in bfloat16
    };
    checkExact(DType::BFloat16, bits, makeCounts(11, 1, 1, 2, 1, 2, 4));
}

TEST_CASE("hand-counted float64 classes", "[summary]")
{
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> values = {-1e308,
                                        -5e-324,
                                        0.0,
                                        -0.0,
                                        1.0,
                                        inf,
                                        -inf,
                                        nan,
                                        -nan,
                                        4.9e-324,
                                        std::numeric_limits<double>::signaling_NaN()};
    checkExact(DType::Float64, values, makeCounts(11, 1, 1, 3, 2, 2, 2));
}

TEST_CASE("hand-counted integer and bool classes", "[summary]")
{
    checkExact(DType::Int8, std::vector<std::int8_t>{-128, -1, 0, 1, 127},
               makeCounts(5, 0, 0, 0, 2, 1, 2));
    checkExact(DType::Int16, std::vector<std::int16_t>{-32768, 0, 0, 32767, 5},
               makeCounts(5, 0, 0, 0, 1, 2, 2));
    checkExact(DType::Int32, std::vector<std::int32_t>{INT32_MIN, -7, 0, INT32_MAX},
               makeCounts(4, 0, 0, 0, 2, 1, 1));
    checkExact(DType::Int64, std::vector<std::int64_t>{INT64_MIN, 0, INT64_MAX, -5, 9, 0},
               makeCounts(6, 0, 0, 0, 2, 2, 2));
    checkExact(DType::UInt8, std::vector<std::uint8_t>{0, 1, 0x80, 0xff},
               makeCounts(4, 0, 0, 0, 0, 1, 3));
    checkExact(DType::UInt16, std::vector<std::uint16_t>{0x8000, 0xffff, 0},
               makeCounts(3, 0, 0, 0, 0, 1, 2));
    checkExact(DType::UInt32, std::vector<std::uint32_t>{0, 1, 0xffffffffu, 0x80000000u},
               makeCounts(4, 0, 0, 0, 0, 1, 3));
    checkExact(DType::UInt64, std::vector<std::uint64_t>{~std::uint64_t{0}, 0, 0, 0},
               makeCounts(4, 0, 0, 0, 0, 3, 1));
    // Any non-zero byte is true.
    checkExact(DType::Bool, std::vector<std::uint8_t>{0, 1, 2, 0xff, 0, 0x80},
               makeCounts(6, 0, 0, 0, 0, 2, 4));
}

TEST_CASE("empty input counts nothing", "[summary]")
{
    for (const DType dtype : kSupported) {
        INFO("dtype " << dtypeName(dtype));
        CHECK(countHealth(nullptr, dtype, 0) == HealthCounts{});
        CHECK(countHealthReference(nullptr, dtype, 0) == HealthCounts{});
    }
}

TEST_CASE("countHealth matches the reference on random misaligned data", "[summary]")
{
    const std::size_t sizes[] = {0, 1, 2, 7, 8, 15, 16, 31, 33, 1000, 65535, 65536, 65537, 200003};
    std::mt19937_64 rng(20240611);
    for (const DType dtype : kSupported) {
        for (const std::size_t count : sizes) {
            for (std::size_t offset = 0; offset < 4; ++offset) {
                const std::vector<unsigned char> buffer = randomBuffer(dtype, count, offset, rng);
                const unsigned char* data = buffer.data() + offset;
                const HealthCounts fast = countHealth(data, dtype, count);
                const HealthCounts reference = countHealthReference(data, dtype, count);
                INFO("dtype " << dtypeName(dtype) << " count " << count << " offset " << offset);
                INFO("fast: " << describe(fast) << "; reference: " << describe(reference));
                REQUIRE(fast == reference);
                REQUIRE(reference.size == count);
                REQUIRE(classTotal(reference) == count);
                if (!isFloating(dtype))
                    REQUIRE(reference.nonFinite() == 0);
                if (!isFloating(dtype) && !isSignedInteger(dtype))
                    REQUIRE(reference.negativeFinite == 0);
            }
        }
    }
}

TEST_CASE("random data exercises every class", "[summary]")
{
    // Guards the comparison above against data that would leave some class always empty.
    std::mt19937_64 rng(7);
    for (const DType dtype : kSupported) {
        INFO("dtype " << dtypeName(dtype));
        const std::vector<unsigned char> buffer = randomBuffer(dtype, 200003, 0, rng);
        const HealthCounts c = countHealthReference(buffer.data(), dtype, 200003);
        CHECK(c.zero > 0);
        CHECK(c.positiveFinite > 0);
        if (isFloating(dtype)) {
            CHECK(c.negativeInfinity > 0);
            CHECK(c.positiveInfinity > 0);
            CHECK(c.nan > 0);
        }
        if (isFloating(dtype) || isSignedInteger(dtype))
            CHECK(c.negativeFinite > 0);
    }
}

TEST_CASE("uniform buffers around block boundaries", "[summary]")
{
    // Every element in one class, so a per-lane counter that wraps or a block that is folded
    // twice or not at all shows up as a wrong total. Blocks are 2^15 elements and the
    // narrowest counters are 16 bits wide.
    const std::size_t sizes[] = {32767, 32768, 32769, 65535,  65536,
                                 65537, 98303, 98305, 131072, 262147};
    struct Case
    {
        DType dtype;
        std::uint64_t bits;
        HealthCounts unit; // the counts of one element
    };
    const std::vector<Case> cases = {
        {DType::Float16, 0x3c00, makeCounts(1, 0, 0, 0, 0, 0, 1)},
        {DType::Float16, 0xbc00, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::Float16, 0x8000, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::Float16, 0x7c00, makeCounts(1, 0, 1, 0, 0, 0, 0)},
        {DType::Float16, 0xfc00, makeCounts(1, 1, 0, 0, 0, 0, 0)},
        {DType::Float16, 0xfe01, makeCounts(1, 0, 0, 1, 0, 0, 0)},
        {DType::BFloat16, 0xff80, makeCounts(1, 1, 0, 0, 0, 0, 0)},
        {DType::BFloat16, 0x7fc0, makeCounts(1, 0, 0, 1, 0, 0, 0)},
        {DType::BFloat16, 0x0000, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::BFloat16, 0x8001, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::Float32, 0x7fc00000, makeCounts(1, 0, 0, 1, 0, 0, 0)},
        {DType::Float32, 0x00000001, makeCounts(1, 0, 0, 0, 0, 0, 1)},
        {DType::Float32, 0xff800000, makeCounts(1, 1, 0, 0, 0, 0, 0)},
        {DType::Float64, 0x7ff0000000000000, makeCounts(1, 0, 1, 0, 0, 0, 0)},
        {DType::Float64, 0xbff0000000000000, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::Float64, 0xfff8000000000000, makeCounts(1, 0, 0, 1, 0, 0, 0)},
        {DType::Int8, 0xff, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::Int8, 0x00, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::Int8, 0x7f, makeCounts(1, 0, 0, 0, 0, 0, 1)},
        {DType::Int16, 0x8000, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::Int32, 0x00000000, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::Int64, 0xffffffffffffffff, makeCounts(1, 0, 0, 0, 1, 0, 0)},
        {DType::UInt8, 0x00, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::UInt8, 0xff, makeCounts(1, 0, 0, 0, 0, 0, 1)},
        {DType::UInt16, 0x0000, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::UInt32, 0x80000000, makeCounts(1, 0, 0, 0, 0, 0, 1)},
        {DType::UInt64, 0x0000000000000000, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::Bool, 0x00, makeCounts(1, 0, 0, 0, 0, 1, 0)},
        {DType::Bool, 0x01, makeCounts(1, 0, 0, 0, 0, 0, 1)},
    };
    for (const Case& c : cases) {
        const std::size_t bytes = elementSize(c.dtype);
        for (const std::size_t count : sizes) {
            std::vector<unsigned char> buffer(count * bytes + 1);
            for (std::size_t i = 0; i < count; ++i)
                test::storeBits(buffer.data() + 1 + i * bytes, bytes, c.bits);
            const auto n = static_cast<std::uint64_t>(count);
            const HealthCounts expected = makeCounts(
                n, c.unit.negativeInfinity * n, c.unit.positiveInfinity * n, c.unit.nan * n,
                c.unit.negativeFinite * n, c.unit.zero * n, c.unit.positiveFinite * n);
            const HealthCounts fast = countHealth(buffer.data() + 1, c.dtype, count);
            INFO("dtype " << dtypeName(c.dtype) << " bits " << c.bits << " count " << count);
            INFO("fast: " << describe(fast));
            REQUIRE(fast == expected);
        }
    }
}

TEST_CASE("one special in a large buffer is found wherever it is", "[summary]")
{
    // The NaN sits in the first, a middle and the last element, and at each block edge.
    const std::size_t count = 3 * 32768 + 5;
    std::vector<float> values(count, 1.5f);
    const std::size_t positions[] = {0, 32767, 32768, 65535, 65536, count - 1};
    for (const std::size_t at : positions) {
        values[at] = std::numeric_limits<float>::quiet_NaN();
        INFO("at " << at);
        CHECK(countHealth(values.data(), DType::Float32, count) ==
              makeCounts(count, 0, 0, 1, 0, 0, count - 1));
        values[at] = 1.5f;
    }
}

TEST_CASE("CONCISE_HEALTH of a [100, 10] float32 tensor with one -inf", "[summary]")
{
    std::vector<float> values(1000, 0.5f);
    values[123] = -std::numeric_limits<float>::infinity();
    CHECK(summary(TensorDebugMode::ConciseHealth, values.data(), DType::Float32, {100, 10}, 7) ==
          std::vector<double>{7, 1000, 1, 0, 0});
    CHECK(summary(TensorDebugMode::CurtHealth, values.data(), DType::Float32, {100, 10}, 7) ==
          std::vector<double>{7, 1});
    CHECK(summary(TensorDebugMode::FullHealth, values.data(), DType::Float32, {100, 10}, 7) ==
          std::vector<double>{7, -1, 1, 2, 1000, 1, 0, 0, 0, 0, 999});
    CHECK(summary(TensorDebugMode::Shape, values.data(), DType::Float32, {100, 10}, 7) ==
          std::vector<double>{7, 1, 2, 1000, 100, 10, 0, 0, 0, 0});
}

TEST_CASE("CURT_HEALTH flags any non-finite element and only those", "[summary]")
{
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> finite = {1, -2, 0, -0.0, 5e-324, 1e308};
    CHECK(summary(TensorDebugMode::CurtHealth, finite.data(), DType::Float64, {6}, -1) ==
          std::vector<double>{-1, 0});
    for (const double special : {inf, -inf, std::numeric_limits<double>::quiet_NaN()}) {
        std::vector<double> values = finite;
        values[3] = special;
        INFO("special " << special);
        CHECK(summary(TensorDebugMode::CurtHealth, values.data(), DType::Float64, {2, 3}, 4) ==
              std::vector<double>{4, 1});
    }
}

TEST_CASE("FULL_HEALTH layout", "[summary]")
{
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Two rows of four: -1, -inf, 0, nan | 2, inf, -0, -nan.
    const std::vector<double> values = {-1, -inf, 0, nan, 2, inf, -0.0, -nan};
    CHECK(summary(TensorDebugMode::FullHealth, values.data(), DType::Float64, {2, 4}, 3) ==
          std::vector<double>{3, -1, 2, 2, 8, 1, 1, 2, 1, 2, 1});

    // float16 as raw bits, rank 1: 1, -1, inf, nan, 0.
    const std::vector<std::uint16_t> half = {0x3c00, 0xbc00, 0x7c00, 0x7e00, 0x0000};
    CHECK(summary(TensorDebugMode::FullHealth, half.data(), DType::Float16, {5}, 11) ==
          std::vector<double>{11, -1, 19, 1, 5, 0, 1, 1, 1, 1, 1});

    const std::vector<std::uint16_t> bf16 = {0xff80, 0x3f80};
    CHECK(summary(TensorDebugMode::FullHealth, bf16.data(), DType::BFloat16, {1, 2}, 0) ==
          std::vector<double>{0, -1, 14, 2, 2, 1, 0, 0, 0, 0, 1});
}

TEST_CASE("FULL_HEALTH of bool and unsigned tensors", "[summary]")
{
    const std::vector<std::uint8_t> flags = {1, 0, 1, 0xff, 0};
    CHECK(summary(TensorDebugMode::FullHealth, flags.data(), DType::Bool, {5}, 1) ==
          std::vector<double>{1, -1, 10, 1, 5, 0, 0, 0, 0, 2, 3});
    CHECK(summary(TensorDebugMode::CurtHealth, flags.data(), DType::Bool, {5}, 1) ==
          std::vector<double>{1, 0});

    const std::vector<std::uint8_t> bytes = {0, 0x80, 0xff, 3};
    CHECK(summary(TensorDebugMode::FullHealth, bytes.data(), DType::UInt8, {2, 2}, 2) ==
          std::vector<double>{2, -1, 4, 2, 4, 0, 0, 0, 0, 1, 3});

    const std::vector<std::uint64_t> big = {0x8000000000000000u, ~std::uint64_t{0}, 0};
    CHECK(summary(TensorDebugMode::FullHealth, big.data(), DType::UInt64, {3}, 2) ==
          std::vector<double>{2, -1, 23, 1, 3, 0, 0, 0, 0, 1, 2});

    const std::vector<std::int32_t> ints = {-3, 0, 4, INT32_MIN};
    CHECK(summary(TensorDebugMode::FullHealth, ints.data(), DType::Int32, {4}, 5) ==
          std::vector<double>{5, -1, 3, 1, 4, 0, 0, 0, 2, 1, 1});
    CHECK(summary(TensorDebugMode::ConciseHealth, ints.data(), DType::Int32, {4}, 5) ==
          std::vector<double>{5, 4, 0, 0, 0});
}

TEST_CASE("SHAPE slots for ranks 0, 2, 6 and 7", "[summary]")
{
    const double zero = 0.0;
    // A scalar has rank 0 and one element.
    CHECK(summary(TensorDebugMode::Shape, &zero, DType::Float64, {}, 9) ==
          std::vector<double>{9, 2, 0, 1, 0, 0, 0, 0, 0, 0});

    const std::vector<std::int32_t> ints(6, 1);
    CHECK(summary(TensorDebugMode::Shape, ints.data(), DType::Int32, {2, 3}, 1) ==
          std::vector<double>{1, 3, 2, 6, 2, 3, 0, 0, 0, 0});

    const std::vector<std::int8_t> rank6(2 * 3 * 1 * 4 * 1 * 5, 0);
    CHECK(summary(TensorDebugMode::Shape, rank6.data(), DType::Int8, {2, 3, 1, 4, 1, 5}, 1) ==
          std::vector<double>{1, 6, 6, 120, 2, 3, 1, 4, 1, 5});

    // Rank 7 keeps the last six dimensions, as TensorFlow does.
    const std::vector<double> rank7(2 * 3 * 4 * 5 * 6 * 7, 1.0);
    CHECK(summary(TensorDebugMode::Shape, rank7.data(), DType::Float64, {1, 2, 3, 4, 5, 6, 7},
                  -1) == std::vector<double>{-1, 2, 7, 5040, 2, 3, 4, 5, 6, 7});
    const std::vector<float> rank8(2 * 3 * 4 * 5 * 6 * 7 * 8 * 9, 1.0f);
    CHECK(summary(TensorDebugMode::Shape, rank8.data(), DType::Float32, {2, 3, 4, 5, 6, 7, 8, 9},
                  0) == std::vector<double>{0, 1, 8, 362880, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("empty tensors", "[summary]")
{
    const std::vector<float> none;
    CHECK(summary(TensorDebugMode::CurtHealth, none.data(), DType::Float32, {0}, 5) ==
          std::vector<double>{5, 0});
    CHECK(summary(TensorDebugMode::ConciseHealth, none.data(), DType::Float32, {3, 0, 2}, 5) ==
          std::vector<double>{5, 0, 0, 0, 0});
    CHECK(summary(TensorDebugMode::FullHealth, none.data(), DType::Float32, {3, 0, 2}, 5) ==
          std::vector<double>{5, -1, 1, 3, 0, 0, 0, 0, 0, 0, 0});
    CHECK(summary(TensorDebugMode::Shape, none.data(), DType::Float32, {3, 0, 2}, 5) ==
          std::vector<double>{5, 1, 3, 0, 3, 0, 2, 0, 0, 0});
}

TEST_CASE("modes without a summary write nothing", "[summary]")
{
    const float value = std::numeric_limits<float>::quiet_NaN();
    std::array<double, 4> out = {8, 8, 8, 8};
    for (const TensorDebugMode mode : {TensorDebugMode::NoTensor, TensorDebugMode::FullTensor}) {
        summarize(mode, &value, DType::Float32, {}, 1, out);
        CHECK(out == std::array<double, 4>{8, 8, 8, 8});
    }
}

TEST_CASE("summaryFromCounts keeps counts above 2^32 exact", "[summary]")
{
    const std::uint64_t base = std::uint64_t{1} << 33;
    const HealthCounts counts =
        makeCounts(6 * base + 21, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6);
    const std::vector<std::int64_t> shape = {3, static_cast<std::int64_t>(2 * base + 7)};
    std::vector<double> full(11);
    summaryFromCounts(TensorDebugMode::FullHealth, counts, DType::Float32, shape, 12, full);
    CHECK(full == std::vector<double>{12, -1, 1, 2, 51539607573.0, 8589934593.0, 8589934594.0,
                                      8589934595.0, 8589934596.0, 8589934597.0, 8589934598.0});

    std::vector<double> concise(5);
    summaryFromCounts(TensorDebugMode::ConciseHealth, counts, DType::Float32, shape, 12, concise);
    CHECK(concise ==
          std::vector<double>{12, 51539607573.0, 8589934593.0, 8589934594.0, 8589934595.0});

    std::vector<double> curt(2);
    summaryFromCounts(TensorDebugMode::CurtHealth, counts, DType::Float32, shape, 12, curt);
    CHECK(curt == std::vector<double>{12, 1});
    summaryFromCounts(TensorDebugMode::CurtHealth, makeCounts(base, 0, 0, 0, 0, base, 0),
                      DType::Float32, shape, 12, curt);
    CHECK(curt == std::vector<double>{12, 0});

    std::vector<double> shapeOut(10);
    summaryFromCounts(TensorDebugMode::Shape, counts, DType::Float32, shape, 12, shapeOut);
    CHECK(shapeOut == std::vector<double>{12, 1, 2, 51539607573.0, 3, 17179869191.0, 0, 0, 0, 0});
}
