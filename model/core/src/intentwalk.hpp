// SPDX-License-Identifier: GPL-3.0-or-later
// The walk behind the origin and the propagation (origin.hpp, intent.hpp): every event in
// execution order, its non-finite outputs gathered into *groups* (the values one op made, and
// what carried them on unchanged), each group judged intended or not.
//
// Whether a computed value was absorbed is known only at the end (a later op may still read it),
// so the groups are judged first (run(), judgement()) and counted after (count()): told the
// verdicts, the counting pass writes the hop counts and what was set aside, and names the origin's
// event as it passes it. The walk logs, as it goes, the steps the count needs (each non-finite
// event with the steps its inputs came from, and each finite value made of a group's), so that
// the count replays them instead of walking every event again: in most logdirs they are a small
// part of the events. A log that outgrows its budget is dropped, and the count walks every event
// again, making the same groups in the same order. The first walk keeps every tensor id's
// producer; a second walk only live non-finite tensors (in most logdirs a few), taking from the
// first what the origin's description needs of the others.
#pragma once

#include "indexstate.hpp"
#include "nanscope/core/origin.hpp"

#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

namespace intentwalk {
struct EventCounts;
struct WalkState;
} // namespace intentwalk

class IntentWalk
{
public:
    static constexpr std::uint32_t kNoGroup = UINT32_MAX;

    struct TensorSource
    {
        std::uint64_t execution = 0;
        std::uint32_t slot = 0;
    };
    // What the first walk found.
    struct Judgement
    {
        std::vector<Intent> verdicts;    // by group id (Intent::None: counted)
        std::vector<bool> anyKnownInput; // by group id: an input of its first event was known
        std::uint32_t origin = kNoGroup; // the first group judged Intent::None
        bool sawNonFinite = false;       // none: the second walk has nothing to write
        // The origin's inputs when it is an execution, in its input order: who made each.
        std::vector<std::optional<TensorSource>> originInputs;
    };

    // Called by the count at the origin's event. For a graph trace, `traceInputs` holds the
    // trace that made each input of its op then (kNoTrace: none).
    using OriginVisitor = std::function<void(EventRef, std::span<const std::uint64_t> traceInputs)>;

    // The log's budget: a step takes 40 bytes (and its inputs 4 or 8 each), so 6.7 million
    // steps, for a logdir of that many non-finite events; past it, the count walks again.
    static constexpr std::size_t kDefaultLogBudgetBytes = std::size_t{256} << 20;

    IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
               std::size_t logBudgetBytes = kDefaultLogBudgetBytes);
    ~IntentWalk();
    IntentWalk(const IntentWalk&) = delete;
    IntentWalk& operator=(const IntentWalk&) = delete;

    // Judges every group.
    void run();

    // After run().
    Judgement judgement() const;
    // After run(): the propagation of `judgement` (this walk's) into `out`.
    void count(const Judgement& judgement, Propagation& out, OriginVisitor atOrigin);
    // Whether count() replays the log (false: it walks every event again).
    bool logged() const;

    // Before run(): takes up `state` (the walk where an earlier one stopped, over the first of
    // these events), so that run() walks only the events after those and count() counts only
    // them, on top of the earlier count. False, and nothing taken up, when it does not fit. Its
    // groups are moved, not copied, when given as an rvalue: in a fresh process each new page
    // of memory is a fault, and 10^5 groups are megabytes.
    bool resume(intentwalk::WalkState state);
    // After run() of a resumed walk: whether `judgement` gives every group the state held the
    // verdict it had then (if not, what was counted then no longer holds).
    bool verdictsHold(const Judgement& judgement) const;
    // The events a resumed walk took up (none: it walks from the beginning).
    intentwalk::EventCounts resumedAt() const;
    // After count(), as the walk's last use: where it stopped, with each live value's hop from
    // `counted` (the count of this walk's events), for a later walk to resume; nullopt when it
    // cannot be kept (the log outgrew its budget, or it knows too many tensor ids). The groups
    // are moved into it, not copied.
    std::optional<intentwalk::WalkState> takeState(const Propagation& counted);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::core
