// SPDX-License-Identifier: GPL-3.0-or-later
// The traces that fed a trace: for each data input of its op, the most recent earlier trace of
// the producing op and output slot (through pass-through ops such as Identity, which TensorFlow
// never instruments). Exact where Debugger V2 guesses from the 200 rows before.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::core {

struct InputTrace
{
    std::size_t input = 0;   // index into the op's inputs
    std::uint64_t trace = 0; // the trace that computed it
    friend bool operator==(const InputTrace&, const InputTrace&) = default;
};

// How far back the search goes: far beyond any step of a real model, and still only a few
// milliseconds of digests when an input was never traced.
inline constexpr std::uint64_t kInputLookBack = 1u << 20;

// Inputs with no trace within `lookBack` traces before `trace` are left out.
std::vector<InputTrace> findInputTraces(const Snapshot& snapshot, std::uint64_t trace,
                                        std::uint64_t lookBack = kInputLookBack);

} // namespace nanscope::core
