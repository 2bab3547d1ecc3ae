// SPDX-License-Identifier: Apache-2.0
#include "nanscope/summary.hpp"

#include "nanscope/tensorview.hpp"
#include "nanscope/unaligned.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

// The kernels below are written for GCC's auto-vectoriser (this file is built with -O3): they
// classify elements by their integer bit patterns with branch-free comparisons, so a comparison
// becomes one vector compare whose all-ones mask is subtracted from a per-lane counter.
//
// Counters have the width of the element (16-bit lanes for float16, 32-bit for float32 …) so
// that no widening is needed in the loop; they are folded into the 64-bit totals after every
// block of kBlockElements, small enough that a 16-bit counter cannot wrap. Bytes use 8-bit
// counters per column instead (countByteBits). The last class is the total minus the others.
//
// On x86-64 with glibc each kernel is cloned for AVX2, SSE4.2 and the baseline (SSE2), and an
// ifunc resolver picks the clone once at load time, so one build runs on any x86-64 CPU. AVX2
// is what matters on current CPUs; SSE4.2 brings the 64-bit compares that float64 needs and SSE2
// lacks. An AVX-512 clone was measured slower than AVX2 with GCC 12's code, so there is none.
// ThreadSanitizer builds keep the baseline only: the resolver runs while the program is being
// relocated, before the sanitizer's runtime exists, and instrumented it crashes at start-up.
#if defined(__SANITIZE_THREAD__)
#define NANSCOPE_SUMMARY_NO_CLONES
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NANSCOPE_SUMMARY_NO_CLONES
#endif
#endif
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute) &&                       \
    !defined(NANSCOPE_SUMMARY_NO_CLONES)
#if __has_attribute(target_clones)
#define NANSCOPE_SUMMARY_KERNEL __attribute__((target_clones("avx2", "sse4.2", "default")))
#endif
#endif
#ifndef NANSCOPE_SUMMARY_KERNEL
#define NANSCOPE_SUMMARY_KERNEL
#endif

#if defined(__GNUC__)
#define NANSCOPE_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define NANSCOPE_ALWAYS_INLINE inline
#endif

namespace nanscope {
namespace {

// 2^15 elements: a counter of any lane width, including 16-bit ones, holds the whole block's
// count, and a fold costs a few instructions per 32 KiB or more of data.
constexpr std::size_t kBlockElements = std::size_t{1} << 15;

// IEEE-754 binary formats (nanscope/dtype.hpp's FloatFormat): each class is one of the format's
// branch-free predicates, which vectorise into one compare plus one counter update per class.
template <class Format>
NANSCOPE_ALWAYS_INLINE HealthCounts countFloatBits(const unsigned char* data, std::uint64_t count)
{
    using U = typename Format::Bits;
    // Aggregate initialisation, not the implicit constructor: Clang 16 does not emit that
    // constructor for target_clones functions, and the link fails.
    HealthCounts totals{};
    totals.size = count;
    for (std::uint64_t done = 0; done < count; done += kBlockElements) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kBlockElements, count - done));
        const unsigned char* block = data + done * sizeof(U);
        U nan = 0, positiveInf = 0, negativeInf = 0, zero = 0, negativeFinite = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const U bits = loadUnaligned<U>(block + i * sizeof(U));
            nan += Format::isNaN(bits);
            zero += Format::isZero(bits);
            positiveInf += Format::isPositiveInfinity(bits);
            negativeInf += Format::isNegativeInfinity(bits);
            negativeFinite += Format::isNegativeFinite(bits);
        }
        totals.nan += nan;
        totals.positiveInfinity += positiveInf;
        totals.negativeInfinity += negativeInf;
        totals.zero += zero;
        totals.negativeFinite += negativeFinite;
    }
    totals.positiveFinite = count - totals.nan - totals.positiveInfinity - totals.negativeInfinity -
                            totals.zero - totals.negativeFinite;
    return totals;
}

// Integers of 16 bits and more, two's-complement (Signed) or unsigned: only zero and the sign
// matter.
template <class U, bool Signed>
NANSCOPE_ALWAYS_INLINE HealthCounts countIntegerBits(const unsigned char* data, std::uint64_t count)
{
    using S = std::make_signed_t<U>;
    HealthCounts totals{};
    totals.size = count;
    for (std::uint64_t done = 0; done < count; done += kBlockElements) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kBlockElements, count - done));
        const unsigned char* block = data + done * sizeof(U);
        U zero = 0, negative = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const U bits = loadUnaligned<U>(block + i * sizeof(U));
            zero += bits == 0;
            if constexpr (Signed)
                negative += static_cast<S>(bits) < 0;
        }
        totals.zero += zero;
        totals.negativeFinite += negative;
    }
    totals.positiveFinite = count - totals.zero - totals.negativeFinite;
    return totals;
}

// Bytes (int8, uint8, bool). A plain reduction would need 8-bit counters that wrap after 255
// elements, or widening to 16 bits that costs more than the compares; instead each of kByteLanes
// columns gets its own 8-bit counter, advanced for at most 255 rows before it is folded. The
// vectoriser keeps the counter arrays in registers.
constexpr std::size_t kByteLanes = 64;
constexpr std::size_t kByteRows = 255;

template <bool Signed>
NANSCOPE_ALWAYS_INLINE HealthCounts countByteBits(const unsigned char* data, std::uint64_t count)
{
    HealthCounts totals{};
    totals.size = count;
    const std::uint64_t rows = count / kByteLanes;
    for (std::uint64_t row = 0; row < rows; row += kByteRows) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kByteRows, rows - row));
        const unsigned char* block = data + row * kByteLanes;
        std::uint8_t zero[kByteLanes] = {};
        std::uint8_t negative[kByteLanes] = {};
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < kByteLanes; ++j) {
                const unsigned char b = block[i * kByteLanes + j];
                zero[j] += b == 0;
                if constexpr (Signed)
                    negative[j] += static_cast<signed char>(b) < 0;
            }
        }
        for (std::size_t j = 0; j < kByteLanes; ++j) {
            totals.zero += zero[j];
            totals.negativeFinite += negative[j];
        }
    }
    for (std::uint64_t i = rows * kByteLanes; i < count; ++i) {
        totals.zero += data[i] == 0;
        if constexpr (Signed)
            totals.negativeFinite += static_cast<signed char>(data[i]) < 0;
    }
    totals.positiveFinite = count - totals.zero - totals.negativeFinite;
    return totals;
}

// One non-template function per element kind, so that each can be multiversioned.
NANSCOPE_SUMMARY_KERNEL HealthCounts countFloat16(const unsigned char* data, std::uint64_t count)
{
    return countFloatBits<Float16Format>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countBFloat16(const unsigned char* data, std::uint64_t count)
{
    return countFloatBits<BFloat16Format>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countFloat32(const unsigned char* data, std::uint64_t count)
{
    return countFloatBits<Float32Format>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countFloat64(const unsigned char* data, std::uint64_t count)
{
    return countFloatBits<Float64Format>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countSigned8(const unsigned char* data, std::uint64_t count)
{
    return countByteBits<true>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countSigned16(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint16_t, true>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countSigned32(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint32_t, true>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countSigned64(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint64_t, true>(data, count);
}

// uint8 and bool: a bool byte is true when non-zero, exactly as an unsigned byte is positive.
NANSCOPE_SUMMARY_KERNEL HealthCounts countUnsigned8(const unsigned char* data, std::uint64_t count)
{
    return countByteBits<false>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countUnsigned16(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint16_t, false>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countUnsigned32(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint32_t, false>(data, count);
}

NANSCOPE_SUMMARY_KERNEL HealthCounts countUnsigned64(const unsigned char* data, std::uint64_t count)
{
    return countIntegerBits<std::uint64_t, false>(data, count);
}

// --- Reference: one element at a time, through real floating-point values. ---

void classifyFloating(double value, HealthCounts& counts)
{
    if (std::isnan(value))
        ++counts.nan;
    else if (std::isinf(value))
        ++(std::signbit(value) ? counts.negativeInfinity : counts.positiveInfinity);
    else if (value == 0.0)
        ++counts.zero;
    else if (value < 0.0)
        ++counts.negativeFinite;
    else
        ++counts.positiveFinite;
}

template <class T, class Decode>
HealthCounts referenceFloating(const unsigned char* data, std::uint64_t count, Decode decode)
{
    HealthCounts counts;
    counts.size = count;
    for (std::uint64_t i = 0; i < count; ++i)
        classifyFloating(static_cast<double>(decode(loadUnaligned<T>(data + i * sizeof(T)))),
                         counts);
    return counts;
}

template <class T>
HealthCounts referenceInteger(const unsigned char* data, std::uint64_t count)
{
    HealthCounts counts;
    counts.size = count;
    for (std::uint64_t i = 0; i < count; ++i) {
        const T value = loadUnaligned<T>(data + i * sizeof(T));
        if (value == 0)
            ++counts.zero;
        else if (value < 0)
            ++counts.negativeFinite;
        else
            ++counts.positiveFinite;
    }
    return counts;
}

HealthCounts referenceBool(const unsigned char* data, std::uint64_t count)
{
    HealthCounts counts;
    counts.size = count;
    for (std::uint64_t i = 0; i < count; ++i)
        ++(data[i] != 0 ? counts.positiveFinite : counts.zero);
    return counts;
}

} // namespace

// Unsupported types (string, complex, resource, variant, invalid) are never passed by callers;
// they get a size and no classified elements rather than a guess at their contents.
HealthCounts countHealth(const void* data, DType dtype, std::uint64_t count)
{
    const auto* bytes = static_cast<const unsigned char*>(data);
    switch (dtype) {
    case DType::Float16:
        return countFloat16(bytes, count);
    case DType::BFloat16:
        return countBFloat16(bytes, count);
    case DType::Float32:
        return countFloat32(bytes, count);
    case DType::Float64:
        return countFloat64(bytes, count);
    case DType::Int8:
        return countSigned8(bytes, count);
    case DType::Int16:
        return countSigned16(bytes, count);
    case DType::Int32:
        return countSigned32(bytes, count);
    case DType::Int64:
        return countSigned64(bytes, count);
    case DType::UInt8:
    case DType::Bool:
        return countUnsigned8(bytes, count);
    case DType::UInt16:
        return countUnsigned16(bytes, count);
    case DType::UInt32:
        return countUnsigned32(bytes, count);
    case DType::UInt64:
        return countUnsigned64(bytes, count);
    case DType::Invalid:
    case DType::String:
    case DType::Complex64:
    case DType::Complex128:
    case DType::Resource:
    case DType::Variant:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt16:
    case DType::QUInt16:
    case DType::QInt32:
        break;
    }
    HealthCounts counts;
    counts.size = count;
    return counts;
}

HealthCounts countHealthReference(const void* data, DType dtype, std::uint64_t count)
{
    const auto* bytes = static_cast<const unsigned char*>(data);
    switch (dtype) {
    case DType::Float16:
        return referenceFloating<std::uint16_t>(bytes, count, decodeFloat16);
    case DType::BFloat16:
        return referenceFloating<std::uint16_t>(bytes, count, decodeBFloat16);
    case DType::Float32:
        return referenceFloating<float>(bytes, count, [](float v) { return v; });
    case DType::Float64:
        return referenceFloating<double>(bytes, count, [](double v) { return v; });
    case DType::Int8:
        return referenceInteger<std::int8_t>(bytes, count);
    case DType::Int16:
        return referenceInteger<std::int16_t>(bytes, count);
    case DType::Int32:
        return referenceInteger<std::int32_t>(bytes, count);
    case DType::Int64:
        return referenceInteger<std::int64_t>(bytes, count);
    case DType::UInt8:
        return referenceInteger<std::uint8_t>(bytes, count);
    case DType::UInt16:
        return referenceInteger<std::uint16_t>(bytes, count);
    case DType::UInt32:
        return referenceInteger<std::uint32_t>(bytes, count);
    case DType::UInt64:
        return referenceInteger<std::uint64_t>(bytes, count);
    case DType::Bool:
        return referenceBool(bytes, count);
    case DType::Invalid:
    case DType::String:
    case DType::Complex64:
    case DType::Complex128:
    case DType::Resource:
    case DType::Variant:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt16:
    case DType::QUInt16:
    case DType::QInt32:
        break;
    }
    HealthCounts counts;
    counts.size = count;
    return counts;
}

void summarize(TensorDebugMode mode, const void* data, DType dtype,
               std::span<const std::int64_t> shape, double tensorId, std::span<double> out)
{
    // A shape with a negative dimension or an overflowing product describes no readable
    // elements; summarise it as empty rather than read an unknown amount of memory.
    const auto count = static_cast<std::uint64_t>(elementCount(shape).value_or(0));

    HealthCounts counts;
    if (mode == TensorDebugMode::Shape)
        counts.size = count; // SHAPE reports no classes, so the data is not read
    else if (summaryLength(mode) > 0 && count > 0)
        counts = countHealth(data, dtype, count);
    summaryFromCounts(mode, counts, dtype, shape, tensorId, out);
}

void summaryFromCounts(TensorDebugMode mode, const HealthCounts& counts, DType dtype,
                       std::span<const std::int64_t> shape, double tensorId, std::span<double> out)
{
    assert(out.size() >= static_cast<std::size_t>(summaryLength(mode)));
    const auto value = [](std::uint64_t n) {
        return static_cast<double>(n);
    };
    const double dtypeValue = static_cast<double>(static_cast<int>(dtype));
    const double rank = static_cast<double>(shape.size());

    switch (mode) {
    case TensorDebugMode::CurtHealth:
        out[0] = tensorId;
        out[1] = counts.nonFinite() > 0 ? 1.0 : 0.0;
        return;
    case TensorDebugMode::ConciseHealth:
        out[0] = tensorId;
        out[1] = value(counts.size);
        out[2] = value(counts.negativeInfinity);
        out[3] = value(counts.positiveInfinity);
        out[4] = value(counts.nan);
        return;
    case TensorDebugMode::FullHealth:
        out[0] = tensorId;
        out[1] = -1.0; // device id: TensorFlow always writes -1
        out[2] = dtypeValue;
        out[3] = rank;
        out[4] = value(counts.size);
        out[5] = value(counts.negativeInfinity);
        out[6] = value(counts.positiveInfinity);
        out[7] = value(counts.nan);
        out[8] = value(counts.negativeFinite);
        out[9] = value(counts.zero);
        out[10] = value(counts.positiveFinite);
        return;
    case TensorDebugMode::Shape: {
        out[0] = tensorId;
        out[1] = dtypeValue;
        out[2] = rank;
        out[3] = value(counts.size);
        // Six slots; a higher-rank shape keeps its last six dimensions, as TensorFlow does.
        constexpr std::size_t slots = 6;
        const std::size_t kept = std::min(shape.size(), slots);
        const auto tail = shape.last(kept);
        for (std::size_t i = 0; i < slots; ++i)
            out[4 + i] = i < kept ? static_cast<double>(tail[i]) : 0.0;
        return;
    }
    case TensorDebugMode::NoTensor:
    case TensorDebugMode::FullTensor:
        return;
    }
}

} // namespace nanscope
