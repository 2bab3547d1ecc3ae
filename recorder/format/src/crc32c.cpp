// SPDX-License-Identifier: Apache-2.0
#include "nanscope/format/crc32c.hpp"

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
__attribute__((target("sse4.2"))) std::uint32_t
extendHardware(std::uint32_t state, const unsigned char* p, std::size_t n)
{
    std::uint64_t s = state;
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        s = _mm_crc32_u64(s, word);
        p += 8;
        n -= 8;
    }
    auto s32 = static_cast<std::uint32_t>(s);
    while (n-- > 0)
        s32 = _mm_crc32_u8(s32, *p++);
    return s32;
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

std::uint32_t crc32cExtendPortable(std::uint32_t crc, const void* data, std::size_t size)
{
    return ~extendPortable(~crc, static_cast<const unsigned char*>(data), size);
}

} // namespace nanscope::format
