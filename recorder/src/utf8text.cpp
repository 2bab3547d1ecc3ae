// SPDX-License-Identifier: Apache-2.0
#include "utf8text.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nanscope::detail {
namespace {

// The length of the valid UTF-8 sequence at `at` (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or 0 when there is none.
std::size_t sequenceAt(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) {
        return static_cast<std::uint8_t>(text[at + i]);
    };
    const auto continuation = [&](std::size_t i) {
        return at + i < text.size() && (byte(i) & 0xc0) == 0x80;
    };
    const std::uint8_t lead = byte(0);
    if (lead < 0x80)
        return 1;
    if (lead >= 0xc2 && lead <= 0xdf)
        return continuation(1) ? 2 : 0;
    if (lead >= 0xe0 && lead <= 0xef) {
        if (!continuation(1) || !continuation(2))
            return 0;
        if ((lead == 0xe0 && byte(1) < 0xa0) || (lead == 0xed && byte(1) > 0x9f))
            return 0; // overlong, or a surrogate
        return 3;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
        if (!continuation(1) || !continuation(2) || !continuation(3))
            return 0;
        if ((lead == 0xf0 && byte(1) < 0x90) || (lead == 0xf4 && byte(1) > 0x8f))
            return 0; // overlong, or above U+10FFFF
        return 4;
    }
    return 0;
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    // ASCII, eight bytes at a time: names are, and record calls check some on every call.
    std::size_t ascii = 0;
    for (std::uint64_t word = 0; ascii + 8 <= text.size(); ascii += 8) {
        std::memcpy(&word, text.data() + ascii, 8);
        if (word & 0x8080808080808080ull)
            break;
    }
    for (std::size_t at = ascii; at < text.size();) {
        const std::size_t n = sequenceAt(text, at);
        if (n == 0)
            return false;
        at += n;
    }
    return true;
}

std::string validUtf8(std::string_view text)
{
    if (isValidUtf8(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = sequenceAt(text, at);
        if (n == 0) {
            out += "\xef\xbf\xbd"; // U+FFFD
            ++at;
        } else {
            out.append(text.substr(at, n));
            at += n;
        }
    }
    return out;
}

} // namespace nanscope::detail
