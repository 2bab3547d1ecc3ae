// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's insides (intentwalk.hpp): the tables it keeps while it goes through the events
// and the rules it applies at each. Private to intentwalk.cpp.
#pragma once

#include "eventorder.hpp"
#include "graphnesting.hpp"
#include "intentwalk.hpp"
#include "intentwalkterms.hpp"
#include "largepages.hpp"
#include "latesttraces.hpp"
#include "propagationcount.hpp"
#include "tracelabels.hpp"

#include <algorithm>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_set>

namespace nanscope::core {

using namespace intentwalk;

// The first block of a walk's tensor arena. Where the executions are many, a large page, rather
// than a kilobyte doubling to one through small pages, a page fault each (64 bytes short of it:
// the arena adds its bookkeeping, and a request of just over a large page would map two). A walk
// over graph traces holds few tensors, and would leave most of a large page unused.
inline std::size_t firstTensorBlockBytes(const Snapshot::Data& data)
{
    constexpr std::size_t kExecutionsForLargePage = std::size_t{1} << 15;
    constexpr std::size_t kSmallFirstBlockBytes = 1024; // the arena's own default
    return data.executions.size() >= kExecutionsForLargePage ? kLargePageBytes - 64
                                                             : kSmallFirstBlockBytes;
}

struct IntentWalk::Impl
{
    const Snapshot::Data& d;
    const std::vector<ExpectedPattern>& patterns;
    const Judgement* judged = nullptr;    // a second walk's
    PropagationCount* counting = nullptr; // a second walk's
    bool sawNonFinite = false;

    LatestTraces latest;
    GraphNesting nesting;
    std::vector<OpTraits> graphOps;                       // by OpId
    std::unordered_map<std::uint32_t, OpTraits> eagerOps; // by op type string id
    std::vector<Group> groups;
    TraceLabels traceLabels{latest}; // live non-finite traces
    // By tensor id: every id in the first walk, the non-finite ones in the second. Their nodes
    // come from one arena: a walk over millions of executions spent a tenth of its time freeing
    // them one by one.
    std::pmr::monotonic_buffer_resource tensorArena{firstTensorBlockBytes(d), largePageResource()};
    std::pmr::unordered_map<std::int64_t, TensorState> tensors{&tensorArena};
    // First walk: per group, whether its first event had an input of known health, and for
    // groups still to be judged that began at an execution, who made each of its inputs.
    std::vector<bool> rootAnyKnown;
    std::unordered_map<std::uint32_t, std::vector<std::optional<TensorSource>>> rootInputs;
    // A function call's outputs were computed last by its graph's traces since the previous
    // execution: per graph, its latest non-finite trace there.
    std::unordered_map<GraphIndex, std::uint64_t> window;
    std::vector<Label*> inputs;      // of the event being visited, reused
    const OpInfo* traceOp = nullptr; // of the graph trace being visited (none: an execution)
    // Loss scaling: the scale tensors (what the scaler's updates read first); whether the loss
    // was scaled since the last check; the checks so far, and the last that found every
    // gradient finite (1-based; 0: none), which tells that the scaler recovered.
    std::unordered_set<std::int64_t> scaleIds;
    bool scaling = false;
    std::uint32_t checks = 0;
    std::uint32_t lastCleanCheck = 0;
    std::vector<bool> checkCaught; // by check: it read a non-finite value

    // First walk: the steps the count replays (intentwalkterms.hpp), each Carry's inputs' steps,
    // and each Root's graph inputs' traces; while their bytes stay within the budget.
    StepLog steps{largePageResource()};
    std::vector<std::uint32_t> carried;
    std::vector<std::uint64_t> rootTraceInputs;
    std::size_t logBudget = 0;
    bool logging = true;
    // A walk resumed from a saved state (IntentWalk::resume): the events it had walked, the
    // verdicts its groups had then, and the runs of events after them, which are all it walks.
    EventCounts walked;
    std::vector<Intent> restoredVerdicts; // by group
    std::optional<std::vector<EventRun>> appendedRuns;
    std::pair<std::uint32_t, const OpTraits*> lastAbsorbed{kNoGroup, nullptr};

    Impl(const Snapshot::Data& data, const std::vector<ExpectedPattern>& p, std::size_t budget)
        : d(data), patterns(p), latest(*data.graphs), nesting(*data.graphs), logBudget(budget)
    {
        const auto& ops = data.graphs->ops();
        graphOps.reserve(ops.size());
        for (std::size_t k = 0; k < ops.size(); ++k)
            graphOps.push_back(
                traitsOf(static_cast<std::uint32_t>(k), false, ops[k].type, ops[k].name));
    }

    bool second() const { return counting != nullptr; }

    // The op a step names (Step::op).
    const OpTraits& opOf(const Step& step)
    {
        return step.eagerOp ? eagerTraits(step.op) : graphOps[step.op];
    }

    const OpTraits& eagerTraits(std::uint32_t typeId)
    {
        auto it = eagerOps.find(typeId);
        if (it == eagerOps.end())
            it = eagerOps.emplace(typeId, traitsOf(typeId, true, d.strings[typeId], {})).first;
        return it->second;
    }

    // Logs a step while the log is within its budget; past it, drops the log for good.
    std::uint32_t log(const Step& step)
    {
        if (!logging)
            return kNoStep;
        const std::size_t bytes = (steps.size() + 1) * sizeof(Step) +
                                  carried.size() * sizeof(std::uint32_t) +
                                  rootTraceInputs.size() * sizeof(std::uint64_t);
        if (bytes > logBudget || steps.size() >= kNoStep - 1) {
            logging = false;
            StepLog(largePageResource()).swap(steps);
            std::vector<std::uint32_t>().swap(carried);
            std::vector<std::uint64_t>().swap(rootTraceInputs);
            return kNoStep;
        }
        steps.push_back(step);
        return static_cast<std::uint32_t>(steps.size() - 1);
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

    void noteAbsorbed(std::uint32_t g, const OpTraits& op)
    {
        if (second()) {
            counting->absorbed(g, op.type);
        } else if (lastAbsorbed != std::pair{g, &op}) { // the same again changes nothing
            Step step = opStep(Step::Kind::Absorbed, {}, op, kNoModule, 0);
            step.group = g;
            log(step);
            lastAbsorbed = {g, &op};
        }
    }

    void noteUninitialised(EventRef ref, const OpTraits& op, std::uint32_t module,
                           std::uint8_t kinds)
    {
        if (second()) {
            counting->uninitialised(ref, op, module, kinds);
            return;
        }
        log(opStep(Step::Kind::Uninitialised, ref, op, module, kinds));
    }

    // A step at an event of `op` that made values of `kinds`.
    static Step opStep(Step::Kind kind, EventRef ref, const OpTraits& op, std::uint32_t module,
                       std::uint8_t kinds)
    {
        Step step;
        step.kind = kind;
        step.event = ref;
        step.op = op.id;
        step.eagerOp = op.eager;
        step.module = module;
        step.kinds = kinds;
        return step;
    }

    // The trace that made each input of the graph trace being visited (kNoTrace: none).
    void traceInputsInto(std::vector<std::uint64_t>& out) const
    {
        for (const auto& input : traceOp->inputs)
            out.push_back(input.op == kNoOp ? kNoTrace : latest.source(input));
    }

    Label root(EventRef ref, const OpTraits& op, std::uint32_t module, Intent construction,
               int pattern, std::uint8_t kinds, bool anyKnownInput)
    {
        const auto g = static_cast<std::uint32_t>(groups.size());
        groups.push_back(
            {ref, construction, false, static_cast<std::uint16_t>(std::max(0, pattern))});
        groups.back().afterScaling = scaling;
        groups.back().window = checks;
        notAbsorbable(g, kinds);
        Label label{g, kNoStep, 0, kinds, true, false};
        if (second()) {
            std::vector<std::uint64_t> traceInputs;
            if (traceOp && g == judged->origin)
                traceInputsInto(traceInputs);
            label.hop = counting->root(ref, g, op, module, kinds, traceInputs);
            return label;
        }
        rootAnyKnown.push_back(anyKnownInput);
        Step step = opStep(Step::Kind::Root, ref, op, module, kinds);
        step.group = g;
        if (logging && traceOp && construction == Intent::None) { // it may be the origin
            step.begin = static_cast<std::uint32_t>(rootTraceInputs.size());
            traceInputsInto(rootTraceInputs);
            step.count = static_cast<std::uint32_t>(rootTraceInputs.size() - step.begin);
        }
        label.step = log(step);
        return label;
    }

    Label carry(EventRef ref, std::uint32_t chosen, std::uint8_t kinds)
    {
        notAbsorbable(chosen, kinds);
        Label label{chosen, kNoStep, kFinite, kinds, true, false};
        if (second()) {
            Hop nearest = kFinite;
            for (const Label* in : inputs)
                if (in->hop <= Propagation::kMaxHops)
                    nearest = std::min(nearest, in->hop);
            label.hop = counting->carry(ref, chosen, nearest);
            return label;
        }
        if (!logging)
            return label;
        Step step;
        step.kind = Step::Kind::Carry;
        step.event = ref;
        step.group = chosen;
        step.begin = static_cast<std::uint32_t>(carried.size());
        step.count = static_cast<std::uint32_t>(inputs.size());
        for (const Label* in : inputs)
            carried.push_back(in->step);
        label.step = log(step);
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
    Label visit(EventRef ref, std::uint8_t bits, const OpTraits& op, std::uint32_t module,
                bool hasOutputs, bool anyKnownInput)
    {
        sawNonFinite = sawNonFinite || nonFinite(bits);
        if (!op.constant) // a writer overwrites what the scaler caught without using it
            for (const Label* in : inputs)
                if (groups[in->group].window < checks)
                    groups[in->group].escapedScaler = true;
        if (op.uninitialised) {
            if (nonFinite(bits))
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
                noteAbsorbed(in->group, op);
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
                noteAbsorbed(in->group, op);
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
        return traceLabels.find(trace, d.traces.op[trace], d.traces.slot[trace]);
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
        traceOp = &info;
        const Label label = visit({EventSource::Graph, i}, bits, op, kNoModule, true, anyKnown);
        traceOp = nullptr;
        const auto slot = t.slot[i];
        const std::uint64_t previous = latest.get(opId, slot);
        if (previous != kNoTrace && nonFinite(t.health[previous])) {
            if (const Label* live = traceLabels.find(previous, opId, slot)) {
                if (!live->read)
                    escape(live->group);
                traceLabels.erase(previous, opId, slot);
            }
        }
        if (label.nonFinite()) {
            traceLabels.put(i, opId, slot, label);
            window[info.graph] = i;
        }
        latest.set(opId, slot, i);
    }

    // The traces from `i` on up to the first non-finite one (returned; `end` when none), while
    // no trace's value is live non-finite: each reads nothing non-finite and makes nothing
    // non-finite, so visitTrace() would only note it as its op output's latest. In a tight loop:
    // a run is finite for most of its traces, often all.
    std::uint64_t passFiniteTraces(std::uint64_t i, std::uint64_t end)
    {
        const auto& t = d.traces;
        for (; i < end; ++i) {
            if (nonFinite(t.health[i]))
                break;
            if (const OpId opId = t.op[i]; opId < graphOps.size())
                latest.set(opId, t.slot[i], i);
        }
        return i;
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
            visit({EventSource::Eager, e}, bits, op, x.module[e], hasOutputs, anyKnown);
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

    void walkRun(const EventRun& run)
    {
        if (run.source == EventSource::Eager) {
            for (std::uint64_t i = run.begin; i < run.end; ++i)
                visitExecution(i);
            return;
        }
        for (std::uint64_t i = run.begin; i < run.end; ++i) {
            if (traceLabels.empty())
                i = passFiniteTraces(i, run.end);
            if (i < run.end)
                visitTrace(i);
        }
    }

    void run()
    {
        if (appendedRuns) { // resumed: the scales were collected then
            for (const EventRun& r : *appendedRuns)
                walkRun(r);
            return;
        }
        if (!second()) {
            // A step per non-finite event, about: growing the log step by step would copy it
            // and touch fresh pages a dozen times.
            const std::size_t alerts = d.traceAlerts.size() + d.executionAlerts.size();
            steps.reserve(std::min(alerts + alerts / 8, logBudget / sizeof(Step)));
            // Every id an execution outputs, at most: growing the table step by step rehashed
            // it a dozen times on a million executions. Capped, as a hostile file may claim more.
            constexpr std::size_t kMaxReserved = std::size_t{1} << 24;
            tensors.reserve(std::min<std::size_t>(d.executions.tensorIds.size(), kMaxReserved));
        }
        collectScales();
        EventOrder order(d);
        EventRun run;
        while (order.nextRun(run))
            walkRun(run);
    }

    // Each group's escape as the end of the walk decides it: what no op read by then was not
    // absorbed. Worked out aside: the walk's tables stay as the events left them.
    std::vector<bool> escapedAtEnd() const
    {
        std::vector<bool> escaped(groups.size());
        for (std::size_t g = 0; g < groups.size(); ++g)
            escaped[g] = groups[g].escaped;
        const auto unread = [&](const Label& label) {
            if (!label.read && label.group < escaped.size())
                escaped[label.group] = true;
        };
        traceLabels.forEach([&](std::uint64_t, const Label& label) { unread(label); });
        for (const auto& [id, state] : tensors)
            if (state.label.nonFinite())
                unread(state.label);
        return escaped;
    }
};

} // namespace nanscope::core
