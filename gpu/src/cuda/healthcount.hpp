// SPDX-License-Identifier: Apache-2.0
// The health kernel's arithmetic, compilable by nvcc for the device and by a C++ compiler for
// the host, so that tests run the kernel's exact code on the CPU (tests/gpu/
// tst_kernelemulation.cpp) on machines without a GPU.
//
// Elements are classified by their bit patterns with integer arithmetic only (a NaN is a NaN
// whatever its payload; -0 is a zero; subnormals are finite) into 32-bit per-thread counters.
#pragma once

#include "kernelabi.hpp"
#include "nanscope/dtype.hpp"
#include "nanscope/unaligned.hpp"

#include <cstdint>

#if defined(__CUDACC__)
#define NANSCOPE_HD __host__ __device__ __forceinline__
#else
#define NANSCOPE_HD inline
#endif

namespace nanscope::gpu::detail {

struct Counters
{
    std::uint32_t negativeInfinity = 0;
    std::uint32_t positiveInfinity = 0;
    std::uint32_t nan = 0;
    std::uint32_t negativeFinite = 0;
    std::uint32_t zero = 0;
};

// Sixteen bytes as four little-endian words.
struct Words
{
    std::uint32_t x, y, z, w;
};

// Read-only loads: through the read-only data path on the device, the format's unaligned load on
// the host.
template <class T>
NANSCOPE_HD T load(const unsigned char* p)
{
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 16) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(p));
        return T{q.x, q.y, q.z, q.w};
    } else if constexpr (sizeof(T) == 8) {
        return static_cast<T>(__ldg(reinterpret_cast<const unsigned long long*>(p)));
    } else if constexpr (sizeof(T) == 4) {
        return static_cast<T>(__ldg(reinterpret_cast<const unsigned int*>(p)));
    } else if constexpr (sizeof(T) == 2) {
        return static_cast<T>(__ldg(reinterpret_cast<const unsigned short*>(p)));
    } else {
        return static_cast<T>(__ldg(p));
    }
#else
    return loadUnaligned<T>(p);
#endif
}

NANSCOPE_HD std::uint32_t popc(std::uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return static_cast<std::uint32_t>(__popc(x));
#else
    return static_cast<std::uint32_t>(__builtin_popcount(x));
#endif
}

NANSCOPE_HD std::uint32_t bits(bool b)
{
    return b ? 1u : 0u;
}

NANSCOPE_HD std::uint32_t maxOf(std::uint32_t a, std::uint32_t b)
{
    return a > b ? a : b;
}

NANSCOPE_HD std::uint64_t minOf(std::uint64_t a, std::uint64_t b)
{
    return a < b ? a : b;
}

NANSCOPE_HD std::uint64_t maxOf(std::uint64_t a, std::uint64_t b)
{
    return a > b ? a : b;
}

// What a kind's vectors add to while a thread reads its share of a chunk (`Lanes`), and how
// that is added to the thread's counters at the end: here, the counters themselves.
struct CountsDirectly
{
    using Lanes = Counters;

    NANSCOPE_HD static void addCounters(const Counters& from, Counters& to)
    {
        to.negativeInfinity += from.negativeInfinity;
        to.positiveInfinity += from.positiveInfinity;
        to.nan += from.nan;
        to.negativeFinite += from.negativeFinite;
        to.zero += from.zero;
    }
};

// Whether any thread of the warp still in the loop has `b`: on the device a vote, so that the
// warp takes one branch and never runs both; on the host a thread alone.
NANSCOPE_HD bool anyInWarp(bool b)
{
#if defined(__CUDA_ARCH__)
    return __any_sync(__activemask(), b) != 0;
#else
    return b;
#endif
}

// --- 16-bit floats, two per 32-bit word. Lane arithmetic: with m the 15-bit magnitude of a
// lane, m + (0x8000 - k) sets the lane's top bit exactly when m >= k, and never carries into
// the next lane because m + 0x8000 - k stays below 0x10000 for the k used here.
//
// The classes are counted in the lanes themselves (`Lanes`): a lane's flag, its top bit, is
// shifted down to the lane's bottom and added, so a counter holds two 16-bit lane counts. That
// needs no population count, whose throughput (a quarter of the integer units') made random
// bits run at half the memory bandwidth. A thread adds at most 16 words to a Lanes before it is
// folded at the end of its chunk, far below a lane's 65535.

template <std::uint32_t Infinity>
struct Float16Bits
{
    static constexpr std::uint32_t kBytes = 2;
    static constexpr std::uint32_t kTops = 0x80008000u;
    static constexpr std::uint32_t kMagnitudes = 0x7fff7fffu;
    static constexpr std::uint32_t kAtLeastInfinity = (0x8000u - Infinity) * 0x00010001u;
    static constexpr std::uint32_t kAboveInfinity = (0x8000u - Infinity - 1u) * 0x00010001u;
    static constexpr std::uint32_t kNonZero = 0x7fff7fffu;

    // Per-lane counts; positive infinities are the infinities less the negative ones.
    struct Lanes
    {
        std::uint32_t nan = 0;
        std::uint32_t infinity = 0;
        std::uint32_t negativeInfinity = 0;
        std::uint32_t negativeFinite = 0;
        std::uint32_t zero = 0;
    };

    // Adds the lanes' flags (top bits, nothing else set) to their counts: one LEA.HI.
    NANSCOPE_HD static void add(std::uint32_t& count, std::uint32_t flags) { count += flags >> 15; }

    NANSCOPE_HD static void word(std::uint32_t w, std::uint32_t m, std::uint32_t special, Lanes& l)
    {
        const std::uint32_t nan = m + kAboveInfinity;
        const std::uint32_t nonZero = m + kNonZero;
        const std::uint32_t sign = w & kTops;
        const std::uint32_t infinity = special & ~nan & kTops;
        add(l.nan, nan & kTops);
        add(l.infinity, infinity);
        add(l.negativeInfinity, infinity & sign);
        add(l.negativeFinite, sign & nonZero & ~special);
        add(l.zero, ~nonZero & kTops);
    }

    // Every lane finite: only the sign and zero matter.
    NANSCOPE_HD static void finiteWord(std::uint32_t w, std::uint32_t m, Lanes& l)
    {
        const std::uint32_t nonZero = m + kNonZero;
        add(l.negativeFinite, w & nonZero & kTops);
        add(l.zero, ~nonZero & kTops);
    }

    NANSCOPE_HD static void vector(Words q, Lanes& l)
    {
        const std::uint32_t mx = q.x & kMagnitudes, my = q.y & kMagnitudes;
        const std::uint32_t mz = q.z & kMagnitudes, mw = q.w & kMagnitudes;
        const std::uint32_t sx = mx + kAtLeastInfinity, sy = my + kAtLeastInfinity;
        const std::uint32_t sz = mz + kAtLeastInfinity, sw = mw + kAtLeastInfinity;
        if (!anyInWarp(((sx | sy | sz | sw) & kTops) != 0)) {
            finiteWord(q.x, mx, l);
            finiteWord(q.y, my, l);
            finiteWord(q.z, mz, l);
            finiteWord(q.w, mw, l);
        } else {
            word(q.x, mx, sx, l);
            word(q.y, my, sy, l);
            word(q.z, mz, sz, l);
            word(q.w, mw, sw, l);
        }
    }

    NANSCOPE_HD static std::uint32_t laneSum(std::uint32_t v) { return (v & 0xffffu) + (v >> 16); }

    NANSCOPE_HD static void addCounters(const Lanes& l, Counters& c)
    {
        const std::uint32_t infinity = laneSum(l.infinity);
        const std::uint32_t negativeInfinity = laneSum(l.negativeInfinity);
        c.nan += laneSum(l.nan);
        c.negativeInfinity += negativeInfinity;
        c.positiveInfinity += infinity - negativeInfinity;
        c.negativeFinite += laneSum(l.negativeFinite);
        c.zero += laneSum(l.zero);
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        using Format = FloatFormat<std::uint16_t, static_cast<std::uint16_t>(Infinity)>;
        const auto h = load<std::uint16_t>(p);
        c.nan += bits(Format::isNaN(h));
        c.positiveInfinity += bits(Format::isPositiveInfinity(h));
        c.negativeInfinity += bits(Format::isNegativeInfinity(h));
        c.zero += bits(Format::isZero(h));
        c.negativeFinite += bits(Format::isNegativeFinite(h));
    }
};

} // namespace nanscope::gpu::detail

#include "float16compare.hpp" // Float16Compare, on Hopper

namespace nanscope::gpu::detail {

struct Float32Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 4;
    static constexpr std::uint32_t kInfinity = Float32Format::kInfinity;
    static constexpr std::uint32_t kSign = Float32Format::kSign;

    NANSCOPE_HD static void word(std::uint32_t w, Counters& c)
    {
        c.nan += bits(Float32Format::isNaN(w));
        c.positiveInfinity += bits(Float32Format::isPositiveInfinity(w));
        c.negativeInfinity += bits(Float32Format::isNegativeInfinity(w));
        c.zero += bits(Float32Format::isZero(w));
        c.negativeFinite += bits(Float32Format::isNegativeFinite(w));
    }

    NANSCOPE_HD static void finiteWord(std::uint32_t w, Counters& c)
    {
        c.zero += bits((w << 1) == 0);
        c.negativeFinite += bits(w > kSign);
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        const std::uint32_t top =
            maxOf(maxOf(q.x & ~kSign, q.y & ~kSign), maxOf(q.z & ~kSign, q.w & ~kSign));
        if (top < kInfinity) {
            finiteWord(q.x, c);
            finiteWord(q.y, c);
            finiteWord(q.z, c);
            finiteWord(q.w, c);
        } else {
            word(q.x, c);
            word(q.y, c);
            word(q.z, c);
            word(q.w, c);
        }
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        word(load<std::uint32_t>(p), c);
    }
};

struct Float64Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 8;
    static constexpr auto kHighInfinity =
        static_cast<std::uint32_t>(Float64Format::kInfinity >> 32);

    NANSCOPE_HD static void element(std::uint64_t v, Counters& c)
    {
        c.nan += bits(Float64Format::isNaN(v));
        c.positiveInfinity += bits(Float64Format::isPositiveInfinity(v));
        c.negativeInfinity += bits(Float64Format::isNegativeInfinity(v));
        c.zero += bits(Float64Format::isZero(v));
        c.negativeFinite += bits(Float64Format::isNegativeFinite(v));
    }

    NANSCOPE_HD static void finiteElement(std::uint32_t low, std::uint32_t high, Counters& c)
    {
        const bool nonZero = ((high << 1) | low) != 0;
        c.zero += bits(!nonZero);
        c.negativeFinite += bits(nonZero && (high >> 31) != 0);
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        if (maxOf(q.y & 0x7fffffffu, q.w & 0x7fffffffu) < kHighInfinity) {
            finiteElement(q.x, q.y, c);
            finiteElement(q.z, q.w, c);
        } else {
            element((std::uint64_t{q.y} << 32) | q.x, c);
            element((std::uint64_t{q.w} << 32) | q.z, c);
        }
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        element(load<std::uint64_t>(p), c);
    }
};

// --- Integers: only zero and the sign matter; every element is finite.

template <bool Signed>
struct Int8Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 1;

    NANSCOPE_HD static void word(std::uint32_t w, Counters& c)
    {
        // A byte's top bit after adding 0x7f to its low 7 bits, or-ed with its own top bit, is
        // set exactly when the byte is non-zero; no byte carries into the next.
        const std::uint32_t nonZero = (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
        c.zero += 4u - popc(nonZero);
        if constexpr (Signed)
            c.negativeFinite += popc(w & 0x80808080u);
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        word(q.x, c);
        word(q.y, c);
        word(q.z, c);
        word(q.w, c);
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        const std::uint32_t b = load<std::uint8_t>(p);
        c.zero += bits(b == 0);
        if constexpr (Signed)
            c.negativeFinite += bits(b >= 0x80u);
    }
};

template <bool Signed>
struct Int16Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 2;

    NANSCOPE_HD static void word(std::uint32_t w, Counters& c)
    {
        const std::uint32_t nonZero = (((w & 0x7fff7fffu) + 0x7fff7fffu) | w) & 0x80008000u;
        c.zero += 2u - popc(nonZero);
        if constexpr (Signed)
            c.negativeFinite += popc(w & 0x80008000u);
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        word(q.x, c);
        word(q.y, c);
        word(q.z, c);
        word(q.w, c);
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        const std::uint32_t v = load<std::uint16_t>(p);
        c.zero += bits(v == 0);
        if constexpr (Signed)
            c.negativeFinite += bits(v >= 0x8000u);
    }
};

template <bool Signed>
struct Int32Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 4;

    NANSCOPE_HD static void word(std::uint32_t w, Counters& c)
    {
        c.zero += bits(w == 0);
        if constexpr (Signed)
            c.negativeFinite += w >> 31;
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        word(q.x, c);
        word(q.y, c);
        word(q.z, c);
        word(q.w, c);
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        word(load<std::uint32_t>(p), c);
    }
};

template <bool Signed>
struct Int64Bits : CountsDirectly
{
    static constexpr std::uint32_t kBytes = 8;

    NANSCOPE_HD static void element(std::uint32_t low, std::uint32_t high, Counters& c)
    {
        c.zero += bits((low | high) == 0);
        if constexpr (Signed)
            c.negativeFinite += high >> 31;
    }

    NANSCOPE_HD static void vector(Words q, Counters& c)
    {
        element(q.x, q.y, c);
        element(q.z, q.w, c);
    }

    NANSCOPE_HD static void scalar(const unsigned char* p, Counters& c)
    {
        const auto v = load<std::uint64_t>(p);
        element(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v >> 32), c);
    }
};

// Thread `thread` of a block of kHealthThreads counts its share of chunk `chunk` of a tensor:
// 16-byte loads for the aligned middle, one element for the at most 15 bytes before and after
// it (a view that starts or ends off a 16-byte boundary). The address must be aligned to the
// element size.
template <class Kind>
NANSCOPE_HD void countChunk(std::uint64_t address, std::uint64_t count, std::uint64_t chunk,
                            std::uint32_t thread, Counters& c)
{
    constexpr std::uint64_t kBytes = Kind::kBytes;
    constexpr std::uint64_t kPerChunk = kChunkBytes / kBytes;
    const std::uint64_t first = chunk * kPerChunk;
    const std::uint64_t last = minOf(first + kPerChunk, count);
    const std::uint64_t begin = address + first * kBytes;
    const std::uint64_t end = address + last * kBytes;
    const std::uint64_t vectorBegin = minOf((begin + 15) & ~std::uint64_t{15}, end);
    const std::uint64_t vectorEnd = maxOf(end & ~std::uint64_t{15}, vectorBegin);

    const auto head = static_cast<std::uint32_t>((vectorBegin - begin) / kBytes);
    if (thread < head)
        Kind::scalar(reinterpret_cast<const unsigned char*>(begin + thread * kBytes), c);
    const auto tail = static_cast<std::uint32_t>((end - vectorEnd) / kBytes);
    if (thread < tail)
        Kind::scalar(reinterpret_cast<const unsigned char*>(vectorEnd + thread * kBytes), c);

    const auto* v = reinterpret_cast<const unsigned char*>(vectorBegin);
    const auto n = static_cast<std::uint32_t>((vectorEnd - vectorBegin) / 16);
    constexpr std::uint32_t kStride = kHealthThreads;
    typename Kind::Lanes lanes{};
    std::uint32_t i = thread;
    // Four independent loads in flight per thread before any is classified.
    for (; i + 3 * kStride < n; i += 4 * kStride) {
        const Words q0 = load<Words>(v + 16 * std::uint64_t{i});
        const Words q1 = load<Words>(v + 16 * std::uint64_t{i + kStride});
        const Words q2 = load<Words>(v + 16 * std::uint64_t{i + 2 * kStride});
        const Words q3 = load<Words>(v + 16 * std::uint64_t{i + 3 * kStride});
        Kind::vector(q0, lanes);
        Kind::vector(q1, lanes);
        Kind::vector(q2, lanes);
        Kind::vector(q3, lanes);
    }
    for (; i < n; i += kStride)
        Kind::vector(load<Words>(v + 16 * std::uint64_t{i}), lanes);
    Kind::addCounters(lanes, c);
}

NANSCOPE_HD void countChunkOfType(std::uint32_t dtype, std::uint64_t address, std::uint64_t count,
                                  std::uint64_t chunk, std::uint32_t thread, Counters& c)
{
    switch (static_cast<DType>(dtype)) {
#if defined(NANSCOPE_FLOAT16_COMPARE)
    case DType::Float16:
        return countChunk<Float16Compare<false>>(address, count, chunk, thread, c);
    case DType::BFloat16:
        return countChunk<Float16Compare<true>>(address, count, chunk, thread, c);
#else
    case DType::Float16:
        return countChunk<Float16Bits<0x7c00u>>(address, count, chunk, thread, c);
    case DType::BFloat16:
        return countChunk<Float16Bits<0x7f80u>>(address, count, chunk, thread, c);
#endif
    case DType::Float32:
        return countChunk<Float32Bits>(address, count, chunk, thread, c);
    case DType::Float64:
        return countChunk<Float64Bits>(address, count, chunk, thread, c);
    case DType::Int8:
        return countChunk<Int8Bits<true>>(address, count, chunk, thread, c);
    case DType::Int16:
        return countChunk<Int16Bits<true>>(address, count, chunk, thread, c);
    case DType::Int32:
        return countChunk<Int32Bits<true>>(address, count, chunk, thread, c);
    case DType::Int64:
        return countChunk<Int64Bits<true>>(address, count, chunk, thread, c);
    case DType::UInt8:
    case DType::Bool:
        return countChunk<Int8Bits<false>>(address, count, chunk, thread, c);
    case DType::UInt16:
        return countChunk<Int16Bits<false>>(address, count, chunk, thread, c);
    case DType::UInt32:
        return countChunk<Int32Bits<false>>(address, count, chunk, thread, c);
    case DType::UInt64:
        return countChunk<Int64Bits<false>>(address, count, chunk, thread, c);
    default: // never in a descriptor: kernelReads() keeps the others out
        return;
    }
}

// The last tensor whose first chunk is at or before `chunk`.
NANSCOPE_HD std::uint32_t findTensor(const KernelDescriptor* descriptors, std::uint32_t tensors,
                                     std::uint64_t chunk)
{
    std::uint32_t low = 0;
    std::uint32_t high = tensors;
    while (high - low > 1) {
        const std::uint32_t middle = low + (high - low) / 2;
        if (descriptors[middle].firstChunk <= chunk)
            low = middle;
        else
            high = middle;
    }
    return low;
}

// A thread's per-thread counters are folded at least this often: it reads at most 64 bytes of
// a chunk (so at most 64 elements), and 2^16 chunks keep every counter below 2^22.
inline constexpr std::uint32_t kMaxChunksPerFold = 1u << 16;

// What one thread of block `block` does in a grid of `blocks`: blocks take chunks block,
// block + blocks, … so a large tensor is read by every block at once, and the counters are
// folded (by `fold(counters, slot)`, which every thread of the block calls at the same points)
// only when the block moves on to another tensor.
template <class Fold>
NANSCOPE_HD void countBlock(const KernelDescriptor* descriptors, std::uint32_t tensors,
                            std::uint64_t chunks, std::uint64_t block, std::uint64_t blocks,
                            std::uint32_t thread, Fold& fold)
{
    Counters c;
    bool open = false; // whether `c` belongs to a tensor
    std::uint64_t address = 0, count = 0, firstChunk = 0, endChunk = 0;
    std::uint32_t dtype = 0, slot = 0, sinceFold = 0;
    for (std::uint64_t chunk = block; chunk < chunks; chunk += blocks) {
        if (!open || chunk >= endChunk || sinceFold == kMaxChunksPerFold) {
            if (open)
                fold(c, slot);
            const std::uint32_t t = findTensor(descriptors, tensors, chunk);
            const KernelDescriptor& d = descriptors[t];
            address = d.address;
            count = d.count;
            firstChunk = d.firstChunk;
            endChunk = t + 1 < tensors ? descriptors[t + 1].firstChunk : chunks;
            dtype = d.dtype;
            slot = d.slot;
            open = true;
            sinceFold = 0;
        }
        countChunkOfType(dtype, address, count, chunk - firstChunk, thread, c);
        ++sinceFold;
    }
    if (open)
        fold(c, slot);
}

} // namespace nanscope::gpu::detail
