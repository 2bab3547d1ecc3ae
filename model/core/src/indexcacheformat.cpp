// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcacheformat.hpp"

#include "largepages.hpp"
#include "nanscope/format/crc32c.hpp"

#include <algorithm>

namespace nanscope::core::indexfile {
namespace {

std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes)
{
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

template <typename T>
std::uint64_t fnv1aValue(std::uint64_t hash, T value)
{
    return fnv1a(hash, {reinterpret_cast<const char*>(&value), sizeof value});
}

constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;

} // namespace

std::uint64_t graphStructureHash(const GraphTable& graphs)
{
    std::uint64_t h = fnv1aValue(kFnvBasis, graphs.graphs().size());
    for (const auto& g : graphs.graphs())
        h = fnv1aValue(fnv1a(fnv1aValue(h, g.id.size()), g.id), g.declared);
    h = fnv1aValue(h, graphs.ops().size());
    for (const auto& op : graphs.ops())
        h = fnv1aValue(fnv1a(fnv1aValue(fnv1aValue(h, op.graph), op.name.size()), op.name),
                       op.declared);
    return h;
}

void putFile(ArchiveWriter& w, const FileState& f, const FileStamp& stamp)
{
    w.put<std::uint8_t>(f.missing);
    w.put(f.openError);
    w.put(f.offset);
    w.put(f.size);
    w.put(static_cast<std::uint8_t>(f.stop));
    w.put<std::uint8_t>(f.memoryLimited);
    w.count(f.skipped.size());
    for (const auto& s : f.skipped) {
        w.put(s.begin);
        w.put(s.end);
        w.put(s.recordsAfter);
    }
    w.put(f.unlistedSkipCount);
    w.put(f.unlistedSkippedBytes);
    w.put(f.unlistedRecordsAfter);
    w.put<std::uint8_t>(f.tensorBoardStop.has_value());
    w.put(f.tensorBoardStop.value_or(0));
    w.put<std::uint8_t>(f.resyncGaveUp);
    w.put(f.resyncOffset);
    w.put(f.resyncSearchedTo);
    w.put(stamp.size);
    w.put(stamp.modified);
    w.put(stamp.identity.device);
    w.put(stamp.identity.inode);
    w.put(stamp.identity.changeTime);
    w.put(stamp.ends.head);
    w.put(stamp.ends.tail);
    w.count(stamp.content.size());
    for (const std::uint32_t c : stamp.content)
        w.put(c);
}

SavedFile getFile(ArchiveReader& r)
{
    SavedFile f;
    f.missing = r.getBool();
    f.openError = r.getString();
    f.offset = r.get<std::uint64_t>();
    f.size = r.get<std::uint64_t>();
    const auto stop = r.get<std::uint8_t>();
    if (stop > static_cast<std::uint8_t>(format::RecordStatus::TooLarge))
        r.fail();
    f.stop = static_cast<format::RecordStatus>(stop);
    f.memoryLimited = r.getBool();
    const std::size_t skips = r.count(24);
    if (skips > FileState::kMaxListedSkips)
        r.fail();
    for (std::size_t i = 0; i < skips && r.ok(); ++i) {
        FileState::SkippedRange s;
        s.begin = r.get<std::uint64_t>();
        s.end = r.get<std::uint64_t>();
        s.recordsAfter = r.get<std::uint64_t>();
        if (s.end < s.begin)
            r.fail();
        f.skipped.push_back(s);
    }
    f.unlistedSkipCount = r.get<std::uint64_t>();
    f.unlistedSkippedBytes = r.get<std::uint64_t>();
    f.unlistedRecordsAfter = r.get<std::uint64_t>();
    const bool hasStop = r.getBool();
    const auto tensorBoardStop = r.get<std::uint64_t>();
    if (hasStop)
        f.tensorBoardStop = tensorBoardStop;
    f.resyncGaveUp = r.getBool();
    f.resyncOffset = r.get<std::uint64_t>();
    f.resyncSearchedTo = r.get<std::uint64_t>();
    FileStamp& stamp = f.stamp;
    stamp.size = r.get<std::uint64_t>();
    stamp.modified = r.get<std::int64_t>();
    stamp.identity.device = r.get<std::uint64_t>();
    stamp.identity.inode = r.get<std::uint64_t>();
    stamp.identity.changeTime = r.get<std::int64_t>();
    stamp.ends.head = r.get<std::uint32_t>();
    stamp.ends.tail = r.get<std::uint32_t>();
    const std::size_t chunks = r.count(4);
    if (chunks != (f.offset + kContentChunk - 1) / kContentChunk && f.wasRead())
        r.fail();
    for (std::size_t i = 0; i < chunks && r.ok(); ++i)
        stamp.content.push_back(r.get<std::uint32_t>());
    return f;
}

void restoreFile(FileState& f, const SavedFile& s)
{
    static_cast<FileProgress&>(f) = s;
}

void putUnknowns(ArchiveWriter& w, const IndexState::Unknowns& u)
{
    w.put(u.count);
    w.put(u.first);
}

IndexState::Unknowns getUnknowns(ArchiveReader& r)
{
    IndexState::Unknowns u;
    u.count = r.get<std::uint64_t>();
    u.first = r.getString();
    return u;
}

void putDiagnostic(ArchiveWriter& w, const Diagnostic& d)
{
    w.put(static_cast<std::uint8_t>(d.severity));
    w.put(d.file);
    w.put<std::uint8_t>(d.offset.has_value());
    w.put(d.offset.value_or(0));
    w.put(d.message);
}

Severity getSeverity(ArchiveReader& r)
{
    const auto s = r.get<std::uint8_t>();
    if (s > static_cast<std::uint8_t>(Severity::Error))
        r.fail();
    return static_cast<Severity>(s);
}

Diagnostic getDiagnostic(ArchiveReader& r)
{
    Diagnostic d;
    d.severity = getSeverity(r);
    d.file = r.getString();
    const bool hasOffset = r.getBool();
    const auto offset = r.get<std::uint64_t>();
    if (hasOffset)
        d.offset = offset;
    d.message = r.getString();
    return d;
}

void putRecordProblems(ArchiveWriter& w, const DiagnosticList& problems)
{
    w.count(problems.files().size());
    for (const DiagnosticList::FileProblems& f : problems.files()) {
        w.put(f.file);
        w.count(f.kept.size());
        for (const Diagnostic& d : f.kept)
            putDiagnostic(w, d);
        w.put(f.dropped);
        w.put(static_cast<std::uint8_t>(f.droppedSeverity));
    }
}

bool getRecordProblems(ArchiveReader& r, DiagnosticList& problems)
{
    std::vector<DiagnosticList::FileProblems> files(r.count(8 + 8 + 8 + 1));
    for (DiagnosticList::FileProblems& f : files) {
        f.file = r.getString();
        const std::size_t kept = r.count(16);
        for (std::size_t i = 0; i < kept && r.ok(); ++i) {
            f.kept.push_back(getDiagnostic(r));
            if (f.kept.back().file != f.file)
                r.fail();
        }
        f.dropped = r.get<std::uint64_t>();
        f.droppedSeverity = getSeverity(r);
        if (!r.ok())
            return false;
    }
    problems.restore(std::move(files));
    return r.ok();
}

std::uint64_t keyHash(const IndexCacheKey& key)
{
    std::uint64_t h = fnv1a(kFnvBasis, key.logdir);
    h = fnv1a(fnv1aValue(h, '\0'), key.runId);
    h = fnv1aValue(h, key.maxMemoryBytes);
    return fnv1a(fnv1aValue(h, '\0'), key.mainHost);
}

namespace {

void putStrings(ArchiveWriter& w, const std::vector<std::string>& strings)
{
    w.count(strings.size());
    for (const auto& s : strings)
        w.put(s);
}

std::vector<std::string> getStrings(ArchiveReader& r)
{
    std::vector<std::string> strings;
    const std::size_t n = r.count(8);
    for (std::size_t i = 0; i < n && r.ok(); ++i)
        strings.push_back(r.getString());
    return strings;
}

void putEvent(ArchiveWriter& w, const EventRef& e)
{
    w.put(static_cast<std::uint8_t>(e.source));
    w.put(e.index);
}

EventRef getEvent(ArchiveReader& r)
{
    EventRef e;
    const auto source = r.get<std::uint8_t>();
    if (source > static_cast<std::uint8_t>(EventSource::Eager))
        r.fail();
    e.source = static_cast<EventSource>(source);
    e.index = r.get<std::uint64_t>();
    return e;
}

void putHealth(ArchiveWriter& w, const TensorHealth& h)
{
    w.put(static_cast<std::uint8_t>(h.detail));
    w.put<std::uint8_t>(h.nonFinite);
    for (const double v : {h.size, h.negativeInfinity, h.positiveInfinity, h.nan, h.negativeFinite,
                           h.zero, h.positiveFinite})
        w.put(v);
    w.put(static_cast<std::int32_t>(h.dtype));
    w.put<std::int32_t>(h.rank);
    w.put(h.invalid);
}

TensorHealth getHealth(ArchiveReader& r)
{
    TensorHealth h;
    const auto detail = r.get<std::uint8_t>();
    if (detail > static_cast<std::uint8_t>(TensorHealth::Detail::Full))
        r.fail();
    h.detail = static_cast<TensorHealth::Detail>(detail);
    h.nonFinite = r.getBool();
    for (double* v : {&h.size, &h.negativeInfinity, &h.positiveInfinity, &h.nan, &h.negativeFinite,
                      &h.zero, &h.positiveFinite})
        *v = r.get<double>();
    h.dtype = static_cast<DType>(r.get<std::int32_t>());
    h.rank = r.get<std::int32_t>();
    h.invalid = r.getString();
    return h;
}

} // namespace

void putKnownOrigin(ArchiveWriter& w, const std::optional<Origin>* known,
                    const std::vector<std::string>& patterns)
{
    w.put<std::uint8_t>(!known ? 0 : !*known ? 1 : 2);
    if (!known)
        return;
    putStrings(w, patterns);
    if (!*known)
        return;
    const Origin& o = **known;
    putEvent(w, o.event);
    w.put(o.wallTime);
    for (const auto* s : {&o.opType, &o.opName, &o.graphId, &o.graphName})
        w.put(*s);
    w.put(o.op);
    w.put(o.outputSlot);
    putHealth(w, o.health);
    w.count(o.inputs.size());
    for (const auto& input : o.inputs) {
        w.put(input.name);
        w.put<std::uint8_t>(input.event.has_value());
        putEvent(w, input.event.value_or(EventRef{}));
        putHealth(w, input.health);
        w.put(input.healthText);
    }
    for (const auto* s : {&o.hint.rule, &o.hint.cause, &o.hint.fix})
        w.put(*s);
    putStrings(w, o.stackFrameIds);
    w.put(o.modulePath);
    w.put(o.forwardOpType);
    putStrings(w, o.forwardStackFrameIds);
}

std::optional<SavedOrigin> getKnownOrigin(ArchiveReader& r)
{
    const auto kind = r.get<std::uint8_t>();
    if (kind > 2)
        r.fail();
    if (kind == 0)
        return std::nullopt;
    SavedOrigin saved;
    saved.patterns = getStrings(r);
    if (kind == 1)
        return saved;
    Origin& o = saved.origin.emplace();
    o.event = getEvent(r);
    o.wallTime = r.get<double>();
    for (auto* s : {&o.opType, &o.opName, &o.graphId, &o.graphName})
        *s = r.getString();
    o.op = r.get<OpId>();
    o.outputSlot = r.get<std::uint32_t>();
    o.health = getHealth(r);
    const std::size_t inputs = r.count(64);
    for (std::size_t i = 0; i < inputs && r.ok(); ++i) {
        OriginInput input;
        input.name = r.getString();
        const bool hasEvent = r.getBool();
        const EventRef event = getEvent(r);
        if (hasEvent)
            input.event = event;
        input.health = getHealth(r);
        input.healthText = r.getString();
        o.inputs.push_back(std::move(input));
    }
    for (auto* s : {&o.hint.rule, &o.hint.cause, &o.hint.fix})
        *s = r.getString();
    o.stackFrameIds = getStrings(r);
    o.modulePath = r.getString();
    o.forwardOpType = r.getString();
    o.forwardStackFrameIds = getStrings(r);
    return saved;
}

namespace {

// Hop counts by event, most of them kFinite: their count, then each other one as its distance
// from the one before (a varint) and its value. A tenth of the size of every count for a logdir
// whose traces are one in ten non-finite, and a few bytes for most.
void putHops(ArchiveWriter& w, const std::vector<std::uint16_t>& hops)
{
    w.count(hops.size());
    const auto others = static_cast<std::size_t>(
        hops.size() -
        static_cast<std::size_t>(std::count(hops.begin(), hops.end(), Propagation::kFinite)));
    w.count(others);
    std::size_t next = 0; // the index after the last one written
    for (std::size_t i = 0; i < hops.size(); ++i) {
        if (hops[i] == Propagation::kFinite)
            continue;
        w.putVarint(i - next);
        w.put(hops[i]);
        next = i + 1;
    }
}

// Each hop count of `hops` that is not kFinite: f(event, hop), in order of events; false (and `r`
// failed) at the first that lies past the events or claims kFinite.
template <typename F>
bool forEachHop(ArchiveReader& r, std::uint64_t events, std::size_t others, const F& f)
{
    std::uint64_t next = 0;
    for (std::size_t k = 0; k < others && r.ok(); ++k) {
        const std::uint64_t gap = r.getVarint();
        const auto value = r.get<std::uint16_t>();
        if (gap >= events - next || value == Propagation::kFinite) {
            r.fail();
            return false;
        }
        f(next + gap, value);
        next += gap + 1;
    }
    return r.ok();
}

// `maxEvents`: more than the saved index can hold; a count past it fails before anything is sized.
EncodedHops getEncodedHops(ArchiveReader& r, std::uint64_t maxEvents)
{
    EncodedHops hops;
    hops.events = r.get<std::uint64_t>();
    hops.others = r.count(3);
    if (!r.ok() || hops.events > maxEvents || hops.others > hops.events) {
        r.fail();
        return {};
    }
    const std::size_t from = r.position();
    forEachHop(r, hops.events, hops.others, [](std::uint64_t, std::uint16_t) {});
    hops.entries = r.readSince(from);
    return hops;
}

} // namespace

void putKnownPropagation(ArchiveWriter& w, const Propagation* propagation)
{
    w.put<std::uint8_t>(propagation != nullptr);
    if (!propagation)
        return;
    const Propagation& p = *propagation;
    putHops(w, p.traceHops);
    putHops(w, p.executionHops);
    for (const std::uint64_t n :
         {p.producers, p.entries, p.propagators, p.intendedEvents, p.uninitialisedEvents,
          p.countedAlerts, p.intendedAlerts, p.uninitialisedAlerts})
        w.put(n);
    w.count(p.setAside.size());
    for (const SetAside& g : p.setAside) {
        w.put(static_cast<std::uint8_t>(g.intent));
        putEvent(w, g.first);
        for (const auto* text : {&g.opType, &g.opName, &g.modulePath, &g.pattern})
            w.put(*text);
        w.put(g.kinds);
        w.put(g.producers);
        w.put(g.carriers);
        putStrings(w, g.absorbedBy);
    }
    w.count(p.expectedPatterns.size()); // as putStrings writes them
    for (const ExpectedPattern& pattern : p.expectedPatterns)
        w.put(pattern.text);
}

std::vector<std::uint16_t> decodeHops(const EncodedHops& hops, std::size_t capacity)
{
    auto out =
        filledInLargePages(static_cast<std::size_t>(hops.events), Propagation::kFinite, capacity);
    ArchiveReader r(hops.entries);
    forEachHop(r, hops.events, hops.others,
               [&](std::uint64_t event, std::uint16_t hop) { out[event] = hop; });
    return out;
}

std::shared_ptr<const KnownPropagation>
getKnownPropagation(ArchiveReader& r, std::uint64_t maxEvents, std::shared_ptr<const void> owner)
{
    if (!r.getBool())
        return nullptr;
    Propagation p;
    const EncodedHops traces = getEncodedHops(r, maxEvents);
    const EncodedHops executions = getEncodedHops(r, maxEvents);
    for (std::uint64_t* n :
         {&p.producers, &p.entries, &p.propagators, &p.intendedEvents, &p.uninitialisedEvents,
          &p.countedAlerts, &p.intendedAlerts, &p.uninitialisedAlerts})
        *n = r.get<std::uint64_t>();
    const std::size_t groups = r.count(32);
    for (std::size_t i = 0; i < groups && r.ok(); ++i) {
        SetAside g;
        const auto intent = r.get<std::uint8_t>();
        if (intent > static_cast<std::uint8_t>(Intent::LossScaled))
            r.fail();
        g.intent = static_cast<Intent>(intent);
        g.first = getEvent(r);
        for (auto* text : {&g.opType, &g.opName, &g.modulePath, &g.pattern})
            *text = r.getString();
        g.kinds = r.get<std::uint8_t>();
        g.producers = r.get<std::uint64_t>();
        g.carriers = r.get<std::uint64_t>();
        g.absorbedBy = getStrings(r);
        p.setAside.push_back(std::move(g));
    }
    for (const std::string& text : getStrings(r)) {
        if (auto pattern = ExpectedPattern::parse(text, nullptr))
            p.expectedPatterns.push_back(std::move(*pattern));
        else
            r.fail(); // it was written from a parsed pattern
    }
    if (!r.ok())
        return nullptr;
    return std::make_shared<const KnownPropagation>(std::move(p), traces, executions,
                                                    std::move(owner));
}

void putSavedWalk(ArchiveWriter& w, std::span<const std::byte> state)
{
    w.put(std::string_view(reinterpret_cast<const char*>(state.data()), state.size()));
}

std::shared_ptr<const intentwalk::SavedWalkState> getSavedWalk(ArchiveReader& r,
                                                               std::shared_ptr<const void> owner)
{
    const std::span<const std::byte> bytes = r.getBytes();
    if (!r.ok() || bytes.empty())
        return nullptr;
    return std::make_shared<const intentwalk::SavedWalkState>(bytes, std::move(owner));
}

bool validPropagation(const KnownPropagation& p, const IndexState& index)
{
    if (p.traceEvents() != index.traces.size() || p.executionEvents() != index.executions.size())
        return false;
    return std::all_of(p.setAside().begin(), p.setAside().end(), [&](const SetAside& g) {
        return g.first.index < (g.first.source == EventSource::Graph ? index.traces.size()
                                                                     : index.executions.size());
    });
}

bool validOrigin(const Origin& origin, const IndexState& index)
{
    const auto within = [&](const EventRef& e) {
        return e.index <
               (e.source == EventSource::Graph ? index.traces.size() : index.executions.size());
    };
    if (!within(origin.event) || (origin.op != kNoOp && origin.op >= index.graphs.ops().size()))
        return false;
    for (const auto& input : origin.inputs)
        if (input.event && !within(*input.event))
            return false;
    return true;
}

std::uint64_t ColumnEntry::count() const
{
    std::uint64_t n = 0;
    for (const Extent& x : extents)
        n += x.count;
    return n;
}

void putColumnEntry(ArchiveWriter& w, const ColumnEntry& e)
{
    w.put(e.elementBytes);
    w.count(e.extents.size());
    for (const Extent& x : e.extents) {
        w.put(x.offset);
        w.put(x.count);
        w.count(x.blockChecksums.size());
        for (const auto c : x.blockChecksums)
            w.put(c);
    }
}

ColumnEntry getColumnEntry(ArchiveReader& r)
{
    ColumnEntry e;
    e.elementBytes = r.get<std::uint32_t>();
    const std::size_t extents = r.count(24);
    for (std::size_t k = 0; k < extents && r.ok(); ++k) {
        Extent& x = e.extents.emplace_back();
        x.offset = r.get<std::uint64_t>();
        x.count = r.get<std::uint64_t>();
        const std::size_t checksums = r.count(4);
        for (std::size_t i = 0; i < checksums && r.ok(); ++i)
            x.blockChecksums.push_back(r.get<std::uint32_t>());
    }
    return e;
}

} // namespace nanscope::core::indexfile
