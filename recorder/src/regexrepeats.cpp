// SPDX-License-Identifier: Apache-2.0
#include "regexrepeats.hpp"

#include <cctype>

namespace nanscope::detail {
namespace {

// The length of a "{n}", "{n,}" or "{n,m}" quantifier at `at`, or 0 (then '{' is a literal).
std::size_t braceQuantifier(std::string_view p, std::size_t at)
{
    std::size_t i = at + 1;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < p.size() && std::isdigit(static_cast<unsigned char>(p[i])))
            ++i;
        return i > from;
    };
    if (!digits())
        return 0;
    if (i < p.size() && p[i] == ',') {
        ++i;
        digits();
    }
    return i < p.size() && p[i] == '}' ? i + 1 - at : 0;
}

} // namespace

std::optional<std::size_t> repeatOfRepeat(std::string_view p)
{
    enum class After { Atom, Repeat, LazyRepeat };
    After last = After::Atom; // what the previous token was ('(' and '|' count as atoms here:
                              // a quantifier after them is std::regex's own error)
    std::size_t i = 0;
    while (i < p.size()) {
        const char c = p[i];
        std::size_t quantifier = 0;
        if (c == '*' || c == '+' || c == '?')
            quantifier = 1;
        else if (c == '{')
            quantifier = braceQuantifier(p, i);
        if (quantifier > 0) {
            if (last == After::Repeat && c == '?' && quantifier == 1) {
                last = After::LazyRepeat;
            } else if (last != After::Atom) {
                return i;
            } else {
                last = After::Repeat;
            }
            i += quantifier;
            continue;
        }
        last = After::Atom;
        if (c == '\\') {
            i += 2; // an escaped character is one atom
        } else if (c == '[') {
            // A class is one atom: skip to its closing ']' (in ECMAScript "[]" is an empty class).
            ++i;
            while (i < p.size() && p[i] != ']')
                i += p[i] == '\\' ? 2 : 1;
            ++i;
        } else {
            ++i;
        }
    }
    return std::nullopt;
}

} // namespace nanscope::detail
