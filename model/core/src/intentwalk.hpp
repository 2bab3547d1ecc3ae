// SPDX-License-Identifier: GPL-3.0-or-later
// The walk behind the origin and the propagation (origin.hpp, intent.hpp): every event in
// execution order, its non-finite outputs gathered into *groups* (the values one op made, and
// what carried them on unchanged), each group judged intended or not.
//
// Whether a computed value was absorbed is known only at the end (a later op may still read it),
// so the walk runs twice over the same events and makes the same groups in the same order: the
// first time it judges them (judgement()), the second time, told the verdicts, it writes the hop
// counts and what was set aside, and stops by the origin's event to let it be described. The
// first walk keeps every tensor id's producer; the second only live non-finite tensors (in most
// logdirs a few), taking from the first what the origin's description needs of the others.
#pragma once

#include "indexstate.hpp"
#include "latesttraces.hpp"
#include "nanscope/core/origin.hpp"

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

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

    // Called by the second walk at the origin's event, before its outputs are registered: the
    // walk's tables then hold what its graph inputs were.
    using OriginVisitor = std::function<void(const IntentWalk&, EventRef)>;

    // The first walk.
    IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns);
    // The second: `judgement` from the first walk; fills `out`.
    IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
               const Judgement& judgement, Propagation& out, OriginVisitor atOrigin);
    ~IntentWalk();
    IntentWalk(const IntentWalk&) = delete;
    IntentWalk& operator=(const IntentWalk&) = delete;

    void run();

    // After the first run.
    Judgement judgement() const;

    // For the origin's description, from the visitor.
    const LatestTraces& latestTraces() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::core
