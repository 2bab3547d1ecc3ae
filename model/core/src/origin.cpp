// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventorder.hpp"
#include "graphnesting.hpp"
#include "nanscope/core/hints.hpp"
#include "originanalysis.hpp"

#include <algorithm>
#include <unordered_map>

namespace nanscope::core {
namespace {

constexpr std::uint64_t kNone = UINT64_MAX;

// Ops that only forward a value and are never instrumented (TensorFlow's skip list): an input
// through them is followed to the op that computed the value.
bool isPassThrough(std::string_view type)
{
    return type == "Identity" || type == "IdentityN" || type == "Enter" || type == "Exit" ||
           type == "NextIteration" || type == "RefIdentity" || type == "RefEnter" ||
           type == "RefExit" || type == "RefNextIteration";
}

// "The latest trace of output (op, slot)" for every op output, in a dense array for the first
// slots of each op and a map for the rest (an op may claim 65536 outputs, a million ops may).
class LatestTraces
{
    static constexpr int kDense = 64;

public:
    explicit LatestTraces(const GraphTable& graphs) : m_graphs(graphs)
    {
        const auto& ops = graphs.ops();
        m_base.resize(ops.size() + 1, 0);
        for (std::size_t i = 0; i < ops.size(); ++i)
            m_base[i + 1] =
                m_base[i] + static_cast<std::uint64_t>(std::clamp(ops[i].numOutputs, 1, kDense));
        m_latest.assign(m_base.back(), kNone);
    }

    void set(OpId op, std::uint32_t slot, std::uint64_t trace)
    {
        if (op >= m_base.size() - 1)
            return;
        if (m_base[op] + slot < m_base[op + 1])
            m_latest[m_base[op] + slot] = trace;
        else
            m_overflow[(std::uint64_t{op} << 20) ^ slot] = trace;
    }

    std::uint64_t get(OpId op, std::uint32_t slot) const
    {
        if (op >= m_base.size() - 1)
            return kNone;
        if (m_base[op] + slot < m_base[op + 1])
            return m_latest[m_base[op] + slot];
        auto it = m_overflow.find((std::uint64_t{op} << 20) ^ slot);
        return it == m_overflow.end() ? kNone : it->second;
    }

    // The trace that last computed input `input` of an op, following pass-through ops.
    std::uint64_t source(const OpInput& input) const
    {
        OpId op = input.op;
        auto slot = static_cast<std::uint32_t>(std::max(input.slot, 0));
        for (int depth = 0; depth < 16 && op != kNoOp; ++depth) {
            const std::uint64_t trace = get(op, slot);
            if (trace != kNone)
                return trace;
            const OpInfo& info = m_graphs.op(op);
            if (!isPassThrough(info.type) || info.inputs.empty())
                return kNone;
            const OpInput& forwarded = info.type == "IdentityN" && slot < info.inputs.size()
                                           ? info.inputs[slot]
                                           : info.inputs.front();
            op = forwarded.op;
            slot = static_cast<std::uint32_t>(std::max(forwarded.slot, 0));
        }
        return kNone;
    }

private:
    const GraphTable& m_graphs;
    std::vector<std::uint64_t> m_base;
    std::vector<std::uint64_t> m_latest;
    std::unordered_map<std::uint64_t, std::uint64_t> m_overflow;
};

struct TensorSource
{
    std::uint64_t execution = 0;
    std::uint32_t slot = 0;
};

bool nonFinite(std::uint8_t bits)
{
    return (bits & health::Known) && (bits & health::NonFinite);
}

std::uint8_t executionOutputBits(const ExecutionColumns& x, const TensorSource& s)
{
    if (s.slot >= x.healthCount[s.execution])
        return 0;
    return x.outputHealth[x.healthBegin[s.execution] + s.slot];
}

void registerOutputs(const ExecutionColumns& x, std::uint64_t e,
                     std::unordered_map<std::int64_t, TensorSource>& sources)
{
    const std::uint64_t begin = x.idsBegin[e] + x.inputCount[e];
    for (std::uint32_t j = 0; j < x.outputCount[e]; ++j)
        sources[x.tensorIds[begin + j]] = {e, j};
}

std::string unknownText(std::optional<EventRef> event, const TensorHealth& health, DebugMode mode)
{
    if (health.known())
        return health.describe();
    if (!event)
        return "unknown (not instrumented, or not computed before this op)";
    return "unknown (its " + std::string(toString(mode)) + " record carries no values)";
}

Origin describeTrace(const Snapshot& snapshot, std::uint64_t t, const LatestTraces& latest)
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
    for (const auto& input : op.inputs) {
        OriginInput in;
        in.name = input.name;
        const std::uint64_t source = input.op == kNoOp ? kNone : latest.source(input);
        DebugMode mode = DebugMode::Unspecified;
        if (source != kNone) {
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

Origin describeExecution(const Snapshot& snapshot, std::uint64_t e,
                         const std::unordered_map<std::int64_t, TensorSource>& sources)
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
    for (const auto id : snapshot.executionInputIds(e)) {
        OriginInput in;
        in.name = "tensor " + std::to_string(id);
        DebugMode mode = DebugMode::Unspecified;
        if (auto it = sources.find(id); it != sources.end()) {
            in.event = EventRef{EventSource::Eager, it->second.execution};
            in.health = snapshot.readHealth(*in.event, it->second.slot);
            mode = static_cast<DebugMode>(x.mode[it->second.execution]);
        }
        in.healthText = unknownText(in.event, in.health, mode);
        inputHealth.push_back(in.health);
        o.inputs.push_back(std::move(in));
    }
    o.hint = explainNonFinite(o.opType, inputHealth, o.health);
    return o;
}

} // namespace

std::optional<Origin> computeOrigin(const Snapshot& snapshot)
{
    const auto& d = snapshot.data();
    const GraphTable& graphs = *d.graphs;
    const auto& ops = graphs.ops();
    const auto& t = d.traces;
    const auto& x = d.executions;
    LatestTraces latest(graphs);
    std::unordered_map<std::int64_t, TensorSource> sources;

    EventOrder order(d);
    EventRun run;
    while (order.nextRun(run)) {
        if (run.source == EventSource::Graph) {
            for (std::uint64_t i = run.begin; i < run.end; ++i) {
                const OpId op = t.op[i];
                if (nonFinite(t.health[i]) && op < ops.size()) {
                    bool inputNonFinite = false;
                    for (const auto& input : ops[op].inputs) {
                        const std::uint64_t source =
                            input.op == kNoOp ? kNone : latest.source(input);
                        if (source != kNone && nonFinite(t.health[source])) {
                            inputNonFinite = true;
                            break;
                        }
                    }
                    if (!inputNonFinite)
                        return describeTrace(snapshot, i, latest);
                }
                latest.set(op, t.slot[i], i);
            }
            continue;
        }
        for (std::uint64_t e = run.begin; e < run.end; ++e) {
            if (nonFinite(x.health[e])) {
                bool inputNonFinite = false;
                for (std::uint32_t j = 0; j < x.inputCount[e] && !inputNonFinite; ++j) {
                    auto it = sources.find(x.tensorIds[x.idsBegin[e] + j]);
                    inputNonFinite =
                        it != sources.end() && nonFinite(executionOutputBits(x, it->second));
                }
                if (!inputNonFinite)
                    return describeExecution(snapshot, e, sources);
            }
            registerOutputs(x, e, sources);
        }
    }
    return std::nullopt;
}

Propagation computePropagation(const Snapshot::Data& d)
{
    Propagation p;
    const GraphTable& graphs = *d.graphs;
    const auto& ops = graphs.ops();
    const auto& t = d.traces;
    const auto& x = d.executions;
    p.traceHops.assign(t.size(), Propagation::kFinite);
    p.executionHops.assign(x.size(), Propagation::kFinite);
    LatestTraces latest(graphs);
    std::unordered_map<std::int64_t, TensorSource> sources;
    // Hops of the outputs of executions whose health is known, by tensor id (kFinite: finite).
    std::unordered_map<std::int64_t, std::uint16_t> tensorHops;

    auto record = [&](std::uint16_t& slot, std::uint16_t nearest, bool anyInputKnown) {
        if (nearest == Propagation::kFinite) {
            slot = 0;
            ++(anyInputKnown ? p.producers : p.entries);
        } else {
            slot = static_cast<std::uint16_t>(std::min<int>(nearest + 1, Propagation::kMaxHops));
            ++p.propagators;
        }
    };

    // A function call's outputs are computed by the traces of its graph that ran since the
    // previous execution, and last: per graph, the hop of its latest non-finite trace there.
    struct WindowHop
    {
        std::uint64_t trace;
        std::uint16_t hop;
    };
    std::unordered_map<GraphIndex, WindowHop> windowHops;
    const GraphNesting nesting(graphs);
    auto calledGraphHop = [&](std::uint64_t e) {
        const auto called = graphs.findGraph(d.strings[x.graphId[e]]);
        std::optional<WindowHop> latestHop;
        if (!called)
            return Propagation::kFinite;
        for (const auto& [graph, w] : windowHops) {
            if (nesting.within(graph, *called) && (!latestHop || w.trace > latestHop->trace))
                latestHop = w;
        }
        return latestHop ? latestHop->hop : Propagation::kFinite;
    };

    EventOrder order(d);
    EventRun run;
    while (order.nextRun(run)) {
        if (run.source == EventSource::Graph) {
            for (std::uint64_t i = run.begin; i < run.end; ++i) {
                const OpId op = t.op[i];
                if (nonFinite(t.health[i]) && op < ops.size()) {
                    std::uint16_t nearest = Propagation::kFinite;
                    bool known = false;
                    for (const auto& input : ops[op].inputs) {
                        const std::uint64_t source =
                            input.op == kNoOp ? kNone : latest.source(input);
                        if (source == kNone)
                            continue;
                        known = known || (t.health[source] & health::Known);
                        nearest = std::min(nearest, p.traceHops[source]);
                    }
                    record(p.traceHops[i], nearest, known);
                    windowHops[ops[op].graph] = {i, p.traceHops[i]};
                }
                latest.set(op, t.slot[i], i);
            }
            continue;
        }
        for (std::uint64_t e = run.begin; e < run.end; ++e) {
            if (nonFinite(x.health[e])) {
                std::uint16_t nearest =
                    windowHops.empty() ? Propagation::kFinite : calledGraphHop(e);
                bool known = nearest != Propagation::kFinite;
                for (std::uint32_t j = 0; j < x.inputCount[e]; ++j) {
                    auto it = tensorHops.find(x.tensorIds[x.idsBegin[e] + j]);
                    if (it == tensorHops.end())
                        continue;
                    known = true;
                    nearest = std::min(nearest, it->second);
                }
                record(p.executionHops[e], nearest, known);
            }
            windowHops.clear();
            const std::uint64_t begin = x.idsBegin[e] + x.inputCount[e];
            for (std::uint32_t j = 0; j < x.outputCount[e]; ++j) {
                const std::int64_t id = x.tensorIds[begin + j];
                const std::uint8_t bits = executionOutputBits(x, {e, j});
                if (nonFinite(bits))
                    tensorHops[id] = p.executionHops[e];
                else if (bits & health::Known)
                    tensorHops[id] = Propagation::kFinite;
                else
                    tensorHops.erase(id);
            }
        }
    }
    return p;
}

std::optional<std::uint16_t> Propagation::hops(EventRef event) const
{
    const auto& v = event.source == EventSource::Graph ? traceHops : executionHops;
    if (event.index >= v.size() || v[event.index] == kFinite)
        return std::nullopt;
    return v[event.index];
}

} // namespace nanscope::core
