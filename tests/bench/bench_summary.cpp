// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput of countHealth against a plain read of the same out-of-cache buffer.
//
// Usage: nanscope_bench_summary [MiB]   (default 256)
//
// For each element type the buffer is filled with random finite values and a few specials,
// then a plain read (a vectorised sum of 64-bit words) and countHealth alternate, each
// kRepetitions times; the table shows the medians and summary/read.
#include "floatformat.hpp"
#include "nanscope/summary.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

// The plain read gets the same instruction sets as the summary kernels, so that it is as fast a
// read as this compiler makes.
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define NANSCOPE_BENCH_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef NANSCOPE_BENCH_CLONES
#define NANSCOPE_BENCH_CLONES
#endif

using namespace nanscope;

namespace {

constexpr int kRepetitions = 7;

// Results are stored here so that the compiler cannot drop the measured work.
volatile std::uint64_t gSink = 0;

struct SplitMix
{
    std::uint64_t state;
    std::uint64_t operator()()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        return z ^ (z >> 31);
    }
};

struct FloatLayout
{
    std::uint64_t exponentMask;
    std::uint64_t topExponentBit;
    std::uint64_t quietNan;
};

bool floatLayout(DType dtype, FloatLayout& layout)
{
    switch (dtype) {
    case DType::Float16:
        layout = {0x7c00, 0x4000, 0x7e00};
        return true;
    case DType::BFloat16:
        layout = {0x7f80, 0x4000, 0x7fc0};
        return true;
    case DType::Float32:
        layout = {0x7f800000, 0x40000000, 0x7fc00000};
        return true;
    case DType::Float64:
        layout = {0x7ff0000000000000, 0x4000000000000000, 0x7ff8000000000000};
        return true;
    default:
        return false;
    }
}

// Random finite values, and a NaN, an infinity and a zero every ~million elements.
void fill(unsigned char* data, DType dtype, std::uint64_t count, SplitMix& rng)
{
    const std::size_t bytes = elementSize(dtype);
    FloatLayout layout{};
    const bool floating = floatLayout(dtype, layout);
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t bits = rng();
        if (dtype == DType::Bool)
            bits &= 1;
        else if (floating && (bits & layout.exponentMask) == layout.exponentMask)
            bits &= ~layout.topExponentBit; // non-finite pattern: make it finite
        test::storeBits(data + i * bytes, bytes, bits);
    }
    for (std::uint64_t i = 12345; i < count; i += 1000003) {
        test::storeBits(data + i * bytes, bytes, floating ? layout.quietNan : 0);
        if (i + 1 < count)
            test::storeBits(data + (i + 1) * bytes, bytes, floating ? layout.exponentMask : 0);
    }
}

NANSCOPE_BENCH_CLONES std::uint64_t plainRead(const unsigned char* data, std::size_t bytes)
{
    std::uint64_t sum = 0;
    const std::size_t words = bytes / 8;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint64_t w;
        std::memcpy(&w, data + i * 8, 8);
        sum += w;
    }
    return sum;
}

template <class F>
double seconds(F&& work)
{
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(stop - start).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::uint64_t checksum(const HealthCounts& c)
{
    return c.size + c.nan + c.negativeInfinity + c.positiveInfinity + c.zero + c.negativeFinite;
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t mebibytes = 256;
    if (argc > 1) {
        mebibytes = std::strtoull(argv[1], nullptr, 10);
        if (mebibytes == 0) {
            std::fprintf(stderr, "usage: %s [MiB]\n", argv[0]);
            return 2;
        }
    }
    const std::size_t bytes = mebibytes << 20;
    auto buffer = std::make_unique<unsigned char[]>(bytes);
    unsigned char* data = buffer.get();
    SplitMix rng{42};

    std::printf("countHealth throughput: %zu MiB buffer, %d repetitions, medians\n", mebibytes,
                kRepetitions);
#if defined(__x86_64__) && defined(__GNUC__)
    std::printf("CPU supports AVX2: %s\n", __builtin_cpu_supports("avx2") ? "yes" : "no");
#endif
    std::printf("\n%-10s %14s %14s %8s\n", "dtype", "summary GB/s", "read GB/s", "ratio");

    const DType dtypes[] = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64,
                            DType::Int32,   DType::Int8,     DType::Bool};
    for (const DType dtype : dtypes) {
        const std::uint64_t count = bytes / elementSize(dtype);
        const std::size_t used = count * elementSize(dtype);
        fill(data, dtype, count, rng);
        std::vector<double> readTimes, summaryTimes;
        for (int r = 0; r < kRepetitions; ++r) {
            readTimes.push_back(seconds([&] { gSink = gSink + plainRead(data, used); }));
            summaryTimes.push_back(
                seconds([&] { gSink = gSink + checksum(countHealth(data, dtype, count)); }));
        }
        const double readRate = static_cast<double>(used) / median(readTimes) / 1e9;
        const double summaryRate = static_cast<double>(used) / median(summaryTimes) / 1e9;
        const std::string_view name = dtypeName(dtype);
        std::printf("%-10.*s %14.2f %14.2f %8.2f\n", static_cast<int>(name.size()), name.data(),
                    summaryRate, readRate, summaryRate / readRate);
    }

    // The scalar reference, for context only; three runs keep the total time short.
    {
        const std::uint64_t count = bytes / 4;
        fill(data, DType::Float32, count, rng);
        std::vector<double> times;
        for (int r = 0; r < 3; ++r)
            times.push_back(seconds([&] {
                gSink = gSink + checksum(countHealthReference(data, DType::Float32, count));
            }));
        std::printf("\nscalar reference, float32: %.2f GB/s (median of 3)\n",
                    static_cast<double>(count * 4) / median(times) / 1e9);
    }
    return 0;
}
