// SPDX-License-Identifier: GPL-3.0-or-later
#include "intentwalkstate.hpp"

#include "latesttraces.hpp"

#include <algorithm>

namespace nanscope::core::intentwalk {
namespace {

constexpr std::uint64_t kEagerBit = std::uint64_t{1} << 63;

std::uint64_t packEvent(EventRef e)
{
    return e.index | (e.source == EventSource::Eager ? kEagerBit : 0);
}

EventRef eventOf(std::uint64_t packed)
{
    return {packed & kEagerBit ? EventSource::Eager : EventSource::Graph, packed & ~kEagerBit};
}

void putLabel(ArchiveWriter& w, const Label& l)
{
    w.put(l.group);
    w.put(l.hop);
    w.put(l.kinds);
    w.put<std::uint8_t>(l.known);
    w.put<std::uint8_t>(l.read);
}

Label getLabel(ArchiveReader& r)
{
    Label l;
    l.group = r.get<std::uint32_t>();
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
    if (std::any_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b > 1; }))
        return false;
    v.assign(bytes.begin(), bytes.end());
    return true;
}

bool validIntent(std::uint8_t v)
{
    return v <= static_cast<std::uint8_t>(Intent::LossScaled);
}

void putGroups(ArchiveWriter& w, const std::vector<Group>& groups,
               const std::vector<Intent>& verdicts)
{
    w.count(groups.size());
    for (std::size_t k = 0; k < groups.size(); ++k) {
        const Group& g = groups[k];
        w.put(packEvent(g.root));
        w.put(static_cast<std::uint8_t>(g.construction));
        w.put<std::uint8_t>(g.escaped);
        w.put(g.pattern);
        w.put<std::uint8_t>(g.afterScaling);
        w.put(g.window);
        w.put<std::uint8_t>(g.escapedScaler);
        w.put(static_cast<std::uint8_t>(k < verdicts.size() ? verdicts[k] : Intent::None));
    }
}

bool getGroups(ArchiveReader& r, std::vector<Group>& groups, std::vector<Intent>& verdicts)
{
    const std::size_t n = r.count(18);
    groups.reserve(n);
    verdicts.reserve(n);
    for (std::size_t i = 0; i < n && r.ok(); ++i) {
        Group g;
        g.root = eventOf(r.get<std::uint64_t>());
        const auto construction = r.get<std::uint8_t>();
        g.escaped = r.getBool();
        g.pattern = r.get<std::uint16_t>();
        g.afterScaling = r.getBool();
        g.window = r.get<std::uint32_t>();
        g.escapedScaler = r.getBool();
        const auto verdict = r.get<std::uint8_t>();
        if (!validIntent(construction) || !validIntent(verdict))
            return false;
        g.construction = static_cast<Intent>(construction);
        groups.push_back(g);
        verdicts.push_back(static_cast<Intent>(verdict));
    }
    return r.ok();
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
    putGroups(w, s.groups, s.verdicts);
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
    if (!getGroups(r, s.groups, s.verdicts))
        return false;
    const std::size_t labels = r.count(17);
    for (std::size_t i = 0; i < labels && r.ok(); ++i) {
        const auto trace = r.get<std::uint64_t>();
        s.traceLabels.emplace_back(trace, getLabel(r));
    }
    const std::size_t tensors = r.count(29);
    if (tensors > kMaxStateTensors)
        return false;
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

// Checks of a state's indices and ids against what it says it walked.
class StateCheck
{
public:
    explicit StateCheck(const WalkState& s) : m_s(s) {}

    bool event(EventRef e) const
    {
        return e.index < (e.source == EventSource::Graph ? m_s.traces : m_s.executions);
    }
    bool trace(std::uint64_t t, bool orNone = false) const
    {
        return t < m_s.traces || (orNone && t == kNoTrace);
    }
    // A label's group is one the walk made; a value's hop is one a count gives.
    bool label(const Label& l) const
    {
        if (l.group == IntentWalk::kNoGroup)
            return true;
        return l.group < m_s.groups.size() &&
               (l.hop <= Propagation::kMaxHops || l.hop == Propagation::kIntended);
    }

private:
    const WalkState& m_s;
};

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

bool fits(const WalkState& s, const Snapshot::Data& d, const std::vector<ExpectedPattern>& patterns,
          std::size_t latestSize)
{
    if (s.traces > d.traces.size() || s.executions > d.executions.size() ||
        s.graphs != d.graphs->graphs().size() || s.ops != d.graphs->ops().size() ||
        s.patterns.size() != patterns.size() || s.latest.size() != latestSize ||
        s.verdicts.size() != s.groups.size() || s.groups.size() >= IntentWalk::kNoGroup ||
        s.checkCaught.size() != s.checks || s.lastCleanCheck > s.checks)
        return false;
    for (std::size_t p = 0; p < patterns.size(); ++p)
        if (s.patterns[p] != patterns[p].text)
            return false;
    const StateCheck check(s);
    for (const Group& g : s.groups)
        if (!check.event(g.root) || g.window > s.checks ||
            (g.construction == Intent::Expected && g.pattern >= patterns.size()))
            return false;
    for (const auto& [trace, label] : s.traceLabels)
        if (!check.trace(trace) || !check.label(label) || !label.nonFinite())
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
    if (!ok)
        r.fail();
    return s;
}

std::span<const std::byte> SavedWalkState::bytes(ArchiveWriter& scratch) const
{
    if (!m_state)
        return m_bytes;
    putWalkState(scratch, *m_state);
    return std::as_bytes(std::span(scratch.bytes()));
}

std::optional<WalkState> SavedWalkState::take() const
{
    if (m_state)
        return *m_state;
    ArchiveReader r(m_bytes);
    WalkState state = getWalkState(r);
    if (!r.ok() || !r.atEnd())
        return std::nullopt;
    return state;
}

} // namespace nanscope::core::intentwalk
