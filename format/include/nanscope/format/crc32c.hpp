// SPDX-License-Identifier: Apache-2.0
// CRC-32C (Castagnoli) and TFRecord's masking of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace nanscope::format {

// Extends `crc` (a finished CRC-32C of earlier bytes, 0 for none) over `size` more bytes.
std::uint32_t crc32cExtend(std::uint32_t crc, const void* data, std::size_t size);

inline std::uint32_t crc32c(const void* data, std::size_t size)
{
    return crc32cExtend(0, data, size);
}

inline std::uint32_t crc32c(std::string_view bytes)
{
    return crc32c(bytes.data(), bytes.size());
}

// The CRC-32C of each of three independent ranges, computed together: ranges of a few hundred
// bytes (a trace record) are too short for crc32cExtend's interleaved lanes, and one range at a
// time waits on the CRC instruction's latency.
void crc32cOfThree(const std::span<const std::byte> (&ranges)[3], std::uint32_t (&crcs)[3]);

// True when the SSE4.2 instruction is used; false on the portable table path.
bool crc32cUsesHardware();

// The table-driven path alone, whatever the processor offers (for tests and benchmarks).
std::uint32_t crc32cExtendPortable(std::uint32_t crc, const void* data, std::size_t size);

// TFRecord stores CRCs rotated and offset so that a CRC of data that contains CRCs stays strong.
constexpr std::uint32_t kCrcMaskDelta = 0xa282ead8u;

constexpr std::uint32_t maskCrc(std::uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + kCrcMaskDelta;
}

constexpr std::uint32_t unmaskCrc(std::uint32_t masked)
{
    const std::uint32_t rotated = masked - kCrcMaskDelta;
    return (rotated >> 17) | (rotated << 15);
}

} // namespace nanscope::format
