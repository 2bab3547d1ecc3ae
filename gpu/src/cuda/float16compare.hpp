// SPDX-License-Identifier: Apache-2.0
// The health kernel's 16-bit floats on Hopper (sm_90 and later): classified by the
// half-precision units' own comparisons, and counted there too.
//
// The integer lane arithmetic of healthcount.hpp needs about fourteen integer instructions per
// word when a warp meets a NaN or an infinity, and random bits (a NaN or infinity in every
// fourth vector of float16) kept the integer units, a quarter of the issue slots, too busy to
// keep up with memory. Here each word is two lanes of one set.f16x2 or set.bf16x2 per class
// (1.0 in a lane where it holds, 0.0 where not) and one add of that into a half-precision
// count: ten instructions on the floating-point units, none on the integer ones. Counts stay
// exact: a thread adds at most 16 words before its chunk's counts are folded, and float16 and
// bfloat16 hold every integer up to 256.
//
// Comparisons follow IEEE 754 without flushing subnormals: -0 equals 0, a negative subnormal is
// below 0, a NaN is unordered (neither zero nor negative). That is the classification of
// FloatFormat, which the [gpu] tests check over every 16-bit pattern.
//
// The default on sm_90 (NANSCOPE_CUDA_HALF_COMPARE, ON): on an H200 the [gpu] tests pass with it,
// and random bits read at 101.5 % (float16) and 102.8 % (bfloat16) of a copy's throughput, where
// the integer lanes reached 61.7 % and 72.8 %. -DNANSCOPE_CUDA_HALF_COMPARE=OFF builds the
// integer lanes for Hopper too, as scripts/gpu-check.sh does to test them there.
#pragma once

#if defined(NANSCOPE_HALF_COMPARE) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define NANSCOPE_FLOAT16_COMPARE 1

#include <cstdint>

namespace nanscope::gpu::detail {

template <bool BFloat>
struct Float16Compare
{
    static constexpr std::uint32_t kBytes = 2;
    static constexpr std::uint32_t kPositiveInfinity = BFloat ? 0x7f807f80u : 0x7c007c00u;
    static constexpr std::uint32_t kNegativeInfinity = kPositiveInfinity | 0x80008000u;

    // Two half-precision counts per word, +0.0 at first.
    struct Lanes
    {
        std::uint32_t nan = 0;
        std::uint32_t positiveInfinity = 0;
        std::uint32_t negativeInfinity = 0;
        std::uint32_t negative = 0; // below zero: the negative finite values and -inf
        std::uint32_t zero = 0;
    };

    static __device__ __forceinline__ std::uint32_t equal(std::uint32_t a, std::uint32_t b)
    {
        std::uint32_t d;
        if constexpr (BFloat)
            asm("set.eq.bf16x2.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        else
            asm("set.eq.f16x2.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }

    static __device__ __forceinline__ std::uint32_t below(std::uint32_t a, std::uint32_t b)
    {
        std::uint32_t d;
        if constexpr (BFloat)
            asm("set.lt.bf16x2.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        else
            asm("set.lt.f16x2.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }

    static __device__ __forceinline__ std::uint32_t isNaN(std::uint32_t a)
    {
        std::uint32_t d;
        if constexpr (BFloat)
            asm("set.nan.bf16x2.bf16x2 %0, %1, %1;" : "=r"(d) : "r"(a));
        else
            asm("set.nan.f16x2.f16x2 %0, %1, %1;" : "=r"(d) : "r"(a));
        return d;
    }

    static __device__ __forceinline__ void add(std::uint32_t& count, std::uint32_t ones)
    {
        if constexpr (BFloat)
            asm("add.rn.bf16x2 %0, %0, %1;" : "+r"(count) : "r"(ones));
        else
            asm("add.rn.f16x2 %0, %0, %1;" : "+r"(count) : "r"(ones));
    }

    static __device__ __forceinline__ void word(std::uint32_t w, Lanes& l)
    {
        add(l.nan, isNaN(w));
        add(l.positiveInfinity, equal(w, kPositiveInfinity));
        add(l.negativeInfinity, equal(w, kNegativeInfinity));
        add(l.negative, below(w, 0u));
        add(l.zero, equal(w, 0u));
    }

    static __device__ __forceinline__ void vector(Words q, Lanes& l)
    {
        word(q.x, l);
        word(q.y, l);
        word(q.z, l);
        word(q.w, l);
    }

    // A lane's count as an integer.
    static __device__ __forceinline__ std::uint32_t lane(std::uint32_t bits16)
    {
        float f;
        if constexpr (BFloat) {
            f = __uint_as_float(bits16 << 16);
        } else {
            asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(static_cast<unsigned short>(bits16)));
        }
        return static_cast<std::uint32_t>(f);
    }

    static __device__ __forceinline__ std::uint32_t laneSum(std::uint32_t v)
    {
        return lane(v & 0xffffu) + lane(v >> 16);
    }

    static __device__ __forceinline__ void addCounters(const Lanes& l, Counters& c)
    {
        const std::uint32_t negativeInfinity = laneSum(l.negativeInfinity);
        c.nan += laneSum(l.nan);
        c.positiveInfinity += laneSum(l.positiveInfinity);
        c.negativeInfinity += negativeInfinity;
        c.negativeFinite += laneSum(l.negative) - negativeInfinity;
        c.zero += laneSum(l.zero);
    }

    static __device__ __forceinline__ void scalar(const unsigned char* p, Counters& c)
    {
        Float16Bits<BFloat ? 0x7f80u : 0x7c00u>::scalar(p, c);
    }
};

} // namespace nanscope::gpu::detail

#endif
