// SPDX-License-Identifier: GPL-3.0-or-later
// What each op of a picture computed around the focused trace, found by bounded walks through
// the trace digests, so that the boxes show one run of the graph rather than a mix of steps.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace nanscope::core {

enum class NodeHealth : std::uint8_t { Unknown, Finite, Infinite, NaN };

// NaN wins over infinities; a non-finite flag without counts (CURT_HEALTH) reads as NaN, the
// more alarming of the two.
NodeHealth nodeHealth(HealthDigest digest);
std::string_view toString(NodeHealth health); // "unknown", "finite", "inf", "nan"

struct OpTrace
{
    std::optional<std::uint64_t> trace;
    HealthDigest health;
};

// One entry per op of `ops` (distinct ids; a repeated id is answered once).
//
// Without a focused trace: each op's latest trace in the logdir. With one: each op's latest
// trace at or before it, except for ops `downstream` of the focused op (same size as `ops`, or
// empty): they run after it in every run of the graph, so their trace of the focused run is the
// first one after the focused trace, before the focused op computes the same tensor again (the
// latest one before remains the answer when there is none). Each walk reads at most `budget`
// digests.
std::vector<OpTrace> tracesAround(const Snapshot& snapshot, const std::vector<OpId>& ops,
                                  const std::vector<bool>& downstream,
                                  std::optional<std::uint64_t> focusedTrace,
                                  std::uint64_t budget = 4'000'000);

// Which of `ops` the focused op's outputs reach (through consumers, in its graph).
std::vector<bool> downstreamOf(const GraphTable& graphs, const std::vector<OpId>& ops,
                               OpId focused);

} // namespace nanscope::core
