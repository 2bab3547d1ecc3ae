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
                                  std::move(atOrigin));
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

std::optional<WalkState> IntentWalk::state() const
{
    const Impl& d = *m_impl;
    if (!d.logging || d.second())
        return std::nullopt;
    WalkState s;
    s.traces = d.walkedTraces;
    s.executions = d.walkedExecutions;
    s.graphs = d.d.graphs->graphs().size();
    s.ops = d.d.graphs->ops().size();
    for (const auto& p : d.patterns)
        s.patterns.push_back(p.text);
    s.groups = d.groups;
    s.rootAnyKnown = d.rootAnyKnown;
    s.rootInputs.assign(d.rootInputs.begin(), d.rootInputs.end());
    s.traceLabels.assign(d.traceLabels.begin(), d.traceLabels.end());
    s.tensors.assign(d.tensors.begin(), d.tensors.end());
    s.window.assign(d.window.begin(), d.window.end());
    s.latest = d.latest.dense();
    s.latestOverflow.assign(d.latest.overflow().begin(), d.latest.overflow().end());
    s.scaleIds.assign(d.scaleIds.begin(), d.scaleIds.end());
    s.scaling = d.scaling;
    s.checks = d.checks;
    s.lastCleanCheck = d.lastCleanCheck;
    s.checkCaught = d.checkCaught;
    s.sawNonFinite = d.sawNonFinite;
    s.steps = d.steps;
    s.carried = d.carried;
    s.rootTraceInputs = d.rootTraceInputs;
    return s;
}

bool IntentWalk::resume(const WalkState& state)
{
    Impl& d = *m_impl;
    auto appended = appendedRuns(state, d.d);
    if (!appended || !fits(state, d.d, d.patterns, d.latest.dense().size()))
        return false;
    if (!d.sameScales(state.scaleIds, state.executions))
        return false;
    d.groups = state.groups;
    d.rootAnyKnown = state.rootAnyKnown;
    d.rootInputs = {state.rootInputs.begin(), state.rootInputs.end()};
    d.traceLabels = {state.traceLabels.begin(), state.traceLabels.end()};
    d.tensors.insert(state.tensors.begin(), state.tensors.end());
    d.window = {state.window.begin(), state.window.end()};
    d.latest.restore(state.latest, {state.latestOverflow.begin(), state.latestOverflow.end()});
    d.scaling = state.scaling;
    d.checks = state.checks;
    d.lastCleanCheck = state.lastCleanCheck;
    d.checkCaught = state.checkCaught;
    d.sawNonFinite = state.sawNonFinite;
    d.steps = state.steps;
    d.carried = state.carried;
    d.rootTraceInputs = state.rootTraceInputs;
    d.walkedTraces = state.traces;
    d.walkedExecutions = state.executions;
    d.appendedRuns = std::move(*appended);
    return true;
}

} // namespace nanscope::core
