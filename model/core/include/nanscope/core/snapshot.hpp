// SPDX-License-Identifier: GPL-3.0-or-later
// An immutable view of everything read from a logdir so far.
//
// Thread safety: a Snapshot never changes after LogdirReader publishes it; every method may be
// called from any thread at the same time. The lazily computed parts (origin, propagation, alerts
// by wall time) are computed once, by the first caller. The read* methods open the logdir's files
// themselves (one record each: cheap enough for the row a user looks at).
//
// Successive snapshots share their large arrays: reading more never copies the traces read before.
#pragma once

#include "nanscope/core/codetable.hpp"
#include "nanscope/core/details.hpp"
#include "nanscope/core/diagnostic.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/graphtable.hpp"
#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/core/origin.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

// Where TensorFlow's reader stops reading a file for good: at its first corrupt record.
struct TensorBoardStop
{
    std::string file;
    std::uint64_t offset = 0;
};

class Snapshot
{
public:
    struct Data; // the reader's published state
    explicit Snapshot(std::unique_ptr<Data> data);
    ~Snapshot();
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

    // --- The logdir ------------------------------------------------------------------------
    const LogdirLayout& layout() const;
    // Whether any file set was found (false: nothing could be read; see diagnostics()).
    bool readable() const { return !layout().empty(); }
    // Counts the snapshots a reader published; a newer snapshot has a larger generation.
    std::uint64_t generation() const;
    // False when the update that made this snapshot stopped at its byte budget: more data is
    // already on disk, and the next update() continues.
    bool complete() const;
    // Problems found so far, most severe first, then in file order.
    const std::vector<Diagnostic>& diagnostics() const;
    // Bytes of the index's per-trace and per-execution arrays (for memory budgets).
    std::uint64_t indexBytes() const;

    // --- Counts and tables -----------------------------------------------------------------
    std::uint64_t traceCount() const;     // TensorFlow's num_graph_execution_traces()
    std::uint64_t executionCount() const; // TensorFlow's num_executions()
    const GraphTable& graphs() const;     // graphs, ops, devices
    const CodeTable& code() const;        // source files, stack frames
    DebugModeSet traceModes() const;      // modes seen in graph execution traces
    DebugModeSet executionModes() const;  // modes seen in executions
    // The device names of graph execution traces (TraceDigest::device), entry 0 "" (none).
    const std::vector<std::string>& traceDevices() const;

    // --- Digests, O(1) by index ----------------------------------------------------------------
    TraceDigest trace(std::uint64_t index) const;
    // Single fields of trace(index), for scans over every trace: each reads one column, so that a
    // scan touches the bytes it needs (in a spilled index, the pages it maps), not whole digests.
    OpId traceOp(std::uint64_t index) const;
    std::uint16_t traceDevice(std::uint64_t index) const;
    std::uint32_t traceFileIndex(std::uint64_t index) const;
    ExecutionDigest execution(std::uint64_t index) const;
    std::vector<std::int64_t> executionInputIds(std::uint64_t index) const;
    std::vector<std::int64_t> executionOutputIds(std::uint64_t index) const;
    std::vector<HealthDigest> executionOutputHealth(std::uint64_t index) const;
    double wallTime(EventRef event) const;
    // The health digest of a trace, or of an execution (all its outputs together).
    HealthDigest health(EventRef event) const;

    // --- Executions per host ---------------------------------------------------------------
    // TensorFlow's reader reads the executions of the first file set only: those are
    // executionCount() and execution(), the alerts, the origin and the report's totals. The
    // other file sets' executions are indexed apart, by host h (LogdirLayout::fileSets[h]); host
    // 0's are the ones above. Counts are 0 and reads fail past the last host.
    std::uint64_t hostExecutionCount(std::size_t host) const;
    ExecutionDigest hostExecution(std::size_t host, std::uint64_t index) const; // index < count

    // --- Alerts --------------------------------------------------------------------------------
    // Every InfNanAlert by TensorBoard's rules (§9.4) without its cap of 1000, in the order a
    // single full update of TensorBoard records them: graph traces by index, then executions;
    // and, in their places, NaNscope's own for the FULL_TENSOR values that TensorBoard's reader
    // does not check (bfloat16, float8, complex: see tensorBoardRaises).
    std::uint64_t alertCount() const;
    Alert alert(std::uint64_t k) const;
    // Indices into the alerts above, sorted by wall time (stable).
    const std::vector<std::uint64_t>& alertsByWallTime() const;
    // --- What TensorBoard shows ------------------------------------------------------------
    // It reads no file past its first corrupt record, where NaNscope reads on (and says so).
    const std::vector<TensorBoardStop>& tensorBoardStops() const;
    bool visibleToTensorBoard(EventRef event) const;
    std::uint64_t tensorBoardTraceCount() const;
    std::uint64_t tensorBoardExecutionCount() const;
    // Whether TensorBoard's rules raise this alert too (its output's health has no NoAlert).
    bool tensorBoardRaises(const Alert& alert) const;
    // Its answer: alerts[0] of its capped list, and its alert count.
    std::optional<Alert> tensorBoardFirstAlert() const;
    std::uint64_t tensorBoardAlertCount() const;

    // A large index's arrays may lie in a file mapped into memory (ReaderOptions::spill): a scan
    // over whole columns maps them in. This takes them out of the resident set again (they stay
    // in the page cache); a later read maps what it needs. Callable from any thread; nothing when
    // the index is in memory.
    void releaseMappedPages() const;

    // --- Root cause (see origin.hpp) -----------------------------------------------------------
    const std::optional<Origin>& origin() const;
    const Propagation& propagation() const;

    // --- Full records, decoded on demand --------------------------------------------------------
    // A read costs one pass over the record's bytes (see details.hpp). With `maxRecordBytes`, a
    // larger record is not read at all: the result is `deferred`, for the caller to read it on
    // another thread (what models do with kInteractiveRecordBytes).
    ReadResult<TraceDetails> readTrace(std::uint64_t index,
                                       std::uint64_t maxRecordBytes = kAnyRecordSize) const;
    ReadResult<ExecutionDetails> readExecution(std::uint64_t index) const;
    ReadResult<ExecutionDetails> readHostExecution(std::size_t host, std::uint64_t index) const;
    // The health of one output: a trace's tensor, or one tensor_protos entry of an execution.
    TensorHealth readHealth(EventRef event, std::uint32_t outputSlot = 0) const;
    // The lines of a source file as the writer captured them (never read from the local disk).
    ReadResult<std::vector<std::string>> readSourceLines(std::size_t fileIndex) const;
    std::vector<ResolvedFrame> resolveStack(const std::vector<std::string>& frameIds) const;

    const Data& data() const { return *m_data; }

private:
    void analyse() const; // origin and propagation, once
    std::unique_ptr<Data> m_data;
};

} // namespace nanscope::core
