// SPDX-License-Identifier: GPL-3.0-or-later
// What the reader found wrong (or worth knowing) about a logdir, with the file and byte offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nanscope::core {

enum class Severity {
    Info,    // nothing is lost (e.g. a record still being written)
    Warning, // the reader worked around something; the data it shows may be incomplete
    Error,   // data could not be read (a corrupt record, an unreadable file)
};

std::string_view toString(Severity severity); // "info", "warning", "error"

struct Diagnostic
{
    Severity severity = Severity::Info;
    std::string file;                    // the file concerned; empty for the logdir as a whole
    std::optional<std::uint64_t> offset; // byte offset of the record concerned, when there is one
    std::string message;                 // one plain sentence, no trailing newline
    // How many problems it stands for: more than one for the line that counts those a capped
    // list does not show one by one.
    std::uint64_t problems = 1;

    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

} // namespace nanscope::core
