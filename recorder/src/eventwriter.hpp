// SPDX-License-Identifier: Apache-2.0
// The six files of one file set, the circular buffers of the two execution-type files, and the
// order in which they reach the disk.
#pragma once

#include "eventfile.hpp"
#include "nanscope/status.hpp"
#include "recordring.hpp"
#include "wire/forward.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace nanscope::detail {

enum class FileKind { Metadata, SourceFiles, StackFrames, Graphs, Execution, GraphExecutionTraces };

struct EventWriterOptions
{
    std::filesystem::path dumpRoot;
    std::string hostName;
    std::string runId;
    std::string version; // the metadata's tensorflow_version field
    int circularBufferSize = 1000;
    std::chrono::milliseconds flushInterval{100};
    bool flushOnCrash = false; // see RecorderOptions::flushOnCrash
};

class EventWriter
{
public:
    EventWriter() = default;
    ~EventWriter();
    EventWriter(const EventWriter&) = delete;
    EventWriter& operator=(const EventWriter&) = delete;

    // Creates the dump root and the six files, writes and syncs the metadata record, and starts
    // the background flusher.
    Status open(const EventWriterOptions& options);

    // Appends a serialized DebugEvent to the file of `kind`. Execution-type events go through
    // the circular buffer when it is enabled.
    Status write(FileKind kind, std::string_view serializedEvent);
    // The same with the record already framed (wire::framedEvent), taken without a copy.
    Status writeFramed(FileKind kind, std::string record);
    // The same from the event: into a circular buffer, serialised into the storage of the record
    // it pushes out, so that a full buffer allocates nothing.
    Status writeEvent(FileKind kind, const wire::DebugEvent& event);
    // A graph execution trace framed from its op output's frame and its payload (wire::frameTrace):
    // a circular buffer keeps it unframed, taking its payload (RecordRing, TraceParts).
    Status writeTrace(TraceParts trace);

    // Writes everything held in memory, circular buffers included, and syncs every file.
    Status flush();
    Status close();

    const std::filesystem::path& prefix() const { return m_prefix; }
    std::uint64_t bytesWritten() const;
    std::uint64_t recordsDropped() const;

    // The first error met by any write, synchronous or in the background (Ok if none).
    Status firstError() const;
    // The first error since the last call that no caller has been told about yet.
    Status takeUnreportedError();

    static const char* suffix(FileKind kind);

    // Called by the fatal-signal handler: writes what is held in memory, as far as that can be
    // done without blocking or allocating (see EventFile's signal functions).
    void flushFromSignal();

private:
    struct CircularBuffer
    {
        std::mutex mutex;
        RecordRing records;
    };

    EventFile& file(FileKind kind) { return m_files[static_cast<std::size_t>(kind)]; }
    // Writes the record that `frame(std::string&)` serialises: into a circular buffer's recycled
    // record under its lock (so records keep the order of the calls), or as a new one.
    template <typename Frame>
    Status writeWith(FileKind kind, Frame&& frame);
    bool isBuffered(FileKind kind) const;
    // Writes out (or syncs) the data files up to `last` in the order in which their records refer
    // to each other — source files, stack frames, graphs, then the two execution-type files —
    // each up to a mark taken, from the last file to the first, before anything is written. So a
    // record that reaches the disk finds every record it refers to there already (a reader, or a
    // crash, in between sees a consistent logdir), even while other threads keep recording.
    Status writeOutInOrder(FileKind last, bool sync);
    Status drainCircularBuffers();
    Status checkRemoved();
    Status flushNow();
    // When records were dropped since the last call, appends a DebugEvent with the totals
    // (RecorderLosses) to the metadata file and syncs it: so a logdir says that it lost records.
    // TensorFlow's reader reads only the metadata file's first record and never sees it.
    void noteLossesInMetadata();
    // `reported`: the caller is handed this status directly, so it need not be told again.
    void noteError(const Status& status, bool reported = false);
    void flusherLoop();

    EventWriterOptions m_options;
    std::filesystem::path m_prefix;
    std::array<EventFile, 6> m_files;
    std::array<CircularBuffer, 2> m_buffers; // Execution, GraphExecutionTraces
    // Where the fatal-signal flush frames the unframed traces, which it must do without
    // allocating: kept large enough for any of them. Guarded by the traces' buffer mutex.
    std::string m_signalScratch;
    std::atomic<bool> m_open{false};
    std::atomic<bool> m_closing{false};

    mutable std::mutex m_errorMutex;
    Status m_firstError;
    Status m_unreportedError;
    // Whether m_unreportedError holds one: every record call asks, nearly always in vain, and
    // asks this without the lock.
    std::atomic<bool> m_hasUnreportedError{false};

    std::mutex m_lossesMutex;
    std::uint64_t m_lossesNoted = 0; // records dropped as of the last note

    std::mutex m_flusherMutex;
    std::condition_variable m_flusherWake;
    bool m_stopFlusher = false;
    std::thread m_flusher;
};

} // namespace nanscope::detail
