// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalk.hpp"

#include "intentwalkimpl.hpp"

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

} // namespace nanscope::core
