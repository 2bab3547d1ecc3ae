// SPDX-License-Identifier: Apache-2.0
// The op type filter is a user's regular expression run by std::regex, a backtracking engine
// that copies a repeated atom once per count. Four kinds of pattern it accepts can hurt the
// recorded program, so the recorder refuses them at open:
//  - a repeat of a repeat ("a++", "x*{2}"): matching time grows exponentially with the op type's
//    length. TensorFlow's filter is Python's re, which refuses these too ("multiple repeat");
//  - an unbounded repeat of a group that holds one ("(a+)+"): exponential too (Python's re
//    accepts it; a hung filter would hang the recorded program);
//  - a number libstdc++ cannot hold (a count of 19 digits or more, even in an unclosed brace,
//    overflows a signed long inside its compiler: undefined behaviour), and backreferences past
//    any group an op type filter has;
//  - counts that nest into a huge automaton ("(a{1000}){1000}" is a million states).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nanscope::detail {

struct UnsafePattern
{
    std::size_t offset = 0; // where in the pattern
    std::string reason;     // completes "the op type filter ... ": "repeats a repeat at offset 3"
};

// Counts and backreference numbers above these are refused (Python's re has no smaller ones that
// an op type filter needs; RE2 caps counts at 1000 too).
inline constexpr std::size_t kMaxRepeatCount = 1000;
inline constexpr std::size_t kMaxBackreference = 99;
// The pattern's size once every count is expanded, in atoms.
inline constexpr std::size_t kMaxExpandedAtoms = 100'000;

// The first part of an ECMAScript pattern that std::regex should not be given, if any. A single
// '?' after a quantifier makes it lazy ("a+?") and is not a repeat.
std::optional<UnsafePattern> unsafeRepeat(std::string_view pattern);

} // namespace nanscope::detail
