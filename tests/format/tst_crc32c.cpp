// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/format/crc32c.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace nanscope::format;

TEST_CASE("CRC-32C matches the standard check value", "[crc]")
{
    CHECK(crc32c(std::string_view("123456789")) == 0xe3069283u);
    CHECK(crc32cExtendPortable(0, "123456789", 9) == 0xe3069283u);
    CHECK(crc32c(std::string_view("")) == 0u);
}

TEST_CASE("CRC-32C of known byte patterns (RFC 3720 B.4)", "[crc]")
{
    std::vector<unsigned char> zeros(32, 0x00), ones(32, 0xff), ascending(32), descending(32);
    for (int i = 0; i < 32; ++i) {
        ascending[i] = static_cast<unsigned char>(i);
        descending[i] = static_cast<unsigned char>(31 - i);
    }
    CHECK(crc32c(zeros.data(), zeros.size()) == 0x8a9136aau);
    CHECK(crc32c(ones.data(), ones.size()) == 0x62a8ab43u);
    CHECK(crc32c(ascending.data(), ascending.size()) == 0x46dd794eu);
    CHECK(crc32c(descending.data(), descending.size()) == 0x113fdb5cu);
}

TEST_CASE("hardware and table CRC agree at every length and alignment", "[crc]")
{
    std::mt19937 rng(1234);
    std::vector<unsigned char> data(300);
    for (auto& b : data)
        b = static_cast<unsigned char>(rng());
    for (std::size_t start = 0; start < 9; ++start)
        for (std::size_t len = 0; len + start <= data.size(); len += 7)
            REQUIRE(crc32c(data.data() + start, len) ==
                    crc32cExtendPortable(0, data.data() + start, len));
}

TEST_CASE("the interleaved hardware CRC agrees with the table at random lengths, alignments and "
          "starting CRCs",
          "[crc]")
{
    // Lengths cross every lane size of the three-lane path (32, 256 and 4096 bytes per lane)
    // and the leftovers after them.
    std::mt19937 rng(99);
    std::vector<unsigned char> data(3 * 4096 * 3 + 64);
    for (auto& b : data)
        b = static_cast<unsigned char>(rng());
    std::uniform_int_distribution<std::size_t> start(0, 63);
    for (const std::size_t edge :
         {95, 96, 97, 767, 768, 769, 12287, 12288, 12289, 12288 + 768 + 96})
        REQUIRE(crc32c(data.data() + 1, edge) == crc32cExtendPortable(0, data.data() + 1, edge));
    for (int i = 0; i < 3000; ++i) {
        const std::size_t at = start(rng);
        const std::size_t len = std::uniform_int_distribution<std::size_t>(
            0, i % 10 == 0 ? data.size() - at : 1500)(rng);
        const std::uint32_t seed = i % 3 == 0 ? 0 : static_cast<std::uint32_t>(rng());
        REQUIRE(crc32cExtend(seed, data.data() + at, len) ==
                crc32cExtendPortable(seed, data.data() + at, len));
    }
}

TEST_CASE("extending a CRC equals the CRC of the concatenation", "[crc]")
{
    const std::string a = "hello, ", b = "tfdbg2 world";
    const auto whole = crc32c(a + b);
    CHECK(crc32cExtend(crc32c(a), b.data(), b.size()) == whole);
    CHECK(crc32cExtendPortable(crc32c(a), b.data(), b.size()) == whole);
}

TEST_CASE("masking is TFRecord's rotate-and-add and unmasking inverts it", "[crc]")
{
    CHECK(maskCrc(0) == kCrcMaskDelta);
    const std::uint32_t c = 0xe3069283u;
    CHECK(maskCrc(c) == static_cast<std::uint32_t>(((c >> 15) | (c << 17)) + 0xa282ead8u));
    std::mt19937 rng(7);
    for (int i = 0; i < 1000; ++i) {
        const std::uint32_t v = rng();
        REQUIRE(unmaskCrc(maskCrc(v)) == v);
    }
}

TEST_CASE("three ranges at once give each range's own CRC, whatever their lengths", "[crc]")
{
    std::mt19937 rng(77);
    std::vector<std::byte> data(2000);
    for (auto& b : data)
        b = static_cast<std::byte>(rng());
    // Lengths equal and unequal, shorter and longer than a word, and each the shortest.
    const std::size_t lengths[][3] = {{0, 0, 0},       {1, 2, 3},     {8, 8, 8},
                                      {229, 231, 230}, {7, 300, 64},  {500, 9, 500},
                                      {640, 641, 1},   {0, 17, 1000}, {999, 998, 997}};
    for (const auto& n : lengths) {
        for (std::size_t shift = 0; shift < 8; ++shift) {
            const std::span<const std::byte> ranges[3] = {
                std::span(data).subspan(shift, n[0]), std::span(data).subspan(1000 - shift, n[1]),
                std::span(data).subspan(3 + shift, n[2])};
            std::uint32_t crcs[3] = {1, 2, 3};
            crc32cOfThree(ranges, crcs);
            for (int k = 0; k < 3; ++k)
                REQUIRE(crcs[k] == crc32cExtendPortable(0, ranges[k].data(), ranges[k].size()));
        }
    }
}
