// SPDX-License-Identifier: GPL-3.0-or-later
#include "propagationcount.hpp"

#include "largepages.hpp"

#include <algorithm>

namespace nanscope::core::intentwalk {
namespace {

std::string setAsideKey(Intent intent, std::string_view type, std::string_view name,
                        std::string_view module)
{
    return std::string(toString(intent)) + '\n' + std::string(type) + '\n' + std::string(name) +
           '\n' + std::string(module);
}

} // namespace

PropagationCount::PropagationCount(const Snapshot::Data& data,
                                   const std::vector<ExpectedPattern>& patterns,
                                   const IntentWalk::Judgement& judgement,
                                   const std::vector<Group>& groups, Propagation& out,
                                   IntentWalk::OriginVisitor atOrigin, EventCounts from)
    : m_data(data), m_patterns(patterns), m_judged(judgement), m_groups(groups), m_out(out),
      m_atOrigin(std::move(atOrigin)), m_from(from),
      m_groupSetAside(judgement.verdicts.size(), UINT32_MAX)
{
    out.traceHops =
        filledInLargePages(data.traces.size() - std::min(from.traces, data.traces.size()), kFinite);
    out.executionHops = filledInLargePages(
        data.executions.size() - std::min(from.executions, data.executions.size()), kFinite);
    out.expectedPatterns = patterns;
    for (std::size_t k = 0; k < out.setAside.size(); ++k) {
        const SetAside& s = out.setAside[k];
        m_setAsideByKey.emplace(setAsideKey(s.intent, s.opType, s.opName, s.modulePath),
                                static_cast<std::uint32_t>(k));
    }
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
    hops[event.index - m_from.of(event.source)] = hop;
}

Hop PropagationCount::hopOf(EventRef event) const
{
    const auto& hops = event.source == EventSource::Graph ? m_out.traceHops : m_out.executionHops;
    return hops[event.index - m_from.of(event.source)];
}

// The SetAside entry of values set aside for `intent` by this op in this module.
SetAside& PropagationCount::setAsideEntry(Intent intent, EventRef first, const OpTraits& op,
                                          std::uint32_t module, int pattern)
{
    const std::string_view moduleView = moduleText(module);
    auto [it, added] = m_setAsideByKey.emplace(setAsideKey(intent, op.type, op.name, moduleView),
                                               m_out.setAside.size());
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

SetAside& PropagationCount::setAsideOf(std::uint32_t g)
{
    if (m_groupSetAside[g] == UINT32_MAX) { // begun before the count began: its root's entry
        const EventRef root = m_groups[g].root;
        OpTraits op;
        std::uint32_t module = kNoModule;
        if (root.source == EventSource::Graph) {
            const OpInfo& info = m_data.graphs->op(m_data.traces.op[root.index]);
            op.type = info.type;
            op.name = info.name;
        } else {
            op.type = m_data.strings[m_data.executions.opType[root.index]];
            module = m_data.executions.module[root.index];
        }
        const SetAside& s = setAsideEntry(verdictOf(g), root, op, module, m_groups[g].pattern);
        m_groupSetAside[g] = static_cast<std::uint32_t>(&s - m_out.setAside.data());
    }
    return m_out.setAside[m_groupSetAside[g]];
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

Hop PropagationCount::nearestHop(const StepLog& steps, const std::vector<std::uint32_t>& carried,
                                 const Step& step) const
{
    Hop nearest = kFinite;
    for (std::uint32_t k = step.begin; k < step.begin + step.count; ++k) {
        const Step& from = steps[carried[k]];
        const Hop hop =
            from.kind == Step::Kind::Restored ? static_cast<Hop>(from.begin) : hopOf(from.event);
        if (hop <= Propagation::kMaxHops)
            nearest = std::min(nearest, hop);
    }
    return nearest;
}

} // namespace nanscope::core::intentwalk
