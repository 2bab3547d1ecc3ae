// SPDX-License-Identifier: GPL-3.0-or-later
// The UTF-8 check of names: its eight-byte ASCII steps must not skip a byte anywhere.
#include "utf8text.hpp"

#include <catch2/catch.hpp>
#include <string>

using nanscope::detail::isValidUtf8;

TEST_CASE("a byte that is not UTF-8 is found wherever it stands in a name", "[utf8]")
{
    for (std::size_t length = 1; length <= 40; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            std::string name(length, 'a');
            INFO("length " << length << ", at " << at);
            name[at] = '\xff'; // never in UTF-8
            CHECK_FALSE(isValidUtf8(name));
            name[at] = '\xc3'; // a lead byte cut short
            CHECK_FALSE(isValidUtf8(name));
            name[at] = '\x80'; // a continuation byte with no lead
            CHECK_FALSE(isValidUtf8(name));
        }
    }
}

TEST_CASE("ASCII names and names with multi-byte characters anywhere are valid", "[utf8]")
{
    CHECK(isValidUtf8(""));
    for (std::size_t length = 0; length <= 40; ++length) {
        CHECK(isValidUtf8(std::string(length, 'x')));
        for (std::size_t at = 0; at <= length; ++at) {
            std::string name(length, 'x');
            name.insert(at, "\xe2\x88\x9e"); // ∞
            INFO("length " << length << ", at " << at);
            CHECK(isValidUtf8(name));
            name.insert(at, "\xed\xa0\x80"); // a surrogate, which UTF-8 forbids
            CHECK_FALSE(isValidUtf8(name));
        }
    }
}
