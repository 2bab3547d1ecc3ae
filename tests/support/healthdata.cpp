// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthdata.hpp"

#include "floatformat.hpp"

#include <algorithm>
#include <cstring>
#include <random>

namespace nanscope::test {

namespace {

std::uint64_t mask(int bits)
{
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

std::uint64_t floatBits(const FloatFormat& f, std::mt19937_64& random, bool dense)
{
    const std::uint64_t sign = std::uint64_t{1} << (f.bits - 1);
    const std::uint64_t mantissaMask = mask(f.mantissaBits);
    const std::uint64_t exponentMax = mask(f.bits - 1 - f.mantissaBits);
    const std::uint64_t infinity = exponentMax << f.mantissaBits;
    const std::uint64_t r = random();
    const std::uint64_t maybeSign = (r & 1) != 0 ? sign : 0;
    const std::uint64_t mantissa = (r >> 8) & mantissaMask;
    // Dense stretches draw a special value for about half of the elements, sparse ones for
    // about one in 500.
    const unsigned pick = static_cast<unsigned>((r >> 1) % (dense ? 16 : 8000));
    switch (pick) {
    case 0:
        return 0; // +0
    case 1:
        return sign; // -0
    case 2:
        return maybeSign | (mantissa == 0 ? 1 : mantissa); // subnormal
    case 3:
        return infinity;
    case 4:
        return sign | infinity;
    case 5:
        return maybeSign | infinity | (mantissa == 0 ? 1 : mantissa); // NaN, any payload
    case 6:
        return maybeSign | infinity | mantissaMask; // all-ones NaN
    case 7:
        return r & mask(f.bits); // any pattern at all
    default: {
        const std::uint64_t exponent = 1 + (r >> 40) % (exponentMax - 1); // normal
        return maybeSign | (exponent << f.mantissaBits) | mantissa;
    }
    }
}

std::uint64_t integerBits(int bits, std::mt19937_64& random)
{
    const std::uint64_t r = random();
    switch (r % 16) {
    case 0:
    case 1:
        return 0;
    case 2:
        return mask(bits); // -1, or the unsigned maximum
    case 3:
        return std::uint64_t{1} << (bits - 1); // the signed minimum
    case 4:
        return mask(bits - 1); // the signed maximum
    case 5:
        return 1;
    default:
        return (r >> 4) & mask(bits);
    }
}

} // namespace

std::vector<unsigned char> healthData(DType dtype, std::uint64_t count, std::uint64_t seed)
{
    const std::size_t size = elementSize(dtype);
    std::vector<unsigned char> data(static_cast<std::size_t>(count) * size);
    std::mt19937_64 random(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(dtype));
    const std::optional<FloatFormat> floatingFormat = floatFormat(dtype);
    const bool floating = floatingFormat.has_value();
    const FloatFormat format = floatingFormat.value_or(FloatFormat{});
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t bits = 0;
        if (dtype == DType::Bool) {
            const std::uint64_t r = random();
            bits = r % 10 < 5 ? 0 : (r % 10 < 9 ? 1 : (r >> 8) & 0xff);
        } else if (floating) {
            // Stretches of 3000 elements: not a multiple of any vector or chunk size.
            bits = floatBits(format, random, (i / 3000) % 2 == 0);
        } else {
            bits = integerBits(static_cast<int>(size * 8), random);
        }
        std::memcpy(data.data() + i * size, &bits, size); // little-endian host
    }
    return data;
}

std::vector<std::uint64_t> edgeSizes(int maxLog2)
{
    std::vector<std::uint64_t> sizes = {0, 1};
    for (int k = 1; k <= maxLog2; ++k) {
        const std::uint64_t p = std::uint64_t{1} << k;
        sizes.insert(sizes.end(), {p - 1, p, p + 1});
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

} // namespace nanscope::test
