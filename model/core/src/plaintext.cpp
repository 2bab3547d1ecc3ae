// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/plaintext.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace nanscope::core {
namespace {

// The length of the valid UTF-8 sequence at the start of `s` and its code point; 0 if invalid.
std::size_t decodeUtf8(std::string_view s, char32_t& cp)
{
    const auto b0 = static_cast<unsigned char>(s[0]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t n = 0;
    char32_t min = 0;
    if ((b0 & 0xe0) == 0xc0) {
        n = 2;
        cp = b0 & 0x1f;
        min = 0x80;
    } else if ((b0 & 0xf0) == 0xe0) {
        n = 3;
        cp = b0 & 0x0f;
        min = 0x800;
    } else if ((b0 & 0xf8) == 0xf0) {
        n = 4;
        cp = b0 & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (s.size() < n)
        return 0;
    for (std::size_t i = 1; i < n; ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if ((b & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (b & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and values past Unicode are not UTF-8.
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

bool printableAscii(char c)
{
    return c >= 0x20 && c < 0x7f;
}

// Whether all eight bytes of `word` are printable ASCII (0x20-0x7e): no high bit, no byte below
// 0x20 (the borrow test of "has a byte less than n"), none that is 0x7f (adding 1 sets its high
// bit; bytes below 0x80 cannot carry into their neighbour).
bool printableAscii8(std::uint64_t word)
{
    constexpr std::uint64_t ones = 0x0101010101010101u;
    constexpr std::uint64_t highBits = 0x8080808080808080u;
    const std::uint64_t belowSpace = (word - 0x20 * ones) & ~word;
    return ((word | (word + ones) | belowSpace) & highBits) == 0;
}

// The end of the run of printable ASCII that starts at `at` and ends by `limit`; names are nearly
// all of it, so it is tested eight bytes at a time.
std::size_t printableAsciiRunEnd(std::string_view text, std::size_t at, std::size_t limit)
{
    std::uint64_t word;
    while (limit - at >= sizeof word) {
        std::memcpy(&word, text.data() + at, sizeof word);
        if (!printableAscii8(word))
            break;
        at += sizeof word;
    }
    while (at < limit && printableAscii(text[at]))
        ++at;
    return at;
}

bool invisibleControl(char32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) ||     // C1 controls (U+009B is a terminal's CSI)
           (cp >= 0x202a && cp <= 0x202e) || // bidirectional embeddings and overrides
           (cp >= 0x2066 && cp <= 0x2069) || // bidirectional isolates
           cp == 0x200e || cp == 0x200f ||   // left-to-right and right-to-left marks
           cp == 0x061c ||                   // Arabic letter mark
           cp == 0x2028 || cp == 0x2029 ||   // line and paragraph separators
           cp == 0xfeff;                     // zero-width no-break space (byte order mark)
}

void appendHex(std::string& out, const char* format, unsigned value)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, format, value);
    out += buffer;
}

} // namespace

std::string printable(std::string_view text, const PrintableOptions& options)
{
    std::string out;
    out.reserve(options.maxChars ? std::min(text.size(), options.maxChars + 32) : text.size());
    std::size_t chars = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        if (options.maxChars && chars >= options.maxChars) {
            out += "\u2026 (" + std::to_string(text.size()) + " bytes)";
            break;
        }
        // Printable ASCII, nearly all of any name, is copied a run at a time.
        const std::size_t room = options.maxChars ? options.maxChars - chars : text.size();
        const std::size_t end =
            printableAsciiRunEnd(text, at, at + std::min(room, text.size() - at));
        if (end > at) {
            out.append(text, at, end - at);
            chars += end - at;
            at = end;
            continue;
        }
        char32_t cp = 0;
        const std::size_t n = decodeUtf8(text.substr(at), cp);
        if (n == 0) {
            appendHex(out, "\\x%02x", static_cast<unsigned char>(text[at]));
            ++at;
        } else if (cp == '\t' && options.keepTabs) {
            out += '\t';
            at += n;
        } else if (cp == '\n') {
            out += "\\n";
            at += n;
        } else if (cp == '\r') {
            out += "\\r";
            at += n;
        } else if (cp == '\t') {
            out += "\\t";
            at += n;
        } else if (cp < 0x20 || cp == 0x7f) {
            appendHex(out, "\\x%02x", static_cast<unsigned>(cp));
            at += n;
        } else if (invisibleControl(cp)) {
            appendHex(out, "\\u{%04x}", static_cast<unsigned>(cp));
            at += n;
        } else {
            out.append(text.substr(at, n));
            at += n;
        }
        ++chars;
    }
    return out;
}

std::string quotedName(std::string_view text, std::size_t maxChars)
{
    return "\"" + printable(text, {.maxChars = maxChars}) + "\"";
}

} // namespace nanscope::core
