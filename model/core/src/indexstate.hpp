// SPDX-License-Identifier: GPL-3.0-or-later
// The index the reader builds: struct-of-arrays digests shared with snapshots, the small tables
// copied when they change, and per-file reading state.
#pragma once

#include "awaitedframes.hpp"
#include "chunkedarray.hpp"
#include "diagnosticlist.hpp"
#include "filehandle.hpp"
#include "knownpropagation.hpp"
#include "nanscope/core/codetable.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/graphtable.hpp"
#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/core/origin.hpp"
#include "nanscope/core/snapshot.hpp"
#include "stringpool.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace nanscope::core {

namespace intentwalk {
struct WalkState;
class SavedWalkState;
} // namespace intentwalk

// Every column of a struct of columns, so that growing, counting, spilling and releasing never
// miss one: `Derived` lists its columns in a static eachColumnOf(self, f).
template <typename Derived>
struct ColumnSet
{
    template <typename F>
    void forEachColumn(const F& f)
    {
        Derived::eachColumnOf(static_cast<Derived&>(*this), f);
    }
    template <typename F>
    void forEachColumn(const F& f) const
    {
        Derived::eachColumnOf(static_cast<const Derived&>(*this), f);
    }

    std::uint64_t bytes() const
    {
        std::uint64_t total = 0;
        forEachColumn([&total](const auto& column) { total += column.usedBytes(); });
        return total;
    }

    void spillTo(const std::shared_ptr<ChunkArena>& arena)
    {
        forEachColumn([&arena](auto& column) { column.spillTo(arena); });
    }
};

// 26 bytes per trace (the budget is 48, measured by the benchmark).
struct TraceColumns : ColumnSet<TraceColumns>
{
    ChunkedArray<double> wallTime;
    ChunkedArray<std::uint64_t> offset;
    ChunkedArray<OpId> op;
    ChunkedArray<std::uint16_t> slot; // output slots above 65535 are clamped (and diagnosed)
    ChunkedArray<std::uint8_t> mode;
    ChunkedArray<std::uint8_t> health;
    ChunkedArray<std::uint16_t> device; // into the index's trace device names (0: none)

    std::size_t size() const { return op.size(); }
    void resize(std::size_t n);
    void reserve(std::size_t n);     // see ChunkedArray::reserve
    void sealBelow(std::size_t end); // see ChunkedArray::sealBelow

private:
    friend ColumnSet<TraceColumns>;
    template <typename Self, typename F>
    static void eachColumnOf(Self& self, const F& f)
    {
        f(self.wallTime);
        f(self.offset);
        f(self.op);
        f(self.slot);
        f(self.mode);
        f(self.health);
        f(self.device);
    }
};

// Traces from one trace file that got consecutive indices in one update.
struct TraceSegment
{
    std::uint64_t firstIndex = 0;
    std::uint32_t fileIndex = 0;
};

struct ExecutionColumns : ColumnSet<ExecutionColumns>
{
    ChunkedArray<double> wallTime;
    ChunkedArray<std::uint64_t> offset;
    ChunkedArray<std::uint32_t> opType;  // StringPool id
    ChunkedArray<std::uint32_t> graphId; // StringPool id (0: none)
    ChunkedArray<std::uint32_t> module;  // StringPool id of the module path (0: none)
    ChunkedArray<std::uint8_t> mode;
    ChunkedArray<std::uint8_t> health;    // all outputs together
    ChunkedArray<std::uint64_t> idsBegin; // into tensorIds: inputs, then outputs
    ChunkedArray<std::uint32_t> inputCount;
    ChunkedArray<std::uint32_t> outputCount;
    ChunkedArray<std::uint64_t> healthBegin; // into outputHealth
    ChunkedArray<std::uint32_t> healthCount;
    ChunkedArray<std::int64_t> tensorIds;
    ChunkedArray<std::uint8_t> outputHealth;

    // Stitched on the reading thread one record at a time, where every page fault waits.
    ExecutionColumns()
    {
        forEachColumn([](auto& column) { column.takeLargePagesEarly(); });
    }

    std::size_t size() const { return opType.size(); }
    // Every whole chunk written so far is finished: executions are only ever appended.
    void sealFilled();

private:
    friend ColumnSet<ExecutionColumns>;
    template <typename Self, typename F>
    static void eachColumnOf(Self& self, const F& f)
    {
        f(self.wallTime);
        f(self.offset);
        f(self.opType);
        f(self.graphId);
        f(self.module);
        f(self.mode);
        f(self.health);
        f(self.idsBegin);
        f(self.inputCount);
        f(self.outputCount);
        f(self.healthBegin);
        f(self.healthCount);
        f(self.tensorIds);
        f(self.outputHealth);
    }
};

// Where reading one file stands between updates: what a saved index keeps of it.
struct FileProgress
{
    bool missing = false;     // the file does not exist
    std::string openError;    // it exists but cannot be opened
    std::uint64_t offset = 0; // next record to read
    std::uint64_t size = 0;   // at the end of the last pass
    format::RecordStatus stop = format::RecordStatus::EndOfData;
    // The last pass stopped at `offset` because the index reached the reader's memory limit.
    bool memoryLimited = false;

    // Corrupt byte ranges read past, in file order: the first kMaxListedSkips one by one, the
    // rest only counted.
    struct SkippedRange
    {
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
        std::uint64_t recordsAfter = 0; // whole records read after it, up to the next one
    };
    static constexpr std::size_t kMaxListedSkips = 20;
    std::vector<SkippedRange> skipped;
    std::uint64_t unlistedSkipCount = 0;
    std::uint64_t unlistedSkippedBytes = 0;
    std::uint64_t unlistedRecordsAfter = 0;
    // The first corrupt record: TensorFlow's reader stops this file there for good.
    std::optional<std::uint64_t> tensorBoardStop;
    // The last search for a record after the corrupt one at resyncOffset: whether it gave up
    // (see findNextRecord), and how far it ruled positions out, where the next search goes on.
    bool resyncGaveUp = false;
    std::uint64_t resyncOffset = 0;
    std::uint64_t resyncSearchedTo = 0;
};

struct FileState : FileProgress
{
    std::filesystem::path path;
    FileHandle handle;
    // Records are read up to here at most: a saved index read again stops where it stopped.
    std::uint64_t readLimit = UINT64_MAX;
    // The checksums of the first checkedBytes, as a saved index's load found them (see
    // indexcacheformat.hpp's contentChecksums): saving the index again reads only what follows.
    std::vector<std::uint32_t> checkedContent;
    std::uint64_t checkedBytes = 0;

    void noteSkip(std::uint64_t begin, std::uint64_t end);
    void noteRecordsRead(std::uint64_t count);

    // Opens the file if needed; false (with missing/openError set) when it cannot be read.
    bool ensureOpen(const FileSystem& files);
};

// An analysis of an index's first events (origin.hpp): the origin, the propagation and, when
// kept, where the walk stopped. Valid while the index holds exactly these many traces and
// executions and no more of the graphs file was read (ops declared later change what the origin
// says of its inputs), and for the same expected patterns (another list sets other values aside).
// With more events and the rest the same, the analysis goes on from it and its walk
// (Snapshot::Data::prior).
struct KnownAnalysis
{
    std::uint64_t traces = 0;
    std::uint64_t executions = 0;
    std::uint64_t graphsRead = 0;
    std::optional<Origin> origin;
    std::vector<std::string> patterns;
    std::shared_ptr<const KnownPropagation> propagation;    // null: not saved with it
    std::shared_ptr<const intentwalk::SavedWalkState> walk; // null: not kept with it

    // Whether it can be of the first events of an index of `indexTraces` traces and
    // `indexExecutions` executions that read `indexGraphsRead` bytes of the graphs file, for
    // `indexPatterns`.
    bool fits(std::uint64_t indexTraces, std::uint64_t indexExecutions,
              std::uint64_t indexGraphsRead, const std::vector<std::string>& indexPatterns) const
    {
        return traces <= indexTraces && executions <= indexExecutions &&
               graphsRead == indexGraphsRead && patterns == indexPatterns;
    }
};

// The last analysis of a reader's snapshots that kept its walk, handed to the snapshots the
// reader publishes after it: a logdir that is followed as it grows is analysed over what arrived
// since the last analysis, not since it was opened. Offered from the thread that analysed,
// taken by the reader's; a reader that starts over from nothing takes a new one.
class AnalysisRelay
{
public:
    // Kept when it walked more events than the one held.
    void offer(std::shared_ptr<const KnownAnalysis> analysis)
    {
        std::lock_guard lock(m_mutex);
        if (!m_latest ||
            analysis->traces + analysis->executions > m_latest->traces + m_latest->executions)
            m_latest = std::move(analysis);
    }
    std::shared_ptr<const KnownAnalysis> latest() const
    {
        std::lock_guard lock(m_mutex);
        return m_latest;
    }

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<const KnownAnalysis> m_latest;
};

struct Snapshot::Data
{
    std::shared_ptr<const LogdirLayout> layout;
    std::shared_ptr<const GraphTable> graphs;
    std::shared_ptr<const CodeTable> code;
    TraceColumns traces;
    std::vector<TraceSegment> segments;
    std::vector<std::string> traceDevices;
    ExecutionColumns executions;
    // The executions of file sets 1, 2, … (entry h - 1), which TensorFlow's reader never reads:
    // kept apart so that everything above stays what it reports (see Snapshot::hostExecution).
    std::vector<ExecutionColumns> otherHostExecutions;
    ChunkedArray<std::string, 10> strings;
    ChunkedArray<Alert, 12> traceAlerts;
    ChunkedArray<Alert, 12> executionAlerts;
    DebugModeSet traceModes = 0;
    DebugModeSet executionModes = 0;
    std::vector<Diagnostic> diagnostics;
    std::uint64_t generation = 0;
    bool complete = true;
    std::uint64_t maxRecordBytes = format::kMaxRecordPayload; // for records read on demand
    std::uint64_t maxDecodedBytes = UINT64_MAX;               // likewise, once decoded
    std::shared_ptr<const FileSystem> files = realFileSystem();
    // Where the spilled arrays lie (see ChunkArena); null when all are in memory.
    std::shared_ptr<const ChunkArena> spill;
    // Where TensorFlow's reader stops each file for good (its first corrupt record): one per
    // trace file, and the executions file; kNoStop where it reads the whole file.
    static constexpr std::uint64_t kNoStop = ~std::uint64_t{0};
    std::vector<std::uint64_t> traceFileTensorBoardStops;
    std::uint64_t executionTensorBoardStop = kNoStop;
    std::vector<TensorBoardStop> tensorBoardStops;

    std::filesystem::path traceFile(std::uint32_t fileIndex) const;
    std::filesystem::path mainFile(std::string_view suffix) const;
    std::uint32_t traceFileIndex(std::uint64_t traceIndex) const;
    // The executions of file set `host` (0: the TensorFlow-compatible ones); null past the last.
    const ExecutionColumns* executionsOf(std::size_t host) const;

    // The user's patterns of expected non-finite values (ReaderOptions::expected, then the dump
    // root's kExpectedFileName).
    std::vector<ExpectedPattern> expected;

    // An analysis of this index's first events for these patterns that a saved index brought
    // along or an earlier snapshot's analysis handed on (KnownAnalysis). `known`: of exactly this
    // index's events; origin(), and propagation() when it has one, answer it without the
    // analysis. `prior`: of fewer, with its walk and propagation; the analysis goes on from it
    // (originanalysis.hpp).
    std::shared_ptr<const KnownAnalysis> known;
    std::shared_ptr<const KnownAnalysis> prior;
    // The analysis keeps its walk's state, to be saved and handed on to `relay` (a reader that
    // saves its index sets it), with the size of the graphs file it read.
    bool keepWalk = false;
    std::shared_ptr<AnalysisRelay> relay;
    std::uint64_t graphsRead = 0;

    // Computed on first use.
    mutable std::once_flag analysisOnce;
    mutable std::optional<Origin> origin;
    mutable std::shared_ptr<const KnownPropagation> propagation;
    mutable bool wentOn = false; // the analysis went on from the prior one
    mutable std::shared_ptr<const intentwalk::WalkState> walk; // with keepWalk
    mutable std::once_flag alertsByTimeOnce;
    mutable std::vector<std::uint64_t> alertsByTime;
};

// Record problems listed one by one; the others are counted. A pass over part of a file lists
// as many as the whole list holds, so that the same problems are listed however the file was
// cut into passes (read whole, or followed while it grew).
inline constexpr std::size_t kListedRecordProblems = 200;

// Everything the reader has built; the loaders and passes fill it in.
struct IndexState
{
    // Whether trace and execution files are closed once read (openFileBudget()): set per update.
    bool closeFilesAfterReading = false;
    GraphTable graphs;
    bool graphsChanged = true;
    CodeTable code;
    bool codeChanged = true;
    TraceColumns traces;
    std::vector<TraceSegment> segments;
    // The device names traces carry, in first-seen order; entry 0 is "" (none). At most
    // kMaxTraceDevices: traces of further names are counted as of no device.
    std::vector<std::string> traceDevices{std::string()};
    std::uint64_t tracesOfUncountedDevices = 0;
    ExecutionColumns executions;
    std::vector<ExecutionColumns> otherHostExecutions; // as in Snapshot::Data
    StringPool strings;
    ChunkedArray<Alert, 12> traceAlerts;
    ChunkedArray<Alert, 12> executionAlerts;
    DebugModeSet traceModes = 0;
    DebugModeSet executionModes = 0;
    // Problems with single records and graph definitions; they stay reported.
    DiagnosticList recordProblems{kListedRecordProblems};
    // Traces that named an op no GraphOpCreation declared, per placeholder op.
    std::unordered_map<OpId, std::uint64_t> tracesOfUndeclaredOps;
    std::uint64_t clampedSlots = 0;
    // References to what no record declares: each kind counted, with the first name met.
    struct Unknowns
    {
        std::uint64_t count = 0;
        std::string first;
        void note(std::string_view name, std::uint64_t times = 1)
        {
            if (count == 0 && times > 0)
                first = std::string(name.substr(0, 200));
            count += times;
        }
    };
    Unknowns executionsOfUndeclaredGraphs; // counted as read; recounted when graphs are declared
    // Counted as executions are read (stack frames are read first); recounted when frames are
    // read after them, as a follower may read executions before their frames are written.
    Unknowns executionsWithUnknownFrames;
    AwaitedFrames executionsAwaitingFrames; // those executions' locations, for the recount
    void recountExecutionsWithUnknownFrames();
    Unknowns opsWithUnknownFrames; // recounted when graphs or frames change
    void countOpsWithUnknownFrames();
    // Recounts executionsOfUndeclaredGraphs over every execution read: a graph declared after
    // executions that name it were read no longer counts them, as for a reader that read it
    // first.
    void recountExecutionsOfUndeclaredGraphs();

    // The analysis a saved index brought along (KnownAnalysis): it takes a walk over every event
    // up to the first non-finite one, so a reopened index brings it along.
    std::shared_ptr<const KnownAnalysis> knownAnalysis;

    std::shared_ptr<const GraphTable> publishedGraphs;
    std::shared_ptr<const CodeTable> publishedCode;

    // Where the files are read from.
    std::shared_ptr<const FileSystem> files = realFileSystem();

    // Where a large index keeps its arrays (ReaderOptions::spill), and the arena once it does.
    std::filesystem::path spillDirectory;
    std::uint64_t spillAboveBytes = UINT64_MAX;
    std::shared_ptr<ChunkArena> spillArena;
    // Before a pass that reads `bytesAhead` more bytes of records: the growing arrays' finished
    // chunks go to a spill arena from now on if the index is expected to pass spillAboveBytes.
    void spillIfLarge(std::uint64_t bytesAhead);
    // Stores the finished chunks of the spilled arrays: traces below `traceEnd`, executions and
    // alerts below their sizes.
    void sealFinished(std::uint64_t traceEnd);

    // The reader's limits (ReaderOptions::maxMemoryBytes and the record length derived from it).
    std::uint64_t maxMemoryBytes = UINT64_MAX;
    std::uint64_t maxRecordBytes = format::kMaxRecordPayload;
    // The most one record may take once decoded (a quarter of the memory limit).
    std::uint64_t maxDecodedBytes = UINT64_MAX;

    void appendTraceSegment(std::uint32_t fileIndex, std::uint64_t firstIndex);

    // About how many bytes the index holds. The graph and code tables count twice: the reader
    // keeps its own copy beside the one its latest snapshot shares.
    std::uint64_t memoryBytes() const;
    // Whether adding a record of `recordBytes` could take the index past the limit.
    bool wouldExceedMemory(std::uint64_t recordBytes) const
    {
        return wouldGrowPastLimit(growthBound(recordBytes));
    }
    // The most a record of `recordBytes` adds: a few copies of its strings and some fixed-size
    // bookkeeping.
    static std::uint64_t growthBound(std::uint64_t recordBytes) { return 2 * recordBytes + 1024; }
    // Whether growing by `growth` bytes could take the index past the limit.
    bool wouldGrowPastLimit(std::uint64_t growth) const;
};

} // namespace nanscope::core
