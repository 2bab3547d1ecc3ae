// SPDX-License-Identifier: GPL-3.0-or-later
// The trace files: record boundaries are found on this thread, a chunk at a time, while the pool
// checks payload CRCs and decodes the chunks already found (a range of one chunk is decoded here).
// Each chunk's traces get provisional indices; after the pass, skipped records are squeezed out and
// the chunks are stitched in order, so indices are exactly those of TensorFlow's sequential reader.
#include "bufferpool.hpp"
#include "loaders.hpp"
#include "recorddecoding.hpp"
#include "recordscan.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>

namespace nanscope::core {
namespace {

// A byte of trace records adds at most about 15 bytes to the index (a tiny trace naming an op no
// one declared gets a placeholder op); chunks are cut to a 128th of the room left under the
// memory limit, so the chunks in flight cannot take the index far past it.
constexpr std::uint64_t kRoomPerChunkByte = 128;
// The memory limit is weighed, before each chunk is cut, on the index as it was once the chunks
// up to this many before it were joined in: not on whichever chunks the threads happened to have
// finished, so that where reading stops is the same in every run and with any number of threads.
constexpr std::size_t kWeighedLag = 16;
// Emptied alert lists kept for reuse: about the jobs in flight.
constexpr std::size_t kSpareAlertLists = 8;
// Ops a worker could not find get this bit plus an index into its own list of unknown names.
constexpr OpId kLocalUnknown = 0x80000000u;

struct UnknownOp
{
    std::string graphId;
    std::string opName;
};

struct LocalAlert
{
    std::uint64_t position; // among the chunk's written traces
    Alert alert;
};

struct TraceJob
{
    ReadBuffer buffer;
    RecordChunk chunk;
    std::uint64_t firstIndex = 0;
    ChunkedArray<double>::Writer wallTime;
    ChunkedArray<std::uint64_t>::Writer offset;
    ChunkedArray<OpId>::Writer op;
    ChunkedArray<std::uint16_t>::Writer slot;
    ChunkedArray<std::uint8_t>::Writer mode;
    ChunkedArray<std::uint8_t>::Writer health;
    ChunkedArray<std::uint16_t>::Writer device;

    // Results.
    std::atomic<bool> done{false};
    std::uint64_t written = 0;
    std::optional<std::size_t> badCrcRecord;
    std::vector<UnknownOp> unknownOps;
    StringMap<std::size_t> unknownIndex; // graph id + '\0' + op name → unknownOps index
    std::unordered_map<OpId, std::uint64_t> undeclaredOpTraces;
    std::vector<LocalAlert> alerts;
    DiagnosticList problems{kListedRecordProblems};
    DebugModeSet modes = 0;
    std::uint64_t clampedSlots = 0;
    // Device names met in this chunk (entry 0: none); the device column holds indices into it
    // until the stitcher maps them to the index's list.
    std::vector<std::string> devices{std::string()};
    StringMap<std::uint16_t> deviceIndex;
    std::uint16_t lastDevice = 0;

    void run(const GraphTable& graphs, const std::string& path);
    std::uint16_t localDevice(std::string_view name);
};

// Finds ops by (graph id, name). Consecutive traces usually share their graph, and a model's
// few hundred ops repeat step after step, so a small cache with a cheap hash answers most
// look-ups without the graph table's string hashing.
class OpLookup
{
public:
    explicit OpLookup(const GraphTable& graphs) : m_graphs(graphs) {}

    OpId find(std::string_view graphId, std::string_view opName)
    {
        // A training loop runs its ops in the same order step after step: the op that followed
        // the previous one last time is tried first, by its name and its graph's id, with no
        // hash, even where consecutive ops alternate between graphs.
        OpId& predicted = m_next[m_previous & (kCacheSize - 1)];
        if (predicted != kNoOp) {
            const OpInfo& info = m_graphs.op(predicted);
            if (info.name == opName && m_graphs.graph(info.graph).id == graphId)
                return m_previous = predicted;
        }
        if (!m_valid || graphId != m_graphId) {
            m_graphId.assign(graphId);
            m_graph = m_graphs.findGraph(graphId);
            m_valid = true;
        }
        if (!m_graph)
            return kNoOp;
        const std::uint64_t h = hash(opName) ^ (std::uint64_t{*m_graph} * 0x9e3779b97f4a7c15ull);
        Entry& e = m_cache[h & (kCacheSize - 1)];
        OpId op = kNoOp;
        if (e.hash == h && e.graph == *m_graph && m_graphs.op(e.op).name == opName) {
            op = e.op;
        } else {
            op = m_graphs.findOp(*m_graph, opName);
            if (op != kNoOp)
                e = {h, *m_graph, op};
        }
        if (op != kNoOp)
            predicted = op;
        m_previous = op;
        return op;
    }

private:
    // Large enough that a few hundred ops rarely share a slot (two that did evicted each other
    // every step); an entry names its op, whose name the table keeps.
    static constexpr std::size_t kCacheSize = 4096;

    struct Entry
    {
        std::uint64_t hash = 0;
        GraphIndex graph = kNoGraph;
        OpId op = kNoOp;
    };

    static std::uint64_t hash(std::string_view s)
    {
        std::uint64_t h = 0xcbf29ce484222325ull ^ s.size();
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            h = (h ^ w) * 0x100000001b3ull;
            h ^= h >> 29;
        }
        for (; i < s.size(); ++i)
            h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
        return h ^ (h >> 32);
    }

    const GraphTable& m_graphs;
    std::string m_graphId;
    std::optional<GraphIndex> m_graph;
    bool m_valid = false;
    std::vector<Entry> m_cache = std::vector<Entry>(kCacheSize);
    // The op found last (kNoOp: none), and by its low bits the op that came after it last time.
    OpId m_previous = kNoOp;
    std::vector<OpId> m_next = std::vector<OpId>(kCacheSize, kNoOp);
};

std::uint16_t TraceJob::localDevice(std::string_view name)
{
    if (name.empty())
        return 0;
    // Consecutive traces almost always ran on the same device.
    if (name == devices[lastDevice])
        return lastDevice;
    if (const auto it = deviceIndex.find(name); it != deviceIndex.end())
        return lastDevice = it->second;
    if (devices.size() >= kMaxTraceDevices)
        return 0;
    const auto index = static_cast<std::uint16_t>(devices.size());
    devices.emplace_back(name);
    deviceIndex.emplace(std::string(name), index);
    return lastDevice = index;
}

void TraceJob::run(const GraphTable& graphs, const std::string& path)
{
    OpLookup lookup(graphs);
    DecodedTrace t;
    const std::size_t n = chunk.firstCorruptPayload();
    if (n < chunk.recordCount())
        badCrcRecord = n;
    for (std::size_t r = 0; r < n; ++r) {
        const DecodeStatus status = decodeTrace(chunk.payload(r), t);
        if (status != DecodeStatus::Ok) {
            problems.add({status == DecodeStatus::Malformed ? Severity::Error : Severity::Warning,
                          path, chunk.recordOffset(r),
                          status == DecodeStatus::Malformed
                              ? "not a valid DebugEvent; skipped"
                              : "not a GraphExecutionTrace record; skipped"});
            continue;
        }
        OpId id = lookup.find(t.graphId, t.opName);
        if (id == kNoOp) {
            std::string key(t.graphId);
            key += '\0';
            key += t.opName;
            auto [it, added] = unknownIndex.try_emplace(std::move(key), unknownOps.size());
            if (added)
                unknownOps.push_back({std::string(t.graphId), std::string(t.opName)});
            id = kLocalUnknown | static_cast<OpId>(it->second);
        } else if (!graphs.op(id).declared) {
            ++undeclaredOpTraces[id];
        }
        const std::uint64_t i = firstIndex + written;
        wallTime[i] = t.wallTime;
        offset[i] = chunk.recordOffset(r);
        op[i] = id;
        if (t.outputSlot > 0xffff) {
            ++clampedSlots;
            t.outputSlot = 0xffff;
        }
        slot[i] = static_cast<std::uint16_t>(t.outputSlot);
        mode[i] = static_cast<std::uint8_t>(t.mode);
        device[i] = localDevice(t.deviceName);
        HealthDigest h = t.health.digest();
        if (h.nonFinite() && !t.tensorBoardAlert)
            h.bits |= health::NoAlert; // TensorBoard's counts skip its alert (a bfloat16 value)
        health[i] = h.bits;
        modes |= modeBit(t.mode);
        if (t.alerts)
            alerts.push_back({written, t.alert});
        if (t.malformedSummary)
            problems.add({Severity::Warning, path, chunk.recordOffset(r),
                          "the summary vector is too short for its tensor debug mode; its health "
                          "is unknown"});
        else if (!t.health.invalid.empty())
            problems.add({Severity::Warning, path, chunk.recordOffset(r),
                          "inconsistent summary vector: " + t.health.invalid +
                              "; shown as an invalid summary"});
        ++written;
    }
}

template <typename T>
void moveElement(ChunkedArray<T>& a, std::uint64_t from, std::uint64_t to)
{
    a.mutableAt(to) = a[from];
}

// Joins finished chunks, in file order, into the index: squeezes out skipped records, numbers
// the alerts, and stops at a corrupt record as TensorFlow's reader does.
class TraceStitcher
{
public:
    TraceStitcher(IndexState& index, FileState& file, std::uint64_t base)
        : m_index(index), m_file(file), m_next(base)
    {}

    std::uint64_t next() const { return m_next; }
    bool stopped() const { return m_stopped; }

    void stitch(TraceJob& job)
    {
        if (m_stopped)
            return;
        auto& columns = m_index.traces;
        if (m_next != job.firstIndex) {
            for (std::uint64_t j = 0; j < job.written; ++j) {
                const std::uint64_t from = job.firstIndex + j;
                const std::uint64_t to = m_next + j;
                moveElement(columns.wallTime, from, to);
                moveElement(columns.offset, from, to);
                moveElement(columns.op, from, to);
                moveElement(columns.slot, from, to);
                moveElement(columns.mode, from, to);
                moveElement(columns.health, from, to);
                moveElement(columns.device, from, to);
            }
        }
        mapDevices(job);
        for (auto& a : job.alerts) {
            a.alert.event = {EventSource::Graph, m_next + a.position};
            m_index.traceAlerts.push_back(a.alert);
        }
        for (const auto& [id, count] : job.undeclaredOpTraces)
            m_index.tracesOfUndeclaredOps[id] += count;
        if (!job.unknownOps.empty())
            m_unknown.push_back({m_next, job.written, std::move(job.unknownOps)});
        m_index.recordProblems.append(job.problems);
        m_index.traceModes |= job.modes;
        m_index.clampedSlots += job.clampedSlots;
        m_next += job.written;
        m_index.sealFinished(m_next);
        m_file.noteRecordsRead(job.badCrcRecord ? *job.badCrcRecord : job.chunk.recordCount());
        if (job.badCrcRecord) {
            // TensorFlow's reader stops at a corrupt record and retries it on every update.
            m_file.offset = job.chunk.recordOffset(*job.badCrcRecord);
            m_file.stop = format::RecordStatus::CorruptPayload;
            m_stopped = true;
        }
    }

    // The chunk's device indices become the index's.
    void mapDevices(const TraceJob& job)
    {
        if (job.devices.size() <= 1)
            return;
        std::vector<std::uint16_t> global(job.devices.size(), 0);
        auto& names = m_index.traceDevices;
        for (std::size_t local = 1; local < job.devices.size(); ++local) {
            const auto it = std::find(names.begin(), names.end(), job.devices[local]);
            if (it != names.end()) {
                global[local] = static_cast<std::uint16_t>(it - names.begin());
            } else if (names.size() < kMaxTraceDevices) {
                global[local] = static_cast<std::uint16_t>(names.size());
                names.push_back(job.devices[local]);
            }
        }
        bool same = true; // the usual case: the chunk met the devices in the index's order
        for (std::size_t local = 0; local < global.size(); ++local)
            same = same && global[local] == local;
        if (same)
            return;
        auto& column = m_index.traces.device;
        for (std::uint64_t j = 0; j < job.written; ++j) {
            const std::uint16_t local = column[m_next + j];
            const std::uint16_t mapped = local < global.size() ? global[local] : 0;
            if (local != 0 && mapped == 0)
                ++m_index.tracesOfUncountedDevices;
            column.mutableAt(m_next + j) = mapped;
        }
    }

    // Gives the traces of ops no worker could find placeholder ops (and graphs).
    void resolveUnknownOps()
    {
        auto& graphs = m_index.graphs;
        for (const auto& range : m_unknown) {
            std::vector<OpId> resolved;
            for (const auto& u : range.ops) {
                auto graph = graphs.findGraph(u.graphId);
                if (!graph)
                    graph = graphs.graphPlaceholder(u.graphId);
                OpId id = graphs.findOp(*graph, u.opName);
                if (id == kNoOp)
                    id = graphs.opPlaceholder(*graph, u.opName);
                resolved.push_back(id);
            }
            m_index.graphsChanged = true;
            auto& ops = m_index.traces.op;
            for (std::uint64_t i = range.first; i < range.first + range.count; ++i) {
                if (ops[i] & kLocalUnknown) {
                    const OpId real = resolved[ops[i] & ~kLocalUnknown];
                    ops.mutableAt(i) = real;
                    ++m_index.tracesOfUndeclaredOps[real];
                }
            }
        }
        m_unknown.clear();
    }

private:
    struct UnknownRange
    {
        std::uint64_t first;
        std::uint64_t count;
        std::vector<UnknownOp> ops;
    };

    IndexState& m_index;
    FileState& m_file;
    std::uint64_t m_next;
    bool m_stopped = false;
    std::vector<UnknownRange> m_unknown;
};

// Reads from file.offset up to `size`, until the budget, the memory limit, the end or the first
// corrupt record.
TracePassResult tracePass(FileState& file, std::uint32_t fileIndex, IndexState& index,
                          ThreadPool& pool, std::uint64_t byteBudget, std::uint64_t size)
{
    TracePassResult result;
    const std::uint64_t start = file.offset;
    ChunkReader reader(file.handle, start, size, kReadChunkBytes, index.maxRecordBytes);
    file.memoryLimited = false;
    bool memoryLimited = false;
    const std::string path = file.path.string();
    auto& columns = index.traces;
    const std::uint64_t base = columns.size();
    TraceStitcher stitcher(index, file, base);

    BufferPool buffers(pool.size() + 3);
    const bool singleChunk = size - std::min(size, start) <= kReadChunkBytes;
    std::deque<std::unique_ptr<TraceJob>> jobs; // submitted, not yet stitched
    std::size_t submitted = 0;
    std::size_t stitched = 0;
    // Signalled as each job is done. Owned here, not by the job, which may be gone (stitched and
    // freed) as soon as it is marked done.
    std::mutex doneMutex;
    std::condition_variable doneSignal;
    // What joining each of the last chunks added to memoryBytes(), by job number.
    std::deque<std::pair<std::size_t, std::uint64_t>> recentGrowth;
    // The alert lists of stitched jobs, emptied, for the next jobs: an alert-dense file grows a
    // fresh list by doubling in every chunk otherwise, which cost half of the index's page
    // faults (each new page of a vector is one) and the copies of each doubling.
    std::vector<std::vector<LocalAlert>> spareAlertLists;
    auto stitchFront = [&] {
        const std::uint64_t before = index.memoryBytes();
        TraceJob& front = *jobs.front();
        stitcher.stitch(front);
        if (spareAlertLists.size() < kSpareAlertLists) {
            front.alerts.clear();
            spareAlertLists.push_back(std::move(front.alerts));
        }
        jobs.pop_front();
        recentGrowth.emplace_back(stitched++, index.memoryBytes() - before);
    };
    auto stitchFinished = [&] {
        while (!jobs.empty() && jobs.front()->done.load(std::memory_order_acquire))
            stitchFront();
    };
    // memoryBytes() as it is with the jobs before `cutoff` joined in and none after: the jobs
    // before it are waited for, the growth of those after it taken off.
    auto weighedMemory = [&](std::size_t cutoff) {
        while (stitched < cutoff) {
            TraceJob& front = *jobs.front();
            if (!front.done.load(std::memory_order_acquire) && !pool.runOne()) {
                std::unique_lock lock(doneMutex);
                doneSignal.wait(lock, [&] { return front.done.load(std::memory_order_acquire); });
            }
            if (front.done.load(std::memory_order_acquire))
                stitchFront();
        }
        while (!recentGrowth.empty() && recentGrowth.front().first < cutoff)
            recentGrowth.pop_front();
        std::uint64_t used = index.memoryBytes();
        for (const auto& [job, growth] : recentGrowth)
            used -= growth;
        return used;
    };
    std::uint64_t provisional = base;
    // Workers write through raw chunk pointers while this loop grows the columns: room for every
    // record the range can hold (each takes kRecordOverhead bytes at least) keeps the first
    // chunk where it is.
    columns.reserve(base + (size - std::min(size, start)) / format::kRecordOverhead);
    for (;;) {
        if (reader.position() - start >= byteBudget) {
            result.stoppedAtBudget = reader.position() < size;
            break;
        }
        auto job = std::make_unique<TraceJob>();
        job->buffer = buffers.take(pool);
        if (!spareAlertLists.empty()) {
            job->alerts = std::move(spareAlertLists.back());
            spareAlertLists.pop_back();
        }
        stitchFinished(); // frees the finished jobs' results while the file is still read
        const std::uint64_t used =
            weighedMemory(submitted > kWeighedLag ? submitted - kWeighedLag : 0);
        if (used >= index.maxMemoryBytes) {
            memoryLimited = reader.position() < size;
            buffers.give(std::move(job->buffer));
            break;
        }
        const std::uint64_t room = (index.maxMemoryBytes - used) / kRoomPerChunkByte;
        const std::uint64_t chunkBudget =
            std::min(byteBudget - (reader.position() - start), std::max<std::uint64_t>(room, 1));
        if (!reader.next(job->buffer, job->chunk, chunkBudget)) {
            buffers.give(std::move(job->buffer));
            break;
        }
        job->firstIndex = provisional;
        provisional += job->chunk.recordCount();
        columns.resize(provisional);
        job->wallTime = columns.wallTime.writer(job->firstIndex, provisional);
        job->offset = columns.offset.writer(job->firstIndex, provisional);
        job->op = columns.op.writer(job->firstIndex, provisional);
        job->slot = columns.slot.writer(job->firstIndex, provisional);
        job->mode = columns.mode.writer(job->firstIndex, provisional);
        job->health = columns.health.writer(job->firstIndex, provisional);
        job->device = columns.device.writer(job->firstIndex, provisional);
        TraceJob* raw = job.get();
        const GraphTable& graphs = index.graphs;
        auto decode = [raw, &graphs, &path, &buffers, &doneMutex, &doneSignal] {
            raw->run(graphs, path);
            buffers.give(std::move(raw->buffer));
            {
                std::lock_guard lock(doneMutex);
                raw->done.store(true, std::memory_order_release);
            }
            doneSignal.notify_all();
        };
        // A range that is one chunk has nothing to overlap with: it is decoded here, and a small
        // logdir never starts the pool's threads.
        if (singleChunk)
            decode();
        else
            pool.submit(std::move(decode));
        jobs.push_back(std::move(job));
        ++submitted;
    }
    pool.wait();
    for (auto& job : jobs)
        stitcher.stitch(*job);
    jobs.clear();
    // The workers are done with the graph table: ops they could not find can be added now.
    stitcher.resolveUnknownOps();
    index.sealFinished(stitcher.next());

    columns.resize(stitcher.next());
    if (!stitcher.stopped()) {
        file.offset = reader.position();
        file.stop = result.stoppedAtBudget || memoryLimited ? format::RecordStatus::EndOfData
                                                            : reader.stopStatus();
        file.memoryLimited = memoryLimited;
    }
    if (stitcher.next() > base)
        index.appendTraceSegment(fileIndex, base);
    result.bytesRead = file.offset - start;
    return result;
}

} // namespace

TracePassResult loadTraces(FileState& file, std::uint32_t fileIndex, IndexState& index,
                           ThreadPool& pool, std::uint64_t byteBudget)
{
    TracePassResult total;
    if (!file.ensureOpen(*index.files))
        return total;
    file.size = file.handle.size();
    index.spillIfLarge(file.size - std::min(file.size, file.offset));
    do {
        const TracePassResult pass =
            tracePass(file, fileIndex, index, pool, byteBudget - total.bytesRead, file.size);
        total.bytesRead += pass.bytesRead;
        total.stoppedAtBudget = pass.stoppedAtBudget;
        if (pass.stoppedAtBudget || total.bytesRead >= byteBudget)
            break;
    } while (skipCorruptRecord(file, index));
    if (index.closeFilesAfterReading)
        file.handle.close(); // opened again by the next update
    return total;
}

} // namespace nanscope::core
