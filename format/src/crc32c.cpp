// SPDX-License-Identifier: Apache-2.0
#include "nanscope/format/crc32c.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <nmmintrin.h>
#define NANSCOPE_CRC_X86 1
#endif

namespace nanscope::format {
namespace {

constexpr std::uint32_t kPolynomial = 0x82f63b78u; // reflected Castagnoli polynomial

// Slicing-by-8 tables: table[k][b] is the CRC contribution of byte b followed by k zero bytes.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables makeTables()
{
    Tables t{};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t c = b;
        for (int bit = 0; bit < 8; ++bit)
            c = (c & 1u) ? (c >> 1) ^ kPolynomial : c >> 1;
        t[0][b] = c;
    }
    for (std::size_t k = 1; k < 8; ++k)
        for (std::size_t b = 0; b < 256; ++b)
            t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xffu];
    return t;
}

constexpr Tables kTables = makeTables();

std::uint32_t extendPortable(std::uint32_t state, const unsigned char* p, std::size_t n)
{
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        word ^= state; // little-endian hosts: the low 32 bits meet the running state
        state = kTables[7][word & 0xff] ^ kTables[6][(word >> 8) & 0xff] ^
                kTables[5][(word >> 16) & 0xff] ^ kTables[4][(word >> 24) & 0xff] ^
                kTables[3][(word >> 32) & 0xff] ^ kTables[2][(word >> 40) & 0xff] ^
                kTables[1][(word >> 48) & 0xff] ^ kTables[0][word >> 56];
        p += 8;
        n -= 8;
    }
    while (n-- > 0)
        state = (state >> 8) ^ kTables[0][(state ^ *p++) & 0xffu];
    return state;
}

#ifdef NANSCOPE_CRC_X86
// The CRC instruction has a latency of three cycles and a throughput of one per cycle, so one
// dependent chain uses a third of it. Three lanes of a block are summed at once, each from its own
// state, and joined by "shifting" the earlier lanes' registers over the later lanes' length:
// feeding n zero bytes to a register is a linear map of its 32 bits, applied with four tables.
// Lane lengths come in three sizes so that records of a few hundred bytes gain too.
constexpr std::array<std::size_t, 2> kLaneBytes = {4096, 256};

struct ZeroShift
{
    std::array<std::array<std::uint32_t, 256>, 4> table{};

    constexpr std::uint32_t apply(std::uint32_t reg) const
    {
        return table[0][reg & 0xffu] ^ table[1][(reg >> 8) & 0xffu] ^
               table[2][(reg >> 16) & 0xffu] ^ table[3][reg >> 24];
    }
};

// Feeding zero bytes as a matrix over GF(2): column `bit` is where that bit of the register goes.
using ZeroBasis = std::array<std::uint32_t, 32>;

constexpr std::uint32_t applyBasis(const ZeroBasis& basis, std::uint32_t reg)
{
    std::uint32_t out = 0;
    for (std::size_t bit = 0; bit < 32; ++bit)
        if (reg & (std::uint32_t{1} << bit))
            out ^= basis[bit];
    return out;
}

// The matrix of `zeros` zero bytes (a power of two), by squaring the one-byte matrix: a few
// thousand steps, so that compilers evaluate it within their constexpr limits.
constexpr ZeroBasis zeroBasis(std::size_t zeros)
{
    ZeroBasis basis{};
    for (std::size_t bit = 0; bit < 32; ++bit) {
        const std::uint32_t reg = std::uint32_t{1} << bit;
        basis[bit] = (reg >> 8) ^ kTables[0][reg & 0xffu];
    }
    for (std::size_t n = 1; n < zeros; n *= 2) {
        ZeroBasis twice{};
        for (std::size_t bit = 0; bit < 32; ++bit)
            twice[bit] = applyBasis(basis, basis[bit]);
        basis = twice;
    }
    return basis;
}

constexpr ZeroShift makeZeroShift(std::size_t zeros)
{
    const ZeroBasis basis = zeroBasis(zeros);
    ZeroShift shift;
    for (std::size_t k = 0; k < 4; ++k)
        for (std::size_t b = 0; b < 256; ++b)
            shift.table[k][b] = applyBasis(basis, static_cast<std::uint32_t>(b << (8 * k)));
    return shift;
}

static_assert((kLaneBytes[0] & (kLaneBytes[0] - 1)) == 0 &&
                  (kLaneBytes[1] & (kLaneBytes[1] - 1)) == 0,
              "lane sizes are powers of two (zeroBasis squares)");

constexpr std::array<ZeroShift, kLaneBytes.size()> kZeroShifts = {makeZeroShift(kLaneBytes[0]),
                                                                  makeZeroShift(kLaneBytes[1])};

__attribute__((target("sse4.2"))) inline std::uint64_t load64(const unsigned char* p)
{
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    return word;
}

__attribute__((target("sse4.2"))) std::uint32_t
extendHardware(std::uint32_t state, const unsigned char* p, std::size_t n)
{
    std::uint64_t s = state;
    for (std::size_t level = 0; level < kLaneBytes.size(); ++level) {
        const std::size_t lane = kLaneBytes[level];
        while (n >= 3 * lane) {
            std::uint64_t a = s, b = 0, c = 0;
            const unsigned char* pb = p + lane;
            const unsigned char* pc = p + 2 * lane;
            for (std::size_t i = 0; i < lane; i += 8) {
                a = _mm_crc32_u64(a, load64(p + i));
                b = _mm_crc32_u64(b, load64(pb + i));
                c = _mm_crc32_u64(c, load64(pc + i));
            }
            const ZeroShift& shift = kZeroShifts[level];
            const std::uint32_t ab =
                shift.apply(static_cast<std::uint32_t>(a)) ^ static_cast<std::uint32_t>(b);
            s = shift.apply(ab) ^ static_cast<std::uint32_t>(c);
            p += 3 * lane;
            n -= 3 * lane;
        }
    }
    while (n >= 8) {
        s = _mm_crc32_u64(s, load64(p));
        p += 8;
        n -= 8;
    }
    auto s32 = static_cast<std::uint32_t>(s);
    while (n-- > 0)
        s32 = _mm_crc32_u8(s32, *p++);
    return s32;
}

// Three independent ranges in step: each chain waits three cycles per word, so three chains keep
// the instruction busy, for ranges too short for extendHardware's lanes.
__attribute__((target("sse4.2"))) void threeHardware(const unsigned char* const (&p)[3],
                                                     const std::size_t (&n)[3],
                                                     std::uint32_t (&state)[3])
{
    std::uint64_t a = state[0], b = state[1], c = state[2];
    const std::size_t common = std::min({n[0], n[1], n[2]}) & ~std::size_t{7};
    for (std::size_t i = 0; i < common; i += 8) {
        a = _mm_crc32_u64(a, load64(p[0] + i));
        b = _mm_crc32_u64(b, load64(p[1] + i));
        c = _mm_crc32_u64(c, load64(p[2] + i));
    }
    state[0] = extendHardware(static_cast<std::uint32_t>(a), p[0] + common, n[0] - common);
    state[1] = extendHardware(static_cast<std::uint32_t>(b), p[1] + common, n[1] - common);
    state[2] = extendHardware(static_cast<std::uint32_t>(c), p[2] + common, n[2] - common);
}

bool detectHardware()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}

const bool kHasHardware = detectHardware();
#endif

} // namespace

bool crc32cUsesHardware()
{
#ifdef NANSCOPE_CRC_X86
    return kHasHardware;
#else
    return false;
#endif
}

std::uint32_t crc32cExtend(std::uint32_t crc, const void* data, std::size_t size)
{
    const auto* p = static_cast<const unsigned char*>(data);
    const std::uint32_t state = ~crc;
#ifdef NANSCOPE_CRC_X86
    if (kHasHardware)
        return ~extendHardware(state, p, size);
#endif
    return ~extendPortable(state, p, size);
}

void crc32cOfThree(const std::span<const std::byte> (&ranges)[3], std::uint32_t (&crcs)[3])
{
#ifdef NANSCOPE_CRC_X86
    if (kHasHardware) {
        const unsigned char* const p[3] = {
            reinterpret_cast<const unsigned char*>(ranges[0].data()),
            reinterpret_cast<const unsigned char*>(ranges[1].data()),
            reinterpret_cast<const unsigned char*>(ranges[2].data())};
        const std::size_t n[3] = {ranges[0].size(), ranges[1].size(), ranges[2].size()};
        std::uint32_t state[3] = {~0u, ~0u, ~0u};
        threeHardware(p, n, state);
        for (int i = 0; i < 3; ++i)
            crcs[i] = ~state[i];
        return;
    }
#endif
    for (int i = 0; i < 3; ++i)
        crcs[i] = crc32c(ranges[i].data(), ranges[i].size());
}

std::uint32_t crc32cExtendPortable(std::uint32_t crc, const void* data, std::size_t size)
{
    return ~extendPortable(~crc, static_cast<const unsigned char*>(data), size);
}

} // namespace nanscope::format
