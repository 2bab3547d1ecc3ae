// SPDX-License-Identifier: Apache-2.0
// tfdbg2's text fields are protobuf `string`s, which must be valid UTF-8: libprotobuf and
// TensorFlow's Python reader refuse a record whose string is not (the whole record is lost). Names
// the program gives are checked (a clear error instead of an unreadable record); text the
// recorder finds (source files, paths, function names) is made valid.
#pragma once

#include <string>
#include <string_view>

namespace nanscope::detail {

bool isValidUtf8(std::string_view text);

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string validUtf8(std::string_view text);

} // namespace nanscope::detail
