// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's tables where it stopped (intentwalk.hpp), as a saved index keeps them: a walk
// restored from them goes on over what was appended since, instead of walking every event
// again. Nothing in them is trusted: IntentWalk::resume checks every id against the snapshot it
// walks, and refuses a state that does not fit it (the walk then starts from the beginning).
#pragma once

#include "eventorder.hpp"
#include "indexarchive.hpp"
#include "intentwalkterms.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nanscope::core::intentwalk {

struct WalkState
{
    // What was walked: traces [0, traces) and executions [0, executions), with these many
    // graphs and graph ops known, for these expected patterns (their texts).
    std::uint64_t traces = 0;
    std::uint64_t executions = 0;
    std::uint64_t graphs = 0;
    std::uint64_t ops = 0;
    std::vector<std::string> patterns;

    std::vector<Group> groups;
    std::vector<bool> rootAnyKnown;
    std::vector<std::pair<std::uint32_t, std::vector<std::optional<IntentWalk::TensorSource>>>>
        rootInputs;
    std::vector<std::pair<std::uint64_t, Label>> traceLabels;
    std::vector<std::pair<std::int64_t, TensorState>> tensors;
    std::vector<std::pair<GraphIndex, std::uint64_t>> window;
    std::vector<std::uint64_t> latest;                                   // LatestTraces::dense
    std::vector<std::pair<std::uint64_t, std::uint64_t>> latestOverflow; // and its map
    std::vector<std::int64_t> scaleIds;
    bool scaling = false;
    std::uint32_t checks = 0;
    std::uint32_t lastCleanCheck = 0;
    std::vector<bool> checkCaught;
    bool sawNonFinite = false;
    std::vector<Step> steps;
    std::vector<std::uint32_t> carried;
    std::vector<std::uint64_t> rootTraceInputs;
};

// The runs of the snapshot's events after those `state` walked, in execution order (EventOrder);
// nullopt when an event it walked comes after one it did not (a trace file appended to with
// earlier wall times than another's): walked in another order, it would have judged otherwise.
std::optional<std::vector<EventRun>> appendedRuns(const WalkState& state,
                                                  const Snapshot::Data& data);
// Whether every index and id in `state` lies within what it says it walked, and the snapshot
// holds that, with the same graphs, patterns and `latestSize` (LatestTraces::dense's size).
bool fits(const WalkState& state, const Snapshot::Data& data,
          const std::vector<ExpectedPattern>& patterns, std::size_t latestSize);

void putWalkState(ArchiveWriter& w, const WalkState& state);
// The archive fails when the bytes are not a state's.
WalkState getWalkState(ArchiveReader& r);

} // namespace nanscope::core::intentwalk
