// SPDX-License-Identifier: Apache-2.0
// The names GraphOpCreation records carry, in the only forms TensorFlow's reader accepts: its
// _load_graphs splits every input name with `input_name.split(":")` into exactly two parts and
// int()s the second, and TensorBoard's op view indexes the producer's consumers by that slot.
#pragma once

#include "nanscope/status.hpp"

#include <string>
#include <string_view>

namespace nanscope::detail {

// An op name must be non-empty and hold no ':' (which would split an input naming it).
Status checkOpName(std::string_view name);

struct TensorName
{
    std::string op;
    int slot = 0;

    std::string canonical() const { return op + ':' + std::to_string(slot); }
};

// Parses "op:slot" (decimal slot) or "op", which means "op:0". Control inputs ("^op"), empty op
// names, several colons and slots that are not plain non-negative decimals are errors.
Result<TensorName> parseInputName(std::string_view input);

} // namespace nanscope::detail
