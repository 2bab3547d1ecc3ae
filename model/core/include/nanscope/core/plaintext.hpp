// SPDX-License-Identifier: GPL-3.0-or-later
// Strings from a logdir as plain, printable text. A logdir may come from anyone: its op names,
// paths and source lines can hold terminal escape sequences, invalid UTF-8, text-direction
// overrides or megabytes of one name. Everything NaNscope prints or puts in a diagnostic goes
// through these functions; the GUI additionally shows such strings only as plain text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nanscope::core {

struct PrintableOptions
{
    // Longer texts are cut to about this many characters and say how long they were; 0: never.
    std::size_t maxChars = 0;
    bool keepTabs = false; // source lines keep their tabs
};

// Valid UTF-8 with no control characters: C0 and C1 controls, DEL, invalid bytes and the
// invisible characters that reorder or break text (bidirectional overrides and isolates, line
// and paragraph separators) become escapes such as \n, \x1b, \xff and \u{202e}. Backslashes are
// kept as they are, so escaping twice changes nothing.
std::string printable(std::string_view text, const PrintableOptions& options = {});

// printable() cut to `maxChars` characters, in double quotes: for names inside messages.
std::string quotedName(std::string_view text, std::size_t maxChars = 200);

} // namespace nanscope::core
