// SPDX-License-Identifier: GPL-3.0-or-later
// The steps of one update, in TensorFlow's order (format §8.3): each reads what was appended to
// its file since the last update and adds it to the index.
#pragma once

#include "decodedsize.hpp"
#include "indexstate.hpp"
#include "threadpool.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nanscope::core {

void loadSourceFiles(FileState& file, IndexState& index);
void loadStackFrames(FileState& file, IndexState& index);
void loadGraphs(FileState& file, IndexState& index);
// The executions TensorFlow's reader reads (the first file set's): into index.executions, with
// their alerts, modes and references checked against the first host's graphs and frames. Chunks
// are decoded on the pool's threads.
void loadExecutions(FileState& file, IndexState& index, ThreadPool& pool);
// Another file set's executions, into `columns` only: no alerts, and no check of the graphs and
// frames they name (those are in that host's own files, which are not read).
void loadOtherHostExecutions(FileState& file, IndexState& index, ExecutionColumns& columns,
                             ThreadPool& pool);

struct TracePassResult
{
    std::uint64_t bytesRead = 0;
    bool stoppedAtBudget = false; // more complete records wait in the file
};

// What the trace and execution passes read at a time: a large page (largepages.hpp), which a
// read buffer of 1 MiB took whole anyway. With 1 MiB chunks an index of 10^7 traces took 10-12 %
// more CPU time, for the same instructions: the decoding thread's CRC pass, its first read of a
// chunk, took 2.3 times as long as with 4 MiB chunks. A chunk that small is likely still in the
// reading core's cache, modified, when the other core asks for it. 4 MiB chunks were no faster in
// wall time, for twice the buffers' memory; past 8 MiB the pipeline starts and ends on one core
// for longer, and it was slower again. A TensorFlow-shaped logdir's report took 0.185 s rather
// than 0.21 (median of six).
inline constexpr std::size_t kReadChunkBytes = 2u << 20;

// Decodes the new records of one trace file on the pool's threads; trace indices continue from
// index.traces.size(). Reads about `byteBudget` bytes at most.
TracePassResult loadTraces(FileState& file, std::uint32_t fileIndex, IndexState& index,
                           ThreadPool& pool, std::uint64_t byteBudget);

// Reads the new records of `file` one at a time with both CRCs checked, then records where and
// why reading stopped. A record that would take more than its share of memory once decoded
// (IndexState::maxDecodedBytes) is refused with a diagnostic, and reading goes on; reading stops
// before a record that could take the index past its memory limit.
template <typename OnRecord>
void forEachNewRecord(FileState& file, IndexState& index, OnRecord&& onRecord);

// The bytes a DebugEvent record takes once decoded; nullopt when that is more than its share.
std::optional<std::uint64_t> decodedEventBytes(std::string_view payload, std::uint64_t share);

// What a record weighs against the memory limit. The walk over its fields (decodedEventBytes) is
// skipped while the bound from its length alone is within its share and the limit: the exact
// count could only be smaller, so the outcome is the same.
struct RecordWeight
{
    std::uint64_t payloadBytes = 0;
    std::optional<std::uint64_t> decoded; // nullopt: more than its share (refused)
    bool exact = false;                   // `decoded` is the walk's count, not the bound
};
// The first half, which needs no index: the bound, or the walk when the bound is over `share`.
RecordWeight weighRecord(std::string_view payload, std::uint64_t share);
// The second half: whether the record (not over its share) could take the index past its limit,
// counted exactly (and `weight` refined) before saying yes.
bool passesMemoryLimit(const IndexState& index, std::string_view payload, RecordWeight& weight);

// The diagnostic's words for a record refused by decodedEventBytes.
std::string overShare(std::uint64_t share);

// After a pass that stopped at a corrupt record: remembers where TensorFlow's reader stops,
// searches for the next whole record, and when one is found notes the skipped bytes and moves
// the file's offset there (true: reading goes on).
bool skipCorruptRecord(FileState& file, const IndexState& index);

// "op:3" → ("op", 3); "op" → ("op", 0).
void splitTensorName(std::string_view name, std::string& opName, int& slot);

// A problem with one record, for IndexState::recordProblems.
Diagnostic recordProblem(Severity severity, const FileState& file, std::uint64_t offset,
                         std::string message);

} // namespace nanscope::core

#include "recordresync.hpp"
#include "recordstream.hpp"

namespace nanscope::core {

template <typename OnRecord>
void forEachNewRecord(FileState& file, IndexState& index, OnRecord&& onRecord)
{
    if (!file.ensureOpen(*index.files))
        return;
    // The size now bounds this pass: a file that grows while it is read is read up to here.
    const std::uint64_t size = std::min(file.handle.size(), file.readLimit);
    file.memoryLimited = false;
    file.size = size;
    do {
        RecordStream stream(file.handle, file.offset, size, index.maxRecordBytes);
        std::string_view payload;
        std::uint64_t offset = 0;
        while (stream.next(payload, offset)) {
            RecordWeight weight = weighRecord(payload, index.maxDecodedBytes);
            if (!weight.decoded) {
                index.recordProblems.add({Severity::Error, file.path.string(), offset,
                                          overShare(index.maxDecodedBytes)});
                file.noteRecordsRead(1);
                continue;
            }
            if (passesMemoryLimit(index, payload, weight)) {
                file.offset = offset;
                file.stop = format::RecordStatus::EndOfData;
                file.memoryLimited = true;
                return;
            }
            onRecord(payload, offset);
            file.noteRecordsRead(1);
        }
        file.offset = stream.stopOffset();
        file.stop = stream.stopStatus();
    } while (skipCorruptRecord(file, index));
}

} // namespace nanscope::core
