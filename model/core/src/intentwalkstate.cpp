// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalkstate.hpp"

#include "latesttraces.hpp"

#include <algorithm>

namespace nanscope::core::intentwalk {
namespace {

constexpr std::uint64_t kEagerBit = std::uint64_t{1} << 63;

void putEvent(ArchiveWriter& w, EventRef e)
{
    w.put<std::uint64_t>(e.index | (e.source == EventSource::Eager ? kEagerBit : 0));
}

EventRef eventOf(std::uint64_t packed)
{
    return {packed & kEagerBit ? EventSource::Eager : EventSource::Graph, packed & ~kEagerBit};
}

void putLabel(ArchiveWriter& w, const Label& l)
{
    w.put(l.group);
    w.put(l.step);
    w.put(l.hop);
    w.put(l.kinds);
    w.put<std::uint8_t>(l.known);
    w.put<std::uint8_t>(l.read);
}

Label getLabel(ArchiveReader& r)
{
    Label l;
    l.group = r.get<std::uint32_t>();
    l.step = r.get<std::uint32_t>();
    l.hop = r.get<Hop>();
    l.kinds = r.get<std::uint8_t>();
    l.known = r.getBool();
    l.read = r.getBool();
    return l;
}

void putBools(ArchiveWriter& w, const std::vector<bool>& v)
{
    const std::vector<std::uint8_t> bytes(v.begin(), v.end());
    w.putArray(std::span<const std::uint8_t>(bytes));
}

bool getBools(ArchiveReader& r, std::vector<bool>& v)
{
    std::vector<std::uint8_t> bytes;
    if (!r.getArray(bytes))
        return false;
    for (const auto b : bytes)
        if (b > 1)
            return false;
    v.assign(bytes.begin(), bytes.end());
    return true;
}

void putGroups(ArchiveWriter& w, const std::vector<Group>& groups)
{
    w.count(groups.size());
    for (const Group& g : groups) {
        putEvent(w, g.root);
        w.put(static_cast<std::uint8_t>(g.construction));
        w.put<std::uint8_t>(g.escaped);
        w.put(g.pattern);
        w.put<std::uint8_t>(g.afterScaling);
        w.put(g.window);
        w.put<std::uint8_t>(g.escapedScaler);
    }
}

bool getGroups(ArchiveReader& r, std::vector<Group>& groups)
{
    const std::size_t n = r.count(17);
    groups.reserve(n);
    for (std::size_t i = 0; i < n && r.ok(); ++i) {
        Group g;
        g.root = eventOf(r.get<std::uint64_t>());
        const auto construction = r.get<std::uint8_t>();
        if (construction > static_cast<std::uint8_t>(Intent::LossScaled))
            return false;
        g.construction = static_cast<Intent>(construction);
        g.escaped = r.getBool();
        g.pattern = r.get<std::uint16_t>();
        g.afterScaling = r.getBool();
        g.window = r.get<std::uint32_t>();
        g.escapedScaler = r.getBool();
        groups.push_back(g);
    }
    return r.ok();
}

// The steps column by column: most of a large state, copied in bulk.
void putSteps(ArchiveWriter& w, const std::vector<Step>& steps)
{
    const auto column = [&](auto member) {
        using T = std::remove_cvref_t<decltype(member(steps.front()))>;
        std::vector<T> values;
        values.reserve(steps.size());
        for (const Step& s : steps)
            values.push_back(member(s));
        w.putArray(std::span<const T>(values));
    };
    w.count(steps.size());
    if (steps.empty())
        return;
    column([](const Step& s) {
        return s.event.index | (s.event.source == EventSource::Eager ? kEagerBit : 0);
    });
    column([](const Step& s) { return s.op; });
    column([](const Step& s) { return s.group; });
    column([](const Step& s) { return s.module; });
    column([](const Step& s) { return s.begin; });
    column([](const Step& s) { return s.count; });
    column([](const Step& s) { return static_cast<std::uint8_t>(s.kind); });
    column([](const Step& s) { return s.kinds; });
    column([](const Step& s) { return static_cast<std::uint8_t>(s.eagerOp); });
}

bool getSteps(ArchiveReader& r, std::vector<Step>& steps)
{
    const std::size_t n = r.count(27);
    if (!r.ok() || n == 0)
        return r.ok();
    std::vector<std::uint64_t> events;
    std::vector<std::uint32_t> op, group, module, begin, count;
    std::vector<std::uint8_t> kind, kinds, eager;
    const bool read = r.getArray(events) && r.getArray(op) && r.getArray(group) &&
                      r.getArray(module) && r.getArray(begin) && r.getArray(count) &&
                      r.getArray(kind) && r.getArray(kinds) && r.getArray(eager);
    if (!read || events.size() != n || op.size() != n || group.size() != n || module.size() != n ||
        begin.size() != n || count.size() != n || kind.size() != n || kinds.size() != n ||
        eager.size() != n)
        return false;
    steps.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (kind[i] > static_cast<std::uint8_t>(Step::Kind::Absorbed) || eager[i] > 1)
            return false;
        Step& s = steps[i];
        s.event = eventOf(events[i]);
        s.op = op[i];
        s.group = group[i];
        s.module = module[i];
        s.begin = begin[i];
        s.count = count[i];
        s.kind = static_cast<Step::Kind>(kind[i]);
        s.kinds = kinds[i];
        s.eagerOp = eager[i] == 1;
    }
    return true;
}

void putSource(ArchiveWriter& w, const IntentWalk::TensorSource& s)
{
    w.put(s.execution);
    w.put(s.slot);
}

IntentWalk::TensorSource getSource(ArchiveReader& r)
{
    IntentWalk::TensorSource s;
    s.execution = r.get<std::uint64_t>();
    s.slot = r.get<std::uint32_t>();
    return s;
}

void putTables(ArchiveWriter& w, const WalkState& s)
{
    putGroups(w, s.groups);
    putBools(w, s.rootAnyKnown);
    w.count(s.rootInputs.size());
    for (const auto& [group, sources] : s.rootInputs) {
        w.put(group);
        w.count(sources.size());
        for (const auto& source : sources) {
            w.put<std::uint8_t>(source.has_value());
            putSource(w, source.value_or(IntentWalk::TensorSource{}));
        }
    }
    w.count(s.traceLabels.size());
    for (const auto& [trace, label] : s.traceLabels) {
        w.put(trace);
        putLabel(w, label);
    }
    w.count(s.tensors.size());
    for (const auto& [id, tensor] : s.tensors) {
        w.put(id);
        putSource(w, tensor.source);
        putLabel(w, tensor.label);
    }
    w.count(s.window.size());
    for (const auto& [graph, trace] : s.window) {
        w.put(graph);
        w.put(trace);
    }
}

bool getTables(ArchiveReader& r, WalkState& s)
{
    if (!getGroups(r, s.groups) || !getBools(r, s.rootAnyKnown))
        return false;
    const std::size_t roots = r.count(12);
    for (std::size_t i = 0; i < roots && r.ok(); ++i) {
        auto& [group, sources] = s.rootInputs.emplace_back();
        group = r.get<std::uint32_t>();
        const std::size_t n = r.count(13);
        for (std::size_t k = 0; k < n && r.ok(); ++k) {
            const bool known = r.getBool();
            const auto source = getSource(r);
            sources.push_back(known ? std::optional(source) : std::nullopt);
        }
    }
    const std::size_t labels = r.count(21);
    for (std::size_t i = 0; i < labels && r.ok(); ++i) {
        const auto trace = r.get<std::uint64_t>();
        s.traceLabels.emplace_back(trace, getLabel(r));
    }
    const std::size_t tensors = r.count(33);
    for (std::size_t i = 0; i < tensors && r.ok(); ++i) {
        const auto id = r.get<std::int64_t>();
        TensorState t;
        t.source = getSource(r);
        t.label = getLabel(r);
        s.tensors.emplace_back(id, t);
    }
    const std::size_t windows = r.count(12);
    for (std::size_t i = 0; i < windows && r.ok(); ++i) {
        const auto graph = r.get<GraphIndex>();
        s.window.emplace_back(graph, r.get<std::uint64_t>());
    }
    return r.ok();
}

} // namespace

std::optional<std::vector<EventRun>> appendedRuns(const WalkState& state,
                                                  const Snapshot::Data& data)
{
    std::vector<EventRun> appended;
    EventOrder order(data);
    EventRun run;
    while (order.nextRun(run)) {
        const std::uint64_t walked =
            run.source == EventSource::Graph ? state.traces : state.executions;
        if (run.begin < walked && !appended.empty())
            return std::nullopt;
        if (run.end > walked)
            appended.push_back({run.source, std::max(run.begin, walked), run.end});
    }
    return appended;
}

namespace {

class StateCheck
{
public:
    StateCheck(const WalkState& s, const Snapshot::Data& d) : m_s(s), m_d(d) {}

    bool event(EventRef e) const
    {
        return e.index < (e.source == EventSource::Graph ? m_s.traces : m_s.executions);
    }
    bool trace(std::uint64_t t, bool orNone = false) const
    {
        return t < m_s.traces || (orNone && t == kNoTrace);
    }
    bool group(std::uint32_t g) const { return g < m_s.groups.size(); }
    bool label(const Label& l) const
    {
        return (l.group == IntentWalk::kNoGroup || group(l.group)) &&
               (l.step == kNoStep || l.step < m_s.steps.size());
    }
    bool string(std::uint32_t id) const { return id < m_d.strings.size(); }
    bool op(const Step& s) const { return s.eagerOp ? string(s.op) : s.op < m_s.ops; }

    bool step(std::size_t i) const
    {
        const Step& s = m_s.steps[i];
        const bool hasEvent = s.kind != Step::Kind::Absorbed;
        const bool hasOp = s.kind != Step::Kind::Carry;
        const bool hasGroup = s.kind != Step::Kind::Uninitialised;
        if ((hasEvent && !event(s.event)) || (hasOp && !op(s)) || (hasGroup && !group(s.group)) ||
            (s.module != kNoModule && !string(s.module)))
            return false;
        const std::uint64_t end = std::uint64_t{s.begin} + s.count;
        if (s.kind == Step::Kind::Carry) {
            if (end > m_s.carried.size())
                return false;
            for (std::uint64_t k = s.begin; k < end; ++k) // an earlier step that made a value
                if (const std::uint32_t from = m_s.carried[k];
                    from >= i || (m_s.steps[from].kind != Step::Kind::Root &&
                                  m_s.steps[from].kind != Step::Kind::Carry))
                    return false;
        }
        if (s.kind == Step::Kind::Root) {
            if (end > m_s.rootTraceInputs.size())
                return false;
            for (std::uint64_t k = s.begin; k < end; ++k)
                if (!trace(m_s.rootTraceInputs[k], true))
                    return false;
        }
        return true;
    }

private:
    const WalkState& m_s;
    const Snapshot::Data& m_d;
};

} // namespace

bool fits(const WalkState& s, const Snapshot::Data& d, const std::vector<ExpectedPattern>& patterns,
          std::size_t latestSize)
{
    if (s.traces > d.traces.size() || s.executions > d.executions.size() ||
        s.graphs != d.graphs->graphs().size() || s.ops != d.graphs->ops().size() ||
        s.patterns.size() != patterns.size() || s.latest.size() != latestSize ||
        s.rootAnyKnown.size() != s.groups.size() || s.checkCaught.size() != s.checks ||
        s.lastCleanCheck > s.checks || s.steps.size() >= kNoStep)
        return false;
    for (std::size_t p = 0; p < patterns.size(); ++p)
        if (s.patterns[p] != patterns[p].text)
            return false;
    const StateCheck check(s, d);
    for (const Group& g : s.groups)
        if (!check.event(g.root) || g.window > s.checks ||
            (g.construction == Intent::Expected && g.pattern >= patterns.size()))
            return false;
    for (const auto& [group, sources] : s.rootInputs) {
        if (!check.group(group))
            return false;
        for (const auto& source : sources)
            if (source && source->execution >= s.executions)
                return false;
    }
    for (const auto& [trace, label] : s.traceLabels)
        if (!check.trace(trace) || !check.label(label))
            return false;
    for (const auto& [id, tensor] : s.tensors)
        if (tensor.source.execution >= s.executions || !check.label(tensor.label))
            return false;
    for (const auto& [graph, trace] : s.window)
        if (graph >= s.graphs || !check.trace(trace))
            return false;
    for (const std::uint64_t t : s.latest)
        if (!check.trace(t, true))
            return false;
    for (const auto& [key, t] : s.latestOverflow)
        if ((key >> 20) >= s.ops || !check.trace(t))
            return false;
    for (std::size_t i = 0; i < s.steps.size(); ++i)
        if (!check.step(i))
            return false;
    return true;
}

void putWalkState(ArchiveWriter& w, const WalkState& s)
{
    w.put(s.traces);
    w.put(s.executions);
    w.put(s.graphs);
    w.put(s.ops);
    w.count(s.patterns.size());
    for (const auto& p : s.patterns)
        w.put(p);
    putTables(w, s);
    w.putArray(std::span<const std::uint64_t>(s.latest));
    w.count(s.latestOverflow.size());
    for (const auto& [key, trace] : s.latestOverflow) {
        w.put(key);
        w.put(trace);
    }
    w.putArray(std::span<const std::int64_t>(s.scaleIds));
    w.put<std::uint8_t>(s.scaling);
    w.put(s.checks);
    w.put(s.lastCleanCheck);
    putBools(w, s.checkCaught);
    w.put<std::uint8_t>(s.sawNonFinite);
    putSteps(w, s.steps);
    w.putArray(std::span<const std::uint32_t>(s.carried));
    w.putArray(std::span<const std::uint64_t>(s.rootTraceInputs));
}

WalkState getWalkState(ArchiveReader& r)
{
    WalkState s;
    s.traces = r.get<std::uint64_t>();
    s.executions = r.get<std::uint64_t>();
    s.graphs = r.get<std::uint64_t>();
    s.ops = r.get<std::uint64_t>();
    const std::size_t patterns = r.count(8);
    for (std::size_t i = 0; i < patterns && r.ok(); ++i)
        s.patterns.push_back(r.getString());
    bool ok = getTables(r, s) && r.getArray(s.latest);
    const std::size_t overflow = ok ? r.count(16) : 0;
    for (std::size_t i = 0; i < overflow && r.ok(); ++i) {
        const auto key = r.get<std::uint64_t>();
        s.latestOverflow.emplace_back(key, r.get<std::uint64_t>());
    }
    ok = ok && r.getArray(s.scaleIds);
    s.scaling = r.getBool();
    s.checks = r.get<std::uint32_t>();
    s.lastCleanCheck = r.get<std::uint32_t>();
    ok = ok && getBools(r, s.checkCaught);
    s.sawNonFinite = r.getBool();
    ok = ok && getSteps(r, s.steps) && r.getArray(s.carried) && r.getArray(s.rootTraceInputs);
    if (!ok)
        r.fail();
    return s;
}

} // namespace nanscope::core::intentwalk
