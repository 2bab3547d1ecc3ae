// SPDX-License-Identifier: Apache-2.0
// The op type filter is a user's regular expression run by std::regex, a backtracking engine.
// libstdc++ accepts a repeat of a repeat ("a++", "x*{2}"), whose matching time grows
// exponentially with the op type's length: one declaration could hang the recorded program.
// TensorFlow's filter is Python's re, which refuses these ("multiple repeat"); so do we.
#pragma once

#include <optional>
#include <string_view>

namespace nanscope::detail {

// The offset of the first quantifier that repeats a repeat in an ECMAScript pattern, if any.
// A single '?' after a quantifier makes it lazy ("a+?") and is not a repeat.
std::optional<std::size_t> repeatOfRepeat(std::string_view pattern);

} // namespace nanscope::detail
