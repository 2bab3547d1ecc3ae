// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk where it stopped (intentwalk.hpp), as a saved index keeps it: a walk restored
// from it goes on over what was appended since, and when that leaves every verdict it gave as it
// was, only the appended events are counted (origin.cpp). What it keeps is what a later event can
// still meet: the groups and their verdicts, the live values' labels with the hop each carries,
// every tensor id's producer, the latest trace of each op output, the loss scaler's state. Not the
// log of steps: the counts and hops of the events walked are in the saved propagation.
//
// Nothing in it is trusted: fits() checks every index and id against the snapshot it is resumed
// on, and a state that does not fit is refused (the analysis then starts from the beginning).
#pragma once

#include "eventorder.hpp"
#include "indexarchive.hpp"
#include "intentwalkterms.hpp"

#include <cstdint>
#include <memory>
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
    std::vector<Intent> verdicts; // by group, as the walk's judgement gave them
    // Live labels carry their values' hop (Label::hop), not a step: the log is not kept.
    std::vector<std::pair<std::uint64_t, Label>> traceLabels; // by trace
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
};

// A state past this many tensor ids is not kept: saved with every index and restored entry by
// entry, it would cost a reopen more than the walk it saves (an eager run's ids, mostly dead).
inline constexpr std::size_t kMaxStateTensors = std::size_t{1} << 18;

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

// A state as a saved index holds it, or as the last analysis of a growing logdir kept it. The
// bytes of a saved one stay where they lie until a walk resumes from it, as most reopens never
// do (the logdir did not grow).
class SavedWalkState
{
public:
    // `bytes`: as putWalkState wrote them, kept by `owner`.
    SavedWalkState(std::span<const std::byte> bytes, std::shared_ptr<const void> owner)
        : m_bytes(bytes), m_owner(std::move(owner))
    {}
    // Kept as it is, in memory.
    explicit SavedWalkState(std::shared_ptr<const WalkState> state) : m_state(std::move(state)) {}

    // Its bytes as putWalkState writes them: those it was saved in, or `scratch`'s, written now.
    std::span<const std::byte> bytes(ArchiveWriter& scratch) const;
    // A state of the caller's own, for a walk to take up (IntentWalk::resume): decoded from the
    // bytes, or a copy of the one kept in memory; nullopt when the bytes are not one.
    std::optional<WalkState> take() const;

private:
    std::span<const std::byte> m_bytes;
    std::shared_ptr<const void> m_owner;
    std::shared_ptr<const WalkState> m_state;
};

} // namespace nanscope::core::intentwalk
