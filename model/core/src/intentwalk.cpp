// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalk.hpp"

#include "eventorder.hpp"
#include "graphnesting.hpp"
#include "intentwalkterms.hpp"

#include <algorithm>
#include <memory_resource>
#include <string>
#include <unordered_set>

namespace nanscope::core {

using namespace intentwalk;

struct IntentWalk::Impl
{
    const Snapshot::Data& d;
    const std::vector<ExpectedPattern>& patterns;
    const Judgement* judged = nullptr; // the second walk's
    Propagation* out = nullptr;
    OriginVisitor atOrigin;
    bool sawNonFinite = false;

    LatestTraces latest;
    GraphNesting nesting;
    std::vector<OpTraits> graphOps;                       // by OpId
    std::unordered_map<std::uint32_t, OpTraits> eagerOps; // by op type string id
    std::vector<Group> groups;
    std::unordered_map<std::uint64_t, Label> traceLabels; // live non-finite traces
    // By tensor id: every id in the first walk, the non-finite ones in the second. Their nodes
    // come from one arena: a walk over millions of executions spent a tenth of its time freeing
    // them one by one.
    std::pmr::monotonic_buffer_resource tensorArena;
    std::pmr::unordered_map<std::int64_t, TensorState> tensors{&tensorArena};
    // First walk: per group, whether its first event had an input of known health, and for
    // groups still to be judged that began at an execution, who made each of its inputs.
    std::vector<bool> rootAnyKnown;
    std::unordered_map<std::uint32_t, std::vector<std::optional<TensorSource>>> rootInputs;
    // A function call's outputs were computed last by its graph's traces since the previous
    // execution: per graph, its latest non-finite trace there.
    std::unordered_map<GraphIndex, std::uint64_t> window;
    // Second walk: each group's SetAside entry, and those entries by key.
    std::vector<std::uint32_t> groupSetAside;
    std::unordered_map<std::string, std::uint32_t> setAsideByKey;
    std::vector<Label*> inputs; // of the event being visited, reused
    // Loss scaling: the scale tensors (what the scaler's updates read first); whether the loss
    // was scaled since the last check; the checks so far, and the last that found every
    // gradient finite (1-based; 0: none), which tells that the scaler recovered.
    std::unordered_set<std::int64_t> scaleIds;
    bool scaling = false;
    std::uint32_t checks = 0;
    std::uint32_t lastCleanCheck = 0;
    std::vector<bool> checkCaught; // by check: it read a non-finite value

    Impl(const Snapshot::Data& data, const std::vector<ExpectedPattern>& p)
        : d(data), patterns(p), latest(*data.graphs), nesting(*data.graphs)
    {
        const auto& ops = data.graphs->ops();
        graphOps.reserve(ops.size());
        for (const auto& op : ops)
            graphOps.push_back(traitsOf(op.type, op.name));
    }

    bool second() const { return judged != nullptr; }
    Intent verdictOf(std::uint32_t g) const
    {
        return g < judged->verdicts.size() ? judged->verdicts[g] : Intent::None;
    }

    const OpTraits& eagerTraits(std::uint32_t typeId)
    {
        auto it = eagerOps.find(typeId);
        if (it == eagerOps.end())
            it = eagerOps.emplace(typeId, traitsOf(d.strings[typeId], {})).first;
        return it->second;
    }

    void setHop(EventRef ref, Hop hop)
    {
        if (!out)
            return;
        auto& hops = ref.source == EventSource::Graph ? out->traceHops : out->executionHops;
        hops[ref.index] = hop;
    }

    void escape(std::uint32_t g)
    {
        if (!second() && g < groups.size())
            groups[g].escaped = true;
    }

    // Only infinities are absorbed: a mask writes -inf, never NaN, and a NaN that an op hid
    // (max, relu, where) was still made by mistake. Values of unknown kind may be NaN.
    void notAbsorbable(std::uint32_t g, std::uint8_t kinds)
    {
        if (kinds == 0 || (kinds & nonfinite::NaN))
            escape(g);
    }

    // The user's first pattern for this op that allows every kind it made.
    int matchingPattern(const OpTraits& op, std::uint8_t kinds) const
    {
        if (patterns.empty())
            return -1;
        if (!op.patternsMatched) {
            for (std::size_t p = 0; p < patterns.size(); ++p)
                if (patterns[p].matchesOp(op.type, op.name))
                    op.patterns.push_back(static_cast<std::uint16_t>(p));
            op.patternsMatched = true;
        }
        for (const auto p : op.patterns) {
            const std::uint8_t allowed = patterns[p].kinds;
            if (kinds == 0 ? allowed == nonfinite::Any : (kinds & ~allowed) == 0)
                return p;
        }
        return -1;
    }

    SetAside& setAsideOf(std::uint32_t g) { return out->setAside[groupSetAside[g]]; }

    void noteAbsorbed(std::uint32_t g, std::string_view opType)
    {
        if (!second() || verdictOf(g) == Intent::None)
            return;
        auto& by = setAsideOf(g).absorbedBy;
        if (by.size() < 4 && std::find(by.begin(), by.end(), opType) == by.end())
            by.emplace_back(opType);
    }

    // The SetAside entry of values set aside for `intent` by this op in this module.
    SetAside& setAsideEntry(Intent intent, EventRef first, const OpTraits& op,
                            std::string_view module, int pattern)
    {
        std::string key = std::string(toString(intent)) + '\n' + std::string(op.type) + '\n' +
                          std::string(op.name) + '\n' + std::string(module);
        auto [it, added] = setAsideByKey.emplace(std::move(key), out->setAside.size());
        if (added) {
            SetAside s;
            s.intent = intent;
            s.first = first;
            s.opType = op.type;
            s.opName = op.name;
            s.modulePath = module;
            if (intent == Intent::Expected)
                s.pattern = patterns[static_cast<std::size_t>(pattern)].text;
            out->setAside.push_back(std::move(s));
        }
        return out->setAside[it->second];
    }

    void openSetAside(std::uint32_t g, const OpTraits& op, std::string_view module)
    {
        const SetAside& s =
            setAsideEntry(verdictOf(g), groups[g].root, op, module, groups[g].pattern);
        groupSetAside[g] = static_cast<std::uint32_t>(&s - out->setAside.data());
    }

    void noteUninitialised(EventRef ref, const OpTraits& op, std::string_view module,
                           std::uint8_t kinds)
    {
        setHop(ref, Propagation::kUninitialised);
        ++out->uninitialisedEvents;
        SetAside& s = setAsideEntry(Intent::Uninitialised, ref, op, module, 0);
        ++s.producers;
        s.kinds |= kinds;
    }

    Label root(EventRef ref, const OpTraits& op, std::string_view module, Intent construction,
               int pattern, std::uint8_t kinds, bool anyKnownInput)
    {
        const auto g = static_cast<std::uint32_t>(groups.size());
        groups.push_back(
            {ref, construction, false, static_cast<std::uint16_t>(std::max(0, pattern))});
        groups.back().afterScaling = scaling;
        groups.back().window = checks;
        notAbsorbable(g, kinds);
        Label label{g, 0, kinds, true, false};
        if (!second()) {
            rootAnyKnown.push_back(anyKnownInput);
            return label;
        }
        anyKnownInput = g < judged->anyKnownInput.size() && judged->anyKnownInput[g];
        groupSetAside.push_back(UINT32_MAX);
        if (verdictOf(g) != Intent::None) {
            label.hop = Propagation::kIntended;
            ++out->intendedEvents;
            openSetAside(g, op, module);
            SetAside& s = setAsideOf(g);
            ++s.producers;
            s.kinds |= kinds;
        } else {
            ++(anyKnownInput ? out->producers : out->entries);
            if (g == judged->origin && atOrigin)
                atOrigin(*outer, ref);
        }
        setHop(ref, label.hop);
        return label;
    }

    Label carry(EventRef ref, std::uint32_t chosen, std::uint8_t kinds)
    {
        notAbsorbable(chosen, kinds);
        Label label{chosen, kFinite, kinds, true, false};
        if (!second())
            return label;
        Hop nearest = kFinite;
        for (const Label* in : inputs)
            if (in->hop <= Propagation::kMaxHops)
                nearest = std::min(nearest, in->hop);
        if (nearest == kFinite) {
            label.hop = Propagation::kIntended;
            ++out->intendedEvents;
            if (verdictOf(chosen) != Intent::None)
                ++setAsideOf(chosen).carriers;
        } else {
            label.hop = static_cast<Hop>(std::min<int>(nearest + 1, Propagation::kMaxHops));
            ++out->propagators;
        }
        setHop(ref, label.hop);
        return label;
    }

    // The group a carried value joins: the input that explains its worst kind, an input whose
    // group is still to be judged before a constant, then the earliest.
    std::uint32_t chooseCarried(std::uint8_t kinds) const
    {
        auto rank = [&](const Label* in) {
            const bool explainsNaN =
                !(kinds & nonfinite::NaN) || in->kinds == 0 || (in->kinds & nonfinite::NaN);
            const bool toJudge = groups[in->group].construction == Intent::None;
            return std::make_tuple(!explainsNaN, !toJudge, in->group);
        };
        const Label* best = inputs.front();
        for (const Label* in : inputs)
            if (rank(in) < rank(best))
                best = in;
        return best->group;
    }

    // One event; `inputs` holds the labels of its non-finite inputs. Returns its outputs' label.
    Label visit(EventRef ref, std::uint8_t bits, const OpTraits& op, std::string_view module,
                bool hasOutputs, bool anyKnownInput)
    {
        sawNonFinite = sawNonFinite || nonFinite(bits);
        if (!op.constant) // a writer overwrites what the scaler caught without using it
            for (const Label* in : inputs)
                if (groups[in->group].window < checks)
                    groups[in->group].escapedScaler = true;
        if (op.uninitialised) {
            if (nonFinite(bits) && out)
                noteUninitialised(ref, op, module, kindsOf(bits));
            return {};
        }
        if (!(bits & health::Known)) {
            for (Label* in : inputs) {
                in->read = true;
                if (!hasOutputs) { // its values went where no record follows them
                    escape(in->group);
                    groups[in->group].escapedScaler = true;
                }
            }
            return {};
        }
        if (!(bits & health::NonFinite)) {
            for (Label* in : inputs) {
                in->read = true;
                noteAbsorbed(in->group, op.type);
            }
            return {};
        }
        const std::uint8_t kinds = kindsOf(bits);
        for (Label* in : inputs)
            in->read = true;
        const int pattern = matchingPattern(op, kinds);
        const Intent own = pattern >= 0  ? Intent::Expected
                           : op.constant ? Intent::Constant
                                         : Intent::None;
        if (inputs.empty())
            return root(ref, op, module, own, pattern, kinds, anyKnownInput);
        const bool nanIn = std::any_of(inputs.begin(), inputs.end(), [](const Label* in) {
            return in->kinds == 0 || (in->kinds & nonfinite::NaN);
        });
        if (!(kinds & nonfinite::NaN) || nanIn || op.constant)
            return carry(ref, chooseCarried(kinds), kinds);
        // NaN made of infinities alone: a new kind of value.
        const bool negInfOnly = std::all_of(inputs.begin(), inputs.end(), [](const Label* in) {
            return in->kinds == nonfinite::NegInf;
        });
        if (op.softmaxLike && negInfOnly) {
            // A row masked entirely: the −∞ did what masks do; this op's NaN is its own.
            for (const Label* in : inputs)
                noteAbsorbed(in->group, op.type);
            return root(ref, op, module, own, pattern, kinds, true);
        }
        const bool fromIntended = std::all_of(inputs.begin(), inputs.end(), [&](const Label* in) {
            return groups[in->group].construction != Intent::None;
        });
        if (own != Intent::None || fromIntended)
            return root(ref, op, module, own, pattern, kinds, true);
        // The infinities of a computed value became NaN: it was not absorbed.
        for (const Label* in : inputs)
            if (groups[in->group].construction == Intent::None)
                escape(in->group);
        return carry(ref, chooseCarried(kinds), kinds);
    }

    Label* traceLabel(std::uint64_t trace)
    {
        if (trace == kNoTrace || !nonFinite(d.traces.health[trace]))
            return nullptr;
        auto it = traceLabels.find(trace);
        return it == traceLabels.end() ? nullptr : &it->second;
    }

    void visitTrace(std::uint64_t i)
    {
        const auto& t = d.traces;
        const OpId opId = t.op[i];
        if (opId >= graphOps.size())
            return;
        const OpTraits& op = graphOps[opId];
        const OpInfo& info = d.graphs->op(opId);
        const std::uint8_t bits = t.health[i];
        inputs.clear();
        bool anyKnown = false;
        if (!op.noValueRead && (nonFinite(bits) || !traceLabels.empty())) {
            for (const auto& input : info.inputs) {
                const std::uint64_t source = input.op == kNoOp ? kNoTrace : latest.source(input);
                if (source == kNoTrace)
                    continue;
                anyKnown = anyKnown || (t.health[source] & health::Known);
                if (Label* label = traceLabel(source))
                    inputs.push_back(label);
            }
        }
        const Label label = visit({EventSource::Graph, i}, bits, op, {}, true, anyKnown);
        const auto slot = t.slot[i];
        const std::uint64_t previous = latest.get(opId, slot);
        if (previous != kNoTrace && nonFinite(t.health[previous])) {
            if (auto it = traceLabels.find(previous); it != traceLabels.end()) {
                if (!it->second.read)
                    escape(it->second.group);
                traceLabels.erase(it);
            }
        }
        if (label.nonFinite()) {
            traceLabels[i] = label;
            window[info.graph] = i;
        }
        latest.set(opId, slot, i);
    }

    // The latest non-finite trace of the called graph (or one inside it) since the previous
    // execution.
    std::uint64_t calledGraphTrace(std::uint64_t e) const
    {
        if (window.empty())
            return kNoTrace;
        const auto called = d.graphs->findGraph(d.strings[d.executions.graphId[e]]);
        if (!called)
            return kNoTrace;
        std::uint64_t found = kNoTrace;
        for (const auto& [graph, trace] : window)
            if (nesting.within(graph, *called) && (found == kNoTrace || trace > found))
                found = trace;
        return found;
    }

    void visitExecution(std::uint64_t e)
    {
        const auto& x = d.executions;
        const OpTraits& op = eagerTraits(x.opType[e]);
        const std::uint8_t bits = x.health[e];
        inputs.clear();
        bool anyKnown = false;
        if (Label* called = traceLabel(calledGraphTrace(e))) {
            inputs.push_back(called);
            anyKnown = true;
        }
        window.clear();
        const std::uint64_t idsBegin = x.idsBegin[e];
        if (!op.noValueRead) {
            for (std::uint32_t j = 0; j < x.inputCount[e]; ++j) {
                auto it = tensors.find(x.tensorIds[idsBegin + j]);
                if (it == tensors.end())
                    continue;
                Label& label = it->second.label;
                anyKnown = anyKnown || label.known;
                if (label.nonFinite())
                    inputs.push_back(&label);
            }
        }
        if (op.scaling)
            noteScaling(e);
        if (op.scalerCheck) { // it has no outputs: it tests the gradients in place
            for (Label* in : inputs)
                in->read = true;
            ++checks;
            if (inputs.empty())
                lastCleanCheck = checks;
            checkCaught.push_back(!inputs.empty());
            scaling = false;
            return;
        }
        const std::uint32_t outputs = x.outputCount[e];
        const bool hasOutputs = outputs > 0 || x.healthCount[e] > 0;
        const std::size_t groupsBefore = groups.size();
        const Label label =
            visit({EventSource::Eager, e}, bits, op, d.strings[x.module[e]], hasOutputs, anyKnown);
        if (!second() && groups.size() > groupsBefore && groups.back().construction == Intent::None)
            noteRootInputs(e);
        const std::uint64_t begin = idsBegin + x.inputCount[e];
        for (std::uint32_t j = 0; j < outputs; ++j) {
            const std::int64_t id = x.tensorIds[begin + j];
            const std::uint8_t slotBits =
                j < x.healthCount[e] ? x.outputHealth[x.healthBegin[e] + j] : std::uint8_t{0};
            const bool nonFiniteOutput = label.nonFinite() && nonFinite(slotBits);
            if (second() && !nonFiniteOutput) {
                tensors.erase(id); // the second walk keeps non-finite tensors only
                continue;
            }
            TensorState& state = tensors[id];
            if (state.label.nonFinite() && !state.label.read)
                escape(state.label.group); // overwritten by an op that did not read it
            state.source = {e, j};
            state.label = {};
            state.label.known = !op.uninitialised && (slotBits & health::Known);
            if (nonFiniteOutput) {
                state.label = label;
                state.label.kinds = kindsOf(slotBits);
            }
        }
    }

    // Made after the loss was scaled, neither taken out of the record nor used after its check,
    // in a run whose scaler then found every gradient finite at a later check: it recovered, so
    // the overflow was the passing one that loss scaling makes, not a lasting fault.
    bool lossScaled(const Group& g, const std::vector<std::uint32_t>& skipRuns) const
    {
        return g.afterScaling && !g.escapedScaler && lastCleanCheck > g.window &&
               g.window < skipRuns.size() && skipRuns[g.window] < kMaxLossScalingSkips;
    }

    // By check: how many checks in a row around it caught something (0 for a clean one).
    std::vector<std::uint32_t> skipRuns() const
    {
        std::vector<std::uint32_t> runs(checkCaught.size(), 0);
        for (std::size_t begin = 0; begin < runs.size();) {
            std::size_t end = begin;
            while (end < runs.size() && checkCaught[end])
                ++end;
            std::fill(runs.begin() + static_cast<std::ptrdiff_t>(begin),
                      runs.begin() + static_cast<std::ptrdiff_t>(end),
                      static_cast<std::uint32_t>(end - begin));
            begin = end + 1;
        }
        return runs;
    }

    // Whether multiplication `e` scaled the loss: it read a scale.
    void noteScaling(std::uint64_t e)
    {
        const auto& x = d.executions;
        for (std::uint32_t j = 0; j < x.inputCount[e] && !scaleIds.empty(); ++j)
            if (scaleIds.count(x.tensorIds[x.idsBegin[e] + j]))
                scaling = true;
    }

    // The scales: the first input of every update of a loss scaler's scale.
    void collectScales()
    {
        std::vector<std::uint32_t> updates; // op type ids
        for (std::size_t i = 0; i < d.strings.size(); ++i)
            if (isLossScaleUpdate(d.strings[i]))
                updates.push_back(static_cast<std::uint32_t>(i));
        const auto& x = d.executions;
        for (std::uint64_t e = 0; e < x.size() && !updates.empty(); ++e)
            if (x.inputCount[e] > 0 &&
                std::find(updates.begin(), updates.end(), x.opType[e]) != updates.end())
                scaleIds.insert(x.tensorIds[x.idsBegin[e]]);
    }

    // Who made each input of execution `e`, which began a group still to be judged: should it
    // be the origin, the second walk (which does not keep finite tensors) describes it by this.
    void noteRootInputs(std::uint64_t e)
    {
        const auto& x = d.executions;
        auto& sources = rootInputs[static_cast<std::uint32_t>(groups.size() - 1)];
        for (std::uint32_t j = 0; j < x.inputCount[e]; ++j) {
            const auto it = tensors.find(x.tensorIds[x.idsBegin[e] + j]);
            sources.push_back(it == tensors.end() ? std::nullopt
                                                  : std::optional(it->second.source));
        }
    }

    void run()
    {
        if (out) {
            out->traceHops.assign(d.traces.size(), kFinite);
            out->executionHops.assign(d.executions.size(), kFinite);
            out->expectedPatterns = patterns;
        } else {
            // Every id an execution outputs, at most: growing the table step by step rehashed
            // it a dozen times on a million executions. Capped, as a hostile file may claim more.
            constexpr std::size_t kMaxReserved = std::size_t{1} << 24;
            tensors.reserve(std::min<std::size_t>(d.executions.tensorIds.size(), kMaxReserved));
        }
        collectScales();
        EventOrder order(d);
        EventRun run;
        while (order.nextRun(run)) {
            for (std::uint64_t i = run.begin; i < run.end; ++i) {
                if (run.source == EventSource::Graph)
                    visitTrace(i);
                else
                    visitExecution(i);
            }
        }
        // What no op read by the end was not absorbed.
        for (const auto& [trace, label] : traceLabels)
            if (!label.read)
                escape(label.group);
        for (const auto& [id, state] : tensors)
            if (state.label.nonFinite() && !state.label.read)
                escape(state.label.group);
    }

    const IntentWalk* outer = nullptr;
};

IntentWalk::IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns)
    : m_impl(std::make_unique<Impl>(data, patterns))
{
    m_impl->outer = this;
}

IntentWalk::IntentWalk(const Snapshot::Data& data, const std::vector<ExpectedPattern>& patterns,
                       const Judgement& judgement, Propagation& out, OriginVisitor atOrigin)
    : m_impl(std::make_unique<Impl>(data, patterns))
{
    m_impl->outer = this;
    m_impl->judged = &judgement;
    m_impl->out = &out;
    m_impl->atOrigin = std::move(atOrigin);
}

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
    const std::vector<std::uint32_t> skipRuns = d.skipRuns();
    for (const Group& g : d.groups) {
        if (g.construction != Intent::None)
            j.verdicts.push_back(g.construction);
        else
            // In a scaled window, the scaler's catch is what a reader (zero_grad's zero_)
            // that made them finite would otherwise be credited with.
            j.verdicts.push_back(d.lossScaled(g, skipRuns) ? Intent::LossScaled
                                 : !g.escaped              ? Intent::Absorbed
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

const LatestTraces& IntentWalk::latestTraces() const
{
    return m_impl->latest;
}

} // namespace nanscope::core
