// SPDX-License-Identifier: GPL-3.0-or-later
// The counting pass of the intent walk (intentwalk.hpp): told the first walk's verdicts, it
// writes each non-finite event's hop count, the counts, and what was set aside, and names the
// origin's event as it passes it. It is fed either by replaying the steps the first walk logged
// or, where the log outgrew its budget, by a second walk over every event.
#pragma once

#include "intentwalkterms.hpp"

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope::core::intentwalk {

class PropagationCount
{
public:
    // `groups`: the walk's groups by id, as far as the events fed so far made them. `from`: the
    // first trace and execution counted; `out` then holds the count of the events before them
    // (a saved propagation's, hop arrays aside), and gets the hops of the events from there on.
    PropagationCount(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
                     const IntentWalk::Judgement& judgement, const std::vector<Group>& groups,
                     Propagation& out, IntentWalk::OriginVisitor atOrigin, EventCounts from = {});

    // Group `g` began at `event`: returns the hop its values carry. `traceInputs`: for a graph
    // event, the trace that made each of its op's inputs (for the origin's description).
    Hop root(EventRef event, std::uint32_t g, const OpTraits& op, std::uint32_t module,
             std::uint8_t kinds, std::span<const std::uint64_t> traceInputs);
    // `event` carried group `chosen` on; `nearest`: the smallest hop among its inputs' values.
    Hop carry(EventRef event, std::uint32_t chosen, Hop nearest);
    void uninitialised(EventRef event, const OpTraits& op, std::uint32_t module,
                       std::uint8_t kinds);
    // An op of type `opType` made finite values of group `g`'s.
    void absorbed(std::uint32_t g, std::string_view opType);

    // Feeds the first walk's steps in order; `traceInputs` holds the Root steps' graph inputs,
    // and `opOf` finds the op a step names.
    template <typename OpOf>
    void replay(const StepLog& steps, const std::vector<std::uint32_t>& carried,
                const std::vector<std::uint64_t>& traceInputs, OpOf&& opOf)
    {
        for (const Step& s : steps) {
            switch (s.kind) {
            case Step::Kind::Root:
                root(s.event, s.group, opOf(s), s.module, s.kinds,
                     std::span(traceInputs).subspan(s.begin, s.count));
                break;
            case Step::Kind::Carry:
                carry(s.event, s.group, nearestHop(steps, carried, s));
                break;
            case Step::Kind::Uninitialised:
                uninitialised(s.event, opOf(s), s.module, s.kinds);
                break;
            case Step::Kind::Absorbed:
                absorbed(s.group, opOf(s).type);
                break;
            case Step::Kind::Restored: // counted before
                break;
            }
        }
    }

private:
    Intent verdictOf(std::uint32_t g) const;
    std::string_view moduleText(std::uint32_t module) const;
    void setHop(EventRef event, Hop hop);
    Hop hopOf(EventRef event) const;
    // The smallest hop among the values a Carry step's inputs carried (kFinite: none counted).
    Hop nearestHop(const StepLog& steps, const std::vector<std::uint32_t>& carried,
                   const Step& step) const;
    // Group `g`'s entry; for a group counted before (a resumed walk's), found by its root's op.
    SetAside& setAsideOf(std::uint32_t g);
    SetAside& setAsideEntry(Intent intent, EventRef first, const OpTraits& op, std::uint32_t module,
                            int pattern);

    const Snapshot::Data& m_data;
    const std::vector<ExpectedPattern>& m_patterns;
    const IntentWalk::Judgement& m_judged;
    const std::vector<Group>& m_groups;
    Propagation& m_out;
    IntentWalk::OriginVisitor m_atOrigin;
    EventCounts m_from;
    std::vector<std::uint32_t> m_groupSetAside; // by group: its SetAside entry
    std::unordered_map<std::string, std::uint32_t> m_setAsideByKey;
};

} // namespace nanscope::core::intentwalk
