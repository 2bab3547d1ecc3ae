// SPDX-License-Identifier: GPL-3.0-or-later
#include "propagationcount.hpp"

#include <algorithm>

namespace nanscope::core::intentwalk {

PropagationCount::PropagationCount(const Snapshot::Data& data,
                                   const std::vector<ExpectedPattern>& patterns,
                                   const IntentWalk::Judgement& judgement,
                                   const std::vector<Group>& groups, Propagation& out,
                                   IntentWalk::OriginVisitor atOrigin)
    : m_data(data), m_patterns(patterns), m_judged(judgement), m_groups(groups), m_out(out),
      m_atOrigin(std::move(atOrigin)), m_groupSetAside(judgement.verdicts.size(), UINT32_MAX)
{
    out.traceHops.assign(data.traces.size(), kFinite);
    out.executionHops.assign(data.executions.size(), kFinite);
    out.expectedPatterns = patterns;
}

Intent PropagationCount::verdictOf(std::uint32_t g) const
{
    return g < m_judged.verdicts.size() ? m_judged.verdicts[g] : Intent::None;
}

std::string_view PropagationCount::moduleText(std::uint32_t module) const
{
    return module == kNoModule ? std::string_view{} : std::string_view(m_data.strings[module]);
}

void PropagationCount::setHop(EventRef event, Hop hop)
{
    auto& hops = event.source == EventSource::Graph ? m_out.traceHops : m_out.executionHops;
    hops[event.index] = hop;
}

Hop PropagationCount::hopOf(EventRef event) const
{
    const auto& hops = event.source == EventSource::Graph ? m_out.traceHops : m_out.executionHops;
    return hops[event.index];
}

// The SetAside entry of values set aside for `intent` by this op in this module.
SetAside& PropagationCount::setAsideEntry(Intent intent, EventRef first, const OpTraits& op,
                                          std::uint32_t module, int pattern)
{
    const std::string_view moduleView = moduleText(module);
    std::string key = std::string(toString(intent)) + '\n' + std::string(op.type) + '\n' +
                      std::string(op.name) + '\n' + std::string(moduleView);
    auto [it, added] = m_setAsideByKey.emplace(std::move(key), m_out.setAside.size());
    if (added) {
        SetAside s;
        s.intent = intent;
        s.first = first;
        s.opType = op.type;
        s.opName = op.name;
        s.modulePath = moduleView;
        if (intent == Intent::Expected)
            s.pattern = m_patterns[static_cast<std::size_t>(pattern)].text;
        m_out.setAside.push_back(std::move(s));
    }
    return m_out.setAside[it->second];
}

Hop PropagationCount::root(EventRef event, std::uint32_t g, const OpTraits& op,
                           std::uint32_t module, std::uint8_t kinds,
                           std::span<const std::uint64_t> traceInputs)
{
    Hop hop = 0;
    if (verdictOf(g) != Intent::None) {
        hop = Propagation::kIntended;
        ++m_out.intendedEvents;
        const Group& group = m_groups[g];
        SetAside& s = setAsideEntry(verdictOf(g), group.root, op, module, group.pattern);
        if (g < m_groupSetAside.size())
            m_groupSetAside[g] = static_cast<std::uint32_t>(&s - m_out.setAside.data());
        ++s.producers;
        s.kinds |= kinds;
    } else {
        const bool anyKnownInput = g < m_judged.anyKnownInput.size() && m_judged.anyKnownInput[g];
        ++(anyKnownInput ? m_out.producers : m_out.entries);
        if (g == m_judged.origin && m_atOrigin)
            m_atOrigin(event, traceInputs);
    }
    setHop(event, hop);
    return hop;
}

Hop PropagationCount::carry(EventRef event, std::uint32_t chosen, Hop nearest)
{
    Hop hop = 0;
    if (nearest > Propagation::kMaxHops) {
        hop = Propagation::kIntended;
        ++m_out.intendedEvents;
        if (verdictOf(chosen) != Intent::None)
            ++setAsideOf(chosen).carriers;
    } else {
        hop = static_cast<Hop>(std::min<int>(nearest + 1, Propagation::kMaxHops));
        ++m_out.propagators;
    }
    setHop(event, hop);
    return hop;
}

void PropagationCount::uninitialised(EventRef event, const OpTraits& op, std::uint32_t module,
                                     std::uint8_t kinds)
{
    setHop(event, Propagation::kUninitialised);
    ++m_out.uninitialisedEvents;
    SetAside& s = setAsideEntry(Intent::Uninitialised, event, op, module, 0);
    ++s.producers;
    s.kinds |= kinds;
}

void PropagationCount::absorbed(std::uint32_t g, std::string_view opType)
{
    if (verdictOf(g) == Intent::None)
        return;
    auto& by = setAsideOf(g).absorbedBy;
    if (by.size() < 4 && std::find(by.begin(), by.end(), opType) == by.end())
        by.emplace_back(opType);
}

Hop PropagationCount::nearestHop(const std::vector<Step>& steps,
                                 const std::vector<std::uint32_t>& carried, const Step& step) const
{
    Hop nearest = kFinite;
    for (std::uint32_t k = step.begin; k < step.begin + step.count; ++k) {
        const Hop hop = hopOf(steps[carried[k]].event);
        if (hop <= Propagation::kMaxHops)
            nearest = std::min(nearest, hop);
    }
    return nearest;
}

} // namespace nanscope::core::intentwalk
