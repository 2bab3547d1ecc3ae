// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalk.hpp"
#include "largepages.hpp"
#include "latesttraces.hpp"
#include "nanscope/core/hints.hpp"
#include "originanalysis.hpp"
#include "torchhints.hpp"

#include <algorithm>
#include <span>

namespace nanscope::core {
namespace {

bool nonFinite(std::uint8_t bits)
{
    return (bits & health::Known) && (bits & health::NonFinite);
}

std::string unknownText(std::optional<EventRef> event, const TensorHealth& health, DebugMode mode)
{
    if (health.known())
        return health.describe();
    if (!event)
        return "unknown (not instrumented, or not computed before this op)";
    return "unknown (its " + std::string(toString(mode)) + " record carries no values)";
}

// `sources`: the trace that made each input of its op (IntentWalk::OriginVisitor).
Origin describeTrace(const Snapshot& snapshot, std::uint64_t t,
                     std::span<const std::uint64_t> sources)
{
    const auto& d = snapshot.data();
    const GraphTable& graphs = snapshot.graphs();
    const TraceDigest digest = snapshot.trace(t);
    const OpInfo& op = graphs.op(digest.op);
    const GraphInfo& graph = graphs.graph(op.graph);
    Origin o;
    o.event = {EventSource::Graph, t};
    o.wallTime = digest.wallTime;
    o.opType = op.type;
    o.opName = op.name;
    o.graphId = graph.id;
    o.graphName = graph.name;
    o.op = digest.op;
    o.outputSlot = digest.outputSlot;
    o.health = snapshot.readHealth(o.event, digest.outputSlot);
    o.stackFrameIds = op.stackFrameIds;
    std::vector<TensorHealth> inputHealth;
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
        OriginInput in;
        in.name = op.inputs[k].name;
        const std::uint64_t source = k < sources.size() ? sources[k] : kNoTrace;
        DebugMode mode = DebugMode::Unspecified;
        if (source != kNoTrace) {
            in.event = EventRef{EventSource::Graph, source};
            in.health = snapshot.readHealth(*in.event, d.traces.slot[source]);
            mode = static_cast<DebugMode>(d.traces.mode[source]);
        }
        in.healthText = unknownText(in.event, in.health, mode);
        inputHealth.push_back(in.health);
        o.inputs.push_back(std::move(in));
    }
    o.hint = explainNonFinite(o.opType, inputHealth, o.health);
    return o;
}

// `sources`: who made each input, in the execution's input order (IntentWalk::Judgement).
Origin describeExecution(const Snapshot& snapshot, std::uint64_t e,
                         const std::vector<std::optional<IntentWalk::TensorSource>>& sources)
{
    const auto& x = snapshot.data().executions;
    const ExecutionDigest digest = snapshot.execution(e);
    Origin o;
    o.event = {EventSource::Eager, e};
    o.wallTime = digest.wallTime;
    o.opType = std::string(digest.opType);
    o.graphId = std::string(digest.graphId);
    if (const auto g = snapshot.graphs().findGraph(o.graphId))
        o.graphName = snapshot.graphs().graph(*g).name;
    // The first non-finite output.
    for (std::uint32_t j = 0; j < x.healthCount[e]; ++j) {
        if (nonFinite(x.outputHealth[x.healthBegin[e] + j])) {
            o.outputSlot = j;
            break;
        }
    }
    o.health = snapshot.readHealth(o.event, o.outputSlot);
    if (const auto details = snapshot.readExecution(e)) {
        o.stackFrameIds = details->stackFrameIds;
        o.modulePath = details->modulePath;
        o.forwardOpType = details->forwardOpType;
        o.forwardStackFrameIds = details->forwardStackFrameIds;
    }
    std::vector<TensorHealth> inputHealth;
    const auto ids = snapshot.executionInputIds(e);
    for (std::size_t j = 0; j < ids.size(); ++j) {
        OriginInput in;
        in.name = "tensor " + std::to_string(ids[j]);
        DebugMode mode = DebugMode::Unspecified;
        if (const auto source = j < sources.size() ? sources[j] : std::nullopt) {
            in.event = EventRef{EventSource::Eager, source->execution};
            in.health = snapshot.readHealth(*in.event, source->slot);
            mode = static_cast<DebugMode>(x.mode[source->execution]);
        }
        in.healthText = unknownText(in.event, in.health, mode);
        inputHealth.push_back(in.health);
        o.inputs.push_back(std::move(in));
    }
    o.hint = explainNonFinite(o.opType, inputHealth, o.health);
    // A value a collective brought in from other ranks: whatever the op, the cause lies there.
    // Whether the collective's own record already holds the other ranks' values is a race.
    if (isCollective(o.opType)) {
        o.hint = collectiveInputHint(o.opType, true);
        return o;
    }
    for (const auto& source : sources)
        if (source) {
            const std::string_view producer = snapshot.execution(source->execution).opType;
            if (isCollective(producer)) {
                o.hint = collectiveInputHint(producer, false);
                break;
            }
        }
    return o;
}

// Counts the alerts of the events from `from` on, whose hop counts `p` holds from there on (the
// alerts of the events before were counted before).
void countAlerts(const Snapshot& snapshot, Propagation& p, intentwalk::EventCounts from = {})
{
    const auto& d = snapshot.data();
    const auto count = [&](const auto& alerts, const std::vector<std::uint16_t>& hops,
                           std::uint64_t first) {
        // Alerts are in event order: the first to count is found by halving.
        std::uint64_t lo = 0;
        std::uint64_t hi = alerts.size();
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            if (alerts[mid].event.index < first)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (std::uint64_t k = lo; k < alerts.size(); ++k) {
            if (alerts[k].event.index < first)
                continue; // out of order: not the reader's (a forged index)
            const std::uint64_t at = alerts[k].event.index - first;
            const std::uint16_t hop = at < hops.size() ? hops[at] : Propagation::kFinite;
            if (hop == Propagation::kIntended)
                ++p.intendedAlerts;
            else if (hop == Propagation::kUninitialised)
                ++p.uninitialisedAlerts;
            else
                ++p.countedAlerts;
        }
    };
    count(d.traceAlerts, p.traceHops, from.traces);
    count(d.executionAlerts, p.executionHops, from.executions);
}

// The count's visitor at the origin's event: describes it into `a`.
IntentWalk::OriginVisitor describingOrigin(const Snapshot& snapshot,
                                           const IntentWalk::Judgement& judgement,
                                           NonFiniteAnalysis& a)
{
    return [&snapshot, &judgement, &a](EventRef event, std::span<const std::uint64_t> traceInputs) {
        a.origin = event.source == EventSource::Graph
                       ? describeTrace(snapshot, event.index, traceInputs)
                       : describeExecution(snapshot, event.index, judgement.originInputs);
    };
}

// Where `walk` stopped, into `a`, when asked for and it can be kept: the walk's last use.
void keepWalk(IntentWalk& walk, const Propagation& counted, const AnalysisOptions& options,
              NonFiniteAnalysis& a)
{
    if (!options.keepWalk)
        return;
    if (auto state = walk.takeState(counted))
        a.walk = std::make_shared<const intentwalk::WalkState>(std::move(*state));
}

// The analysis going on from `prior` over the events after those it walked; nullopt when it
// cannot (the state does not fit, or the appended events changed a verdict it gave).
std::optional<NonFiniteAnalysis> resumed(const Snapshot& snapshot,
                                         const std::vector<ExpectedPattern>& patterns,
                                         const AnalysisOptions& options)
{
    const PriorAnalysis& prior = *options.prior;
    if (!prior.walk || !prior.propagation || !prior.origin ||
        prior.propagation->traceEvents() != prior.walk->traces ||
        prior.propagation->executionEvents() != prior.walk->executions)
        return std::nullopt;
    IntentWalk walk(snapshot.data(), patterns, options.logBudgetBytes);
    const std::size_t priorGroups = prior.walk->groups.size();
    if (!walk.resume(std::move(*prior.walk)))
        return std::nullopt;
    walk.run();
    const IntentWalk::Judgement judgement = walk.judgement();
    // The origin a saved analysis named is the first group it judged counted: it must be so
    // still (a forged state could say otherwise).
    const bool priorOrigin = judgement.origin < priorGroups;
    if (!walk.logged() || !walk.verdictsHold(judgement) || priorOrigin != prior.origin->has_value())
        return std::nullopt;
    NonFiniteAnalysis a;
    if (priorOrigin)
        a.origin = *prior.origin;
    Propagation counted = prior.propagation->counts();
    walk.count(judgement, counted, describingOrigin(snapshot, judgement, a));
    countAlerts(snapshot, counted, walk.resumedAt());
    keepWalk(walk, counted, options, a);
    a.extended = std::make_shared<const KnownPropagation>(prior.propagation, counted);
    return a;
}

} // namespace

NonFiniteAnalysis analyseNonFinite(const Snapshot& snapshot,
                                   const std::vector<ExpectedPattern>& patterns,
                                   const AnalysisOptions& options)
{
    if (options.prior)
        if (auto a = resumed(snapshot, patterns, options))
            return std::move(*a);
    const auto& d = snapshot.data();
    IntentWalk walk(d, patterns, options.logBudgetBytes);
    walk.run();
    const IntentWalk::Judgement judgement = walk.judgement();

    NonFiniteAnalysis a;
    if (!judgement.sawNonFinite) { // nothing to count
        a.propagation.traceHops = filledInLargePages(d.traces.size(), Propagation::kFinite);
        a.propagation.executionHops = filledInLargePages(d.executions.size(), Propagation::kFinite);
        a.propagation.expectedPatterns = patterns;
    } else {
        walk.count(judgement, a.propagation, describingOrigin(snapshot, judgement, a));
    }
    countAlerts(snapshot, a.propagation);
    keepWalk(walk, a.propagation, options, a);
    return a;
}

std::optional<std::uint16_t> Propagation::hops(EventRef event) const
{
    const auto& v = event.source == EventSource::Graph ? traceHops : executionHops;
    if (event.index >= v.size() || v[event.index] > kMaxHops)
        return std::nullopt;
    return v[event.index];
}

bool Propagation::intended(EventRef event) const
{
    const auto& v = event.source == EventSource::Graph ? traceHops : executionHops;
    return event.index < v.size() && v[event.index] == kIntended;
}

bool Propagation::uninitialised(EventRef event) const
{
    const auto& v = event.source == EventSource::Graph ? traceHops : executionHops;
    return event.index < v.size() && v[event.index] == kUninitialised;
}

} // namespace nanscope::core
