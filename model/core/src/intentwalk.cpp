// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalk.hpp"

#include "intentwalkimpl.hpp"
#include "intentwalkstate.hpp"

namespace nanscope::core {

IntentWalk::IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
                       std::size_t logBudgetBytes)
    : m_impl(std::make_unique<Impl>(data, patterns, logBudgetBytes))
{}

IntentWalk::~IntentWalk() = default;

void IntentWalk::run()
{
    m_impl->run();
}

IntentWalk::Judgement IntentWalk::judgement() const
{
    Judgement j;
    const Impl& d = *m_impl;
    j.verdicts.reserve(d.groups.size());
    const std::vector<std::uint32_t> skipRuns = skipRunsOf(d.checkCaught);
    const std::vector<bool> escaped = d.escapedAtEnd();
    for (std::size_t k = 0; k < d.groups.size(); ++k) {
        const Group& g = d.groups[k];
        if (g.construction != Intent::None)
            j.verdicts.push_back(g.construction);
        else
            // In a scaled window, the scaler's catch is what a reader (zero_grad's zero_)
            // that made them finite would otherwise be credited with.
            j.verdicts.push_back(d.lossScaled(g, skipRuns) ? Intent::LossScaled
                                 : !escaped[k]             ? Intent::Absorbed
                                                           : Intent::None);
    }
    j.anyKnownInput = d.rootAnyKnown;
    const auto origin = std::find(j.verdicts.begin(), j.verdicts.end(), Intent::None);
    if (origin != j.verdicts.end()) {
        j.origin = static_cast<std::uint32_t>(origin - j.verdicts.begin());
        if (const auto it = d.rootInputs.find(j.origin); it != d.rootInputs.end())
            j.originInputs = it->second;
    }
    j.sawNonFinite = d.sawNonFinite;
    return j;
}

void IntentWalk::count(const Judgement& judgement, Propagation& out, OriginVisitor atOrigin)
{
    Impl& first = *m_impl;
    if (first.logging) {
        PropagationCount counting(first.d, first.patterns, judgement, first.groups, out,
                                  std::move(atOrigin), first.walked);
        counting.replay(first.steps, first.carried, first.rootTraceInputs,
                        [&](const Step& step) -> const OpTraits& { return first.opOf(step); });
        return;
    }
    // The log outgrew its budget: a second walk over every event, which makes the same groups.
    Impl second(first.d, first.patterns, 0);
    PropagationCount counting(first.d, first.patterns, judgement, second.groups, out,
                              std::move(atOrigin));
    second.judged = &judgement;
    second.counting = &counting;
    second.run();
}

bool IntentWalk::logged() const
{
    return m_impl->logging;
}

bool IntentWalk::resume(WalkState state)
{
    Impl& d = *m_impl;
    if (d.appendedRuns || !d.groups.empty() || d.second())
        return false; // walked already
    // Whether the scales are those the state knew, but for new ones that no multiplication it
    // walked read.
    const auto sameScales = [&d, &state] {
        d.collectScales();
        const std::unordered_set<std::int64_t> known(state.scaleIds.begin(), state.scaleIds.end());
        std::unordered_set<std::int64_t> added;
        for (const std::int64_t id : d.scaleIds)
            if (!known.count(id))
                added.insert(id);
        if (known.size() + added.size() != d.scaleIds.size())
            return false; // one is gone: not the executions it walked
        const auto& x = d.d.executions;
        for (std::uint64_t e = 0; e < state.executions && !added.empty(); ++e)
            if (d.eagerTraits(x.opType[e]).scaling)
                for (std::uint32_t j = 0; j < x.inputCount[e]; ++j)
                    if (added.count(x.tensorIds[x.idsBegin[e] + j]))
                        return false;
        return true;
    };
    auto appended = appendedRuns(state, d.d);
    if (!appended || !fits(state, d.d, d.patterns, d.latest.denseOutputs()) || !sameScales()) {
        d.scaleIds.clear();
        return false;
    }
    d.groups = std::move(state.groups);
    d.restoredVerdicts = std::move(state.verdicts);
    d.rootAnyKnown.assign(d.groups.size(), false); // counted then
    // Each live value goes on from a Restored step that holds its hop.
    const auto restored = [&](Label label) {
        if (label.nonFinite()) {
            Step step;
            step.kind = Step::Kind::Restored;
            step.group = label.group;
            step.begin = label.hop;
            label.step = d.log(step);
        }
        label.hop = kFinite;
        return label;
    };
    for (const auto& [trace, label] : state.traceLabels)
        d.traceLabels.put(trace, d.d.traces.op[trace], d.d.traces.slot[trace], restored(label));
    d.tensors.reserve(state.tensors.size());
    for (const auto& [id, tensor] : state.tensors)
        d.tensors[id] = {tensor.source, restored(tensor.label)};
    d.window = {state.window.begin(), state.window.end()};
    d.latest.restore(state.latest, {state.latestOverflow.begin(), state.latestOverflow.end()});
    d.scaling = state.scaling;
    d.checks = state.checks;
    d.lastCleanCheck = state.lastCleanCheck;
    d.checkCaught = state.checkCaught;
    d.sawNonFinite = state.sawNonFinite;
    d.walked = {state.traces, state.executions};
    d.appendedRuns = std::move(*appended);
    return true;
}

bool IntentWalk::verdictsHold(const Judgement& judgement) const
{
    const Impl& d = *m_impl;
    return judgement.verdicts.size() >= d.restoredVerdicts.size() &&
           std::equal(d.restoredVerdicts.begin(), d.restoredVerdicts.end(),
                      judgement.verdicts.begin());
}

EventCounts IntentWalk::resumedAt() const
{
    return m_impl->walked;
}

std::optional<WalkState> IntentWalk::takeState(const Propagation& counted)
{
    Impl& d = *m_impl;
    if (!d.logging || d.second() || d.tensors.size() > kMaxStateTensors)
        return std::nullopt;
    Judgement j = judgement();
    WalkState s;
    s.traces = d.d.traces.size();
    s.executions = d.d.executions.size();
    s.graphs = d.d.graphs->graphs().size();
    s.ops = d.d.graphs->ops().size();
    for (const auto& p : d.patterns)
        s.patterns.push_back(p.text);
    s.groups = std::move(d.groups);
    s.verdicts = std::move(j.verdicts);
    // A live value's hop: its step's, as the count gave it (a Restored step holds it).
    const auto withHop = [&](Label label) {
        if (label.nonFinite() && label.step < d.steps.size()) {
            const Step& step = d.steps[label.step];
            if (step.kind == Step::Kind::Restored) {
                label.hop = static_cast<Hop>(step.begin);
            } else {
                const auto& hops = step.event.source == EventSource::Graph ? counted.traceHops
                                                                           : counted.executionHops;
                const std::uint64_t at = step.event.index - d.walked.of(step.event.source);
                label.hop = at < hops.size() ? hops[at] : kFinite;
            }
        }
        label.step = kNoStep;
        return label;
    };
    d.traceLabels.forEach([&](std::uint64_t trace, const Label& label) {
        s.traceLabels.emplace_back(trace, withHop(label));
    });
    s.tensors.reserve(d.tensors.size());
    for (const auto& [id, tensor] : d.tensors)
        s.tensors.emplace_back(id, TensorState{tensor.source, withHop(tensor.label)});
    s.window.assign(d.window.begin(), d.window.end());
    s.latest = d.latest.dense();
    s.latestOverflow.assign(d.latest.overflow().begin(), d.latest.overflow().end());
    s.scaleIds.assign(d.scaleIds.begin(), d.scaleIds.end());
    s.scaling = d.scaling;
    s.checks = d.checks;
    s.lastCleanCheck = d.lastCleanCheck;
    s.checkCaught = d.checkCaught;
    s.sawNonFinite = d.sawNonFinite;
    return s;
}

} // namespace nanscope::core
