// SPDX-License-Identifier: GPL-3.0-or-later
// The .execution files: as with traces, record boundaries are found on the updating thread a chunk
// at a time while the pool checks payload CRCs and decodes the chunks already found (the updating
// thread decodes too while its chunks are all taken). Each chunk keeps its buffer until it is
// stitched into the index, in file order, on the updating thread: the memory limit is weighed
// record by record there, and a stop at a corrupt record drops what was decoded past it, so the
// index is exactly what reading one record at a time would give.
#include "awaitedframes.hpp"
#include "chunkstrings.hpp"
#include "loaders.hpp"
#include "recorddecoding.hpp"
#include "recordscan.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace nanscope::core {
namespace {

// "output 2: its six counts add up to …" for the first output whose summary is invalid.
std::string firstInvalidSummary(const std::vector<TensorHealth>& outputs)
{
    for (std::size_t slot = 0; slot < outputs.size(); ++slot)
        if (!outputs[slot].invalid.empty())
            return "output " + std::to_string(slot) + ": " + outputs[slot].invalid;
    return {};
}

// Executions come from a few call sites, step after step: the same code location bytes and the
// same graph over and over. Remembering the last answers saves hashing a dozen frame ids and a
// graph id per record. The copies are owned here: a chunk's bytes live only while it is handled.
class ReferenceCheck
{
public:
    ReferenceCheck(const GraphTable& graphs, const CodeTable& code) : m_graphs(graphs), m_code(code)
    {}

    // Whether `graphId` names no declared graph (an empty one names none, which is fine).
    bool undeclaredGraph(std::string_view graphId)
    {
        if (graphId.empty())
            return false;
        if (!m_haveGraph || graphId != m_graphId) {
            m_graphId.assign(graphId);
            const auto graph = m_graphs.findGraph(graphId);
            m_undeclared = !graph || !m_graphs.graph(*graph).declared;
            m_haveGraph = true;
        }
        return m_undeclared;
    }

    // The first frame id of `codeLocation` that the stack frames lack (a part of it); nullopt
    // when it names none.
    std::optional<std::string_view> unknownFrame(std::string_view codeLocation)
    {
        if (!m_haveLocation || codeLocation != m_location) {
            m_location.assign(codeLocation);
            std::string_view found;
            m_unknown = core::namesUnknownFrame(codeLocation, m_code, found);
            m_unknownAt =
                m_unknown ? static_cast<std::size_t>(found.data() - codeLocation.data()) : 0;
            m_unknownSize = found.size();
            m_haveLocation = true;
        }
        if (!m_unknown)
            return std::nullopt;
        return codeLocation.substr(m_unknownAt, m_unknownSize);
    }

private:
    const GraphTable& m_graphs;
    const CodeTable& m_code;
    std::string m_graphId;
    bool m_undeclared = false;
    bool m_haveGraph = false;
    std::string m_location;
    bool m_unknown = false;
    std::size_t m_unknownAt = 0; // where the unknown frame id lies in the location's bytes
    std::size_t m_unknownSize = 0;
    bool m_haveLocation = false;
};

// The kinds of an execution's strings in its chunk's ChunkStrings.
constexpr std::size_t kOpType = 0;
constexpr std::size_t kGraphId = 1;
constexpr std::size_t kModulePath = 2;

// What one record came to, decoded on a pool thread. Its strings point into the chunk's buffer.
struct ExecutionRecord
{
    enum class Outcome : std::uint8_t { Indexed, OverShare, Malformed, OtherKind };
    Outcome outcome = Outcome::Indexed;
    DebugMode mode = DebugMode::Unspecified;
    std::uint8_t health = 0; // all outputs together
    bool undeclaredGraph = false;
    bool malformedSummary = false;
    std::uint32_t invalidSummary = 0; // 1 + index into ExecutionJob::invalidSummaries; 0: none
    std::uint64_t offset = 0;
    RecordWeight weight; // its first half, weighRecord's; the stitcher does the second
    double wallTime = 0;
    std::string_view graphId;
    std::array<std::uint32_t, ChunkStrings::kKinds> strings{}; // numbers in the chunk's strings
    std::optional<std::string_view> unknownFrame;
    std::string_view codeLocation; // only where it names an unknown frame
    std::uint32_t inputCount = 0;
    std::uint32_t outputCount = 0;
    std::uint32_t healthCount = 0;
    std::uint32_t alertCount = 0;
};

struct ExecutionJob
{
    ReadBuffer buffer;
    RecordChunk chunk;

    // Results.
    std::atomic<bool> done{false};
    std::size_t intact = 0; // records before the first corrupt payload
    std::vector<ExecutionRecord> records;
    std::vector<std::int64_t> tensorIds;       // each record's inputs, then outputs, in order
    std::vector<std::uint8_t> outputHealth;    // each record's outputs, in order
    std::vector<Alert> alerts;                 // each record's, in order; events set when stitched
    std::vector<std::string> invalidSummaries; // the words of ExecutionRecord::invalidSummary
    ChunkStrings strings;                      // the records' op types, graph ids and modules

    void run(const IndexState& index, bool compatible);
    // Ready for another chunk, its lists emptied but their memory kept: a job's lists grow to
    // hundreds of kilobytes, and new ones cost a page fault per 4 KiB as they fill.
    void reset();
};

void ExecutionJob::reset()
{
    done.store(false, std::memory_order_relaxed);
    intact = 0;
    records.clear();
    tensorIds.clear();
    outputHealth.clear();
    alerts.clear();
    invalidSummaries.clear();
    strings.clear();
}

// Whether TensorBoard raises an alert for output `slot` (NaNscope's alerts less its own).
bool tensorBoardAlerts(const DecodedExecution& e, std::size_t slot)
{
    const auto has = [slot](const auto& list, auto slotOf) {
        return std::any_of(list.begin(), list.end(),
                           [&](const auto& item) { return slotOf(item) == slot; });
    };
    return has(e.alerts, [](const Alert& a) { return a.outputSlot; }) &&
           !has(e.notTensorBoardAlerts, [](std::uint32_t s) { return s; });
}

void ExecutionJob::run(const IndexState& index, bool compatible)
{
    intact = chunk.firstCorruptPayload();
    records.resize(intact);
    DecodedExecution e;
    ReferenceCheck references(index.graphs, index.code);
    for (std::size_t r = 0; r < intact; ++r) {
        ExecutionRecord& x = records[r];
        const std::string_view payload = chunk.payload(r);
        x.offset = chunk.recordOffset(r);
        x.weight = weighRecord(payload, index.maxDecodedBytes);
        if (!x.weight.decoded) {
            x.outcome = ExecutionRecord::Outcome::OverShare;
            continue;
        }
        const DecodeStatus status = decodeExecution(payload, e);
        if (status != DecodeStatus::Ok) {
            x.outcome = status == DecodeStatus::Malformed ? ExecutionRecord::Outcome::Malformed
                                                          : ExecutionRecord::Outcome::OtherKind;
            continue;
        }
        x.mode = e.mode;
        x.wallTime = e.wallTime;
        x.graphId = e.graphId;
        x.strings[kOpType] = strings.number(kOpType, e.opType);
        x.strings[kGraphId] = strings.number(kGraphId, e.graphId);
        x.strings[kModulePath] = strings.number(kModulePath, e.modulePath);
        x.malformedSummary = e.malformedSummary;
        if (!e.malformedSummary)
            if (auto invalid = firstInvalidSummary(e.outputHealth); !invalid.empty()) {
                invalidSummaries.push_back(std::move(invalid));
                x.invalidSummary = static_cast<std::uint32_t>(invalidSummaries.size());
            }
        if (compatible) {
            x.undeclaredGraph = references.undeclaredGraph(e.graphId);
            x.unknownFrame = references.unknownFrame(e.codeLocation);
            if (x.unknownFrame)
                x.codeLocation = e.codeLocation;
        }
        HealthDigest all;
        for (std::size_t slot = 0; slot < e.outputHealth.size(); ++slot) {
            HealthDigest digest = e.outputHealth[slot].digest();
            all.bits |= digest.bits;
            if (digest.nonFinite() && !tensorBoardAlerts(e, slot))
                digest.bits |= health::NoAlert; // TensorBoard's counts skip its alert
            outputHealth.push_back(digest.bits);
        }
        x.health = all.bits; // without NoAlert: the execution is one of NaNscope's alerts
        x.inputCount = static_cast<std::uint32_t>(e.inputIds.size());
        x.outputCount = static_cast<std::uint32_t>(e.outputIds.size());
        x.healthCount = static_cast<std::uint32_t>(e.outputHealth.size());
        tensorIds.insert(tensorIds.end(), e.inputIds.begin(), e.inputIds.end());
        tensorIds.insert(tensorIds.end(), e.outputIds.begin(), e.outputIds.end());
        if (compatible) {
            x.alertCount = static_cast<std::uint32_t>(e.alerts.size());
            alerts.insert(alerts.end(), e.alerts.begin(), e.alerts.end());
        }
    }
}

// Joins finished chunks, in file order, into the columns: the memory limit, the diagnostics, the
// string ids and the alerts, record by record as a one-at-a-time reading would.
class ExecutionStitcher
{
public:
    ExecutionStitcher(FileState& file, IndexState& index, ExecutionColumns& columns,
                      bool compatible)
        : m_file(file), m_index(index), m_x(columns), m_compatible(compatible)
    {}

    // False when reading stopped in this chunk (the memory limit, or a corrupt payload): the
    // file's offset and stop are set, and later chunks are not to be stitched.
    bool stitch(ExecutionJob& job)
    {
        m_ids.reset(job.strings);
        // A chunk that cannot take the index to its limit skips the per-record weighing, which
        // asks memoryBytes() each time.
        std::uint64_t growth = 0;
        for (const auto& r : job.records)
            if (r.weight.decoded)
                growth +=
                    IndexState::growthBound(std::max(r.weight.payloadBytes, *r.weight.decoded));
        const bool weigh = m_index.wouldGrowPastLimit(growth);
        std::size_t ids = 0;
        std::size_t healths = 0;
        std::size_t alerts = 0;
        for (std::size_t r = 0; r < job.records.size(); ++r) {
            ExecutionRecord& x = job.records[r];
            if (x.outcome == ExecutionRecord::Outcome::OverShare) {
                m_index.recordProblems.add({Severity::Error, m_file.path.string(), x.offset,
                                            overShare(m_index.maxDecodedBytes)});
                m_file.noteRecordsRead(1);
                continue;
            }
            if (weigh && passesMemoryLimit(m_index, job.chunk.payload(r), x.weight)) {
                m_file.offset = x.offset;
                m_file.stop = format::RecordStatus::EndOfData;
                m_file.memoryLimited = true;
                return false;
            }
            m_file.noteRecordsRead(1);
            if (x.outcome != ExecutionRecord::Outcome::Indexed) {
                const bool malformed = x.outcome == ExecutionRecord::Outcome::Malformed;
                m_index.recordProblems.add(
                    recordProblem(malformed ? Severity::Error : Severity::Warning, m_file, x.offset,
                                  malformed ? "not a valid DebugEvent; skipped"
                                            : "not an Execution record; skipped"));
                continue;
            }
            add(job, x, ids, healths, alerts);
        }
        if (job.intact < job.chunk.recordCount()) {
            // A corrupt payload: reading stops at its record, as TensorFlow's reader does.
            m_file.offset = job.chunk.recordOffset(job.intact);
            m_file.stop = format::RecordStatus::CorruptPayload;
            return false;
        }
        return true;
    }

private:
    void add(const ExecutionJob& job, const ExecutionRecord& x, std::size_t& ids,
             std::size_t& healths, std::size_t& alerts)
    {
        if (x.malformedSummary)
            m_index.recordProblems.add(recordProblem(
                Severity::Warning, m_file, x.offset,
                "a summary vector is too short for its tensor debug mode; its health is unknown"));
        else if (x.invalidSummary)
            m_index.recordProblems.add(recordProblem(
                Severity::Warning, m_file, x.offset,
                "inconsistent summary vector of " + job.invalidSummaries[x.invalidSummary - 1] +
                    "; shown as an invalid summary"));
        if (x.undeclaredGraph)
            m_index.executionsOfUndeclaredGraphs.note(x.graphId);
        if (x.unknownFrame) {
            m_index.executionsWithUnknownFrames.note(*x.unknownFrame);
            m_index.executionsAwaitingFrames.note(x.codeLocation);
        }
        const std::size_t i = m_x.size();
        m_x.wallTime.push_back(x.wallTime);
        m_x.offset.push_back(x.offset);
        m_x.opType.push_back(m_ids.id(m_index.strings, kOpType, x.strings[kOpType]));
        m_x.graphId.push_back(m_ids.id(m_index.strings, kGraphId, x.strings[kGraphId]));
        m_x.module.push_back(m_ids.id(m_index.strings, kModulePath, x.strings[kModulePath]));
        m_x.mode.push_back(static_cast<std::uint8_t>(x.mode));
        m_x.health.push_back(x.health);
        m_x.idsBegin.push_back(m_x.tensorIds.size());
        m_x.inputCount.push_back(x.inputCount);
        m_x.outputCount.push_back(x.outputCount);
        for (std::size_t k = 0; k < std::size_t{x.inputCount} + x.outputCount; ++k)
            m_x.tensorIds.push_back(job.tensorIds[ids++]);
        m_x.healthBegin.push_back(m_x.outputHealth.size());
        m_x.healthCount.push_back(x.healthCount);
        for (std::size_t k = 0; k < x.healthCount; ++k)
            m_x.outputHealth.push_back(job.outputHealth[healths++]);
        if (!m_compatible)
            return;
        for (std::size_t k = 0; k < x.alertCount; ++k) {
            Alert alert = job.alerts[alerts++];
            alert.event = {EventSource::Eager, i};
            m_index.executionAlerts.push_back(alert);
        }
        m_index.executionModes |= modeBit(x.mode);
    }

    FileState& m_file;
    IndexState& m_index;
    ExecutionColumns& m_x;
    bool m_compatible;
    ChunkStringIds m_ids; // the stitched chunk's
};

// Reads from file.offset to the file's size now, until the end, the memory limit or the first
// corrupt record. `compatible`: the first file set's executions, the ones TensorFlow's reader
// reads; only they raise alerts and are checked against the (first host's) graphs and frames.
void executionPass(FileState& file, IndexState& index, ExecutionColumns& columns, bool compatible,
                   ThreadPool& pool, std::uint64_t size)
{
    ChunkReader reader(file.handle, file.offset, size, kReadChunkBytes, index.maxRecordBytes);
    ExecutionStitcher stitcher(file, index, columns, compatible);
    const bool singleChunk = size - std::min(size, file.offset) <= kReadChunkBytes;
    const std::size_t maxJobs = pool.size() + 3;
    std::vector<ReadBuffer> buffers(maxJobs);
    std::deque<std::unique_ptr<ExecutionJob>> jobs;       // submitted, not yet stitched
    std::vector<std::unique_ptr<ExecutionJob>> spareJobs; // stitched, to be used again
    bool stopped = false;
    // Signalled as each job is done. Owned here, not by the job, which may be gone (stitched and
    // freed) as soon as it is marked done: notifying through the job raced with that.
    std::mutex doneMutex;
    std::condition_variable doneSignal;
    // Stitches the finished jobs at the front; with `wait`, the first one at least.
    auto stitchFinished = [&](bool wait) {
        while (!jobs.empty()) {
            ExecutionJob& job = *jobs.front();
            if (!job.done.load(std::memory_order_acquire)) {
                if (!wait)
                    return;
                if (!pool.runOne()) {
                    std::unique_lock lock(doneMutex);
                    doneSignal.wait(lock, [&] { return job.done.load(std::memory_order_acquire); });
                }
                continue;
            }
            wait = false;
            stopped = stopped || !stitcher.stitch(job);
            index.sealFinished(index.traces.size());
            buffers.push_back(std::move(job.buffer));
            job.reset();
            spareJobs.push_back(std::move(jobs.front()));
            jobs.pop_front();
        }
    };
    file.memoryLimited = false;
    while (!stopped) {
        stitchFinished(buffers.empty());
        if (stopped)
            break;
        std::unique_ptr<ExecutionJob> job;
        if (spareJobs.empty()) {
            job = std::make_unique<ExecutionJob>();
        } else {
            job = std::move(spareJobs.back());
            spareJobs.pop_back();
        }
        job->buffer = std::move(buffers.back());
        buffers.pop_back();
        if (!reader.next(job->buffer, job->chunk))
            break;
        ExecutionJob* raw = job.get();
        auto decode = [raw, &index, compatible, &doneMutex, &doneSignal] {
            raw->run(index, compatible);
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
    }
    while (!jobs.empty() && !stopped)
        stitchFinished(true);
    pool.wait(); // jobs past a stop may still be running: they point into this frame's state
    if (!stopped) {
        file.offset = reader.stopOffset();
        file.stop = reader.stopStatus();
    }
}

void readExecutions(FileState& file, IndexState& index, ExecutionColumns& columns, bool compatible,
                    ThreadPool& pool)
{
    if (!file.ensureOpen(*index.files))
        return;
    // The size now bounds this pass: a file that grows while it is read is read up to here.
    const std::uint64_t size = std::min(file.handle.size(), file.readLimit);
    file.size = size;
    index.spillIfLarge(size - std::min(size, file.offset));
    do
        executionPass(file, index, columns, compatible, pool, size);
    while (!file.memoryLimited && skipCorruptRecord(file, index));
    if (index.closeFilesAfterReading)
        file.handle.close(); // opened again by the next update
}

} // namespace

void loadExecutions(FileState& file, IndexState& index, ThreadPool& pool)
{
    readExecutions(file, index, index.executions, true, pool);
}

void loadOtherHostExecutions(FileState& file, IndexState& index, ExecutionColumns& columns,
                             ThreadPool& pool)
{
    readExecutions(file, index, columns, false, pool);
}

} // namespace nanscope::core
