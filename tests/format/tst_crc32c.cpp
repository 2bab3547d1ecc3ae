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
