// SPDX-License-Identifier: GPL-3.0-or-later
// The walk behind the origin and the propagation (origin.hpp, intent.hpp): every event in
// execution order, its non-finite outputs gathered into *groups* (the values one op made, and
// what carried them on unchanged), each group judged intended or not.
//
// Whether a computed value was absorbed is known only at the end (a later op may still read it),
// so the walk runs twice over the same events and makes the same groups in the same order: the
// first time it judges them (verdicts()), the second time, told the verdicts, it writes the hop
// counts and what was set aside, and stops by the origin's event to let it be described.
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
    // Called by the second walk at the origin's event, before its outputs are registered: the
    // walk's tables then hold what its inputs were.
    using OriginVisitor = std::function<void(const IntentWalk&, EventRef)>;

    // The first walk.
    IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns);
    // The second: `verdicts` from the first walk's verdicts(); fills `out`.
    IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
               const std::vector<Intent>& verdicts, Propagation& out, OriginVisitor atOrigin);
    ~IntentWalk();
    IntentWalk(const IntentWalk&) = delete;
    IntentWalk& operator=(const IntentWalk&) = delete;

    void run();

    // After the first run: each group's verdict, by group id (Intent::None: counted).
    std::vector<Intent> verdicts() const;
    // Whether the first run saw any non-finite value (none: the second has nothing to write).
    bool sawNonFinite() const;
    // The first group judged Intent::None: the origin's (kNoGroup when there is none).
    static std::uint32_t originGroup(const std::vector<Intent>& verdicts);

    // For the origin's description, from the visitor.
    const LatestTraces& latestTraces() const;
    std::optional<TensorSource> tensorSource(std::int64_t id) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::core
