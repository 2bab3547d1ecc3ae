// SPDX-License-Identifier: Apache-2.0
#include "eventwriter.hpp"

#include "crashflush.hpp"
#include "ids.hpp"
#include "nanscope/format/record.hpp"
#include "utf8text.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <system_error>
#include <utility>
#include <vector>

namespace nanscope::detail {
namespace {

// Large enough to amortise system calls, small enough that a crash loses little.
constexpr std::size_t kWriteThreshold = std::size_t{256} << 10;
// A trace whose payload content is larger is framed at once rather than kept unframed: a
// FULL_TENSOR value, which the payload may only borrow for the record call.
constexpr std::size_t kUnframedPayloadBytes = 4096;

// Whether a circular buffer may keep a trace with this payload unframed: not when the payload
// only borrows the caller's values, which are gone after the call, nor when it is large.
bool mayWaitUnframed(const wire::TensorProto& payload)
{
    return !payload.borrows_tensor_content() &&
           payload.tensor_content().size() <= kUnframedPayloadBytes;
}

std::string framed(std::string_view payload)
{
    std::string out;
    out.reserve(payload.size() + format::kRecordOverhead);
    format::appendRecord(out, payload);
    return out;
}

// The data files in the order their records refer to each other: a stack frame names a source
// file, an op its creation frames, a trace its op, an execution its frames, graph and device.
constexpr FileKind kDataFiles[] = {FileKind::SourceFiles, FileKind::StackFrames, FileKind::Graphs,
                                   FileKind::Execution, FileKind::GraphExecutionTraces};

// How many of kDataFiles, from the first, hold records that later files refer to.
constexpr std::size_t kReferredFiles = 3;

std::size_t rank(FileKind kind)
{
    return kind == FileKind::GraphExecutionTraces ? 3 : static_cast<std::size_t>(kind) - 1;
}

std::string filePrefixName(const std::string& hostName, double wallTime)
{
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%010lld", static_cast<long long>(wallTime));
    return std::string("tfdbg_events.") + seconds + "." + hostName;
}

} // namespace

EventWriter::~EventWriter()
{
    (void)close();
}

const char* EventWriter::suffix(FileKind kind)
{
    switch (kind) {
    case FileKind::Metadata:
        return "metadata";
    case FileKind::SourceFiles:
        return "source_files";
    case FileKind::StackFrames:
        return "stack_frames";
    case FileKind::Graphs:
        return "graphs";
    case FileKind::Execution:
        return "execution";
    case FileKind::GraphExecutionTraces:
        return "graph_execution_traces";
    }
    return "";
}

Status EventWriter::open(const EventWriterOptions& options)
{
    m_options = options;
    namespace fs = std::filesystem;
    std::error_code ec;
    if (options.dumpRoot.empty())
        return {ErrorCode::InvalidArgument, "the dump root is empty"};
    if (fs::exists(options.dumpRoot, ec) && !fs::is_directory(options.dumpRoot, ec))
        return {ErrorCode::IoError,
                "the dump root " + options.dumpRoot.string() + " exists and is not a directory"};
    fs::create_directories(options.dumpRoot, ec);
    if (ec)
        return {ErrorCode::IoError,
                "cannot create the dump root " + options.dumpRoot.string() + ": " + ec.message()};

    wire::DebugEvent metadata;
    metadata.set_wall_time(wallTimeSeconds());
    m_prefix = options.dumpRoot / filePrefixName(options.hostName, metadata.wall_time());

    // TensorFlow's order: the three non-execution files, the metadata, then the other two. An
    // open that fails (a full disk, a file-size limit) leaves no file of the set behind.
    std::vector<fs::path> created;
    const auto undo = [&](Status failure) {
        for (auto& f : m_files)
            (void)f.close();
        for (const auto& path : created)
            fs::remove(path, ec);
        return failure;
    };
    for (FileKind kind :
         {FileKind::SourceFiles, FileKind::StackFrames, FileKind::Graphs, FileKind::Metadata,
          FileKind::Execution, FileKind::GraphExecutionTraces}) {
        auto path = m_prefix;
        path += std::string(".") + suffix(kind);
        if (Status s = file(kind).open(path); !s.ok())
            return undo(s);
        created.push_back(path);
        if (kind == FileKind::Metadata) {
            auto* m = metadata.mutable_debug_metadata();
            m->set_tensorflow_version(options.version);
            m->set_file_version("debug.Event:1");
            m->set_tfdbg_run_id(options.runId);
            file(kind).append(framed(metadata.SerializeAsString()));
            if (Status s = file(kind).sync(); !s.ok())
                return undo(s);
        }
    }
    for (auto& buffer : m_buffers)
        buffer.records =
            RecordRing(static_cast<std::size_t>(std::max(options.circularBufferSize, 0)));
    m_open = true;
    m_flusher = std::thread([this] { flusherLoop(); });
    if (options.flushOnCrash)
        registerCrashFlush(this);
    return {};
}

bool EventWriter::isBuffered(FileKind kind) const
{
    return m_options.circularBufferSize > 0 &&
           (kind == FileKind::Execution || kind == FileKind::GraphExecutionTraces);
}

Status EventWriter::write(FileKind kind, std::string_view serializedEvent)
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    return writeFramed(kind, framed(serializedEvent));
}

Status EventWriter::writeFramed(FileKind kind, std::string record)
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    if (isBuffered(kind)) {
        auto& buffer = m_buffers[kind == FileKind::Execution ? 0 : 1];
        std::lock_guard lock(buffer.mutex);
        buffer.records.pushFramed([&](std::string& slot) { slot = std::move(record); });
        return {};
    }
    if (file(kind).append(std::move(record)) < kWriteThreshold)
        return {};
    Status status = writeOutInOrder(kind, false);
    noteError(status, true);
    return status;
}

template <typename Frame>
Status EventWriter::writeWith(FileKind kind, Frame&& frame)
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    std::string record;
    if (!isBuffered(kind)) {
        frame(record);
        return writeFramed(kind, std::move(record));
    }
    auto& buffer = m_buffers[kind == FileKind::Execution ? 0 : 1];
    std::lock_guard lock(buffer.mutex);
    buffer.records.pushFramed(frame);
    return {};
}

Status EventWriter::writeEvent(FileKind kind, const wire::DebugEvent& event)
{
    return writeWith(kind, [&](std::string& record) { wire::frameEvent(event, record); });
}

Status EventWriter::writeTrace(TraceParts trace)
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    const wire::TensorProto& payload = trace.payloadToWrite();
    if (!isBuffered(FileKind::GraphExecutionTraces) || !mayWaitUnframed(payload))
        return writeWith(FileKind::GraphExecutionTraces, [&](std::string& record) {
            wire::frameTrace(trace.wallTime, *trace.frame, payload, record);
        });
    auto& buffer = m_buffers[1];
    std::lock_guard lock(buffer.mutex);
    if (m_options.flushOnCrash) // only then is there a signal flush to make room for
        if (const std::size_t bytes = wire::framedTraceSize(trace.wallTime, *trace.frame, payload);
            bytes > m_signalScratch.capacity())
            m_signalScratch.reserve(bytes);
    buffer.records.pushTrace(std::move(trace));
    return {};
}

Status EventWriter::writeOutInOrder(FileKind last, bool sync)
{
    const std::size_t count = rank(last) == 3 ? 5 : rank(last) + 1;
    std::uint64_t marks[5] = {};
    for (std::size_t i = count; i-- > 0;)
        marks[i] = file(kDataFiles[i]).mark();
    Status status;
    for (std::size_t i = 0; i < count; ++i) {
        EventFile& f = file(kDataFiles[i]);
        if (Status s = sync ? f.sync(marks[i]) : f.writeOut(marks[i]); status.ok())
            status = s;
        // Source files, stack frames and graphs are referred to by the files after them: once one
        // lost records, those files stop too, so that no record on disk names a lost one.
        if (f.frozen() && i < kReferredFiles)
            for (std::size_t j = i + 1; j < std::size(kDataFiles); ++j)
                file(kDataFiles[j]).freeze();
    }
    return status;
}

Status EventWriter::checkRemoved()
{
    Status status;
    for (auto& f : m_files)
        if (Status s = f.checkRemoved(); status.ok())
            status = s;
    return status;
}

Status EventWriter::drainCircularBuffers()
{
    // Both buffers drain whatever happens to one file: the first error is reported.
    Status status;
    for (std::size_t i = 0; i < m_buffers.size(); ++i) {
        RecordRing records;
        {
            std::lock_guard lock(m_buffers[i].mutex);
            records = m_buffers[i].records.takeAll();
        }
        const FileKind kind = i == 0 ? FileKind::Execution : FileKind::GraphExecutionTraces;
        // Each record moves into the file and is written out once enough is pending, so that a
        // large one (FULL_TENSOR) is neither copied nor held twice.
        for (std::size_t r = 0; r < records.size(); ++r) {
            const std::size_t pending = file(kind).append(records[r].take());
            if (pending >= kWriteThreshold)
                if (Status s = writeOutInOrder(kind, false); status.ok())
                    status = s;
        }
    }
    return status;
}

Status EventWriter::flush()
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    return flushNow();
}

Status EventWriter::flushNow()
{
    Status status = checkRemoved();
    if (Status s = drainCircularBuffers(); status.ok())
        status = s;
    if (Status s = writeOutInOrder(FileKind::GraphExecutionTraces, true); status.ok())
        status = s;
    noteError(status, true);
    noteLossesInMetadata();
    return status;
}

void EventWriter::noteLossesInMetadata()
{
    std::lock_guard lock(m_lossesMutex);
    // The data files' losses only: a note the metadata file could not take is no new loss.
    std::uint64_t dropped = 0;
    for (FileKind kind : kDataFiles)
        dropped += file(kind).recordsDropped();
    if (dropped == m_lossesNoted)
        return;
    m_lossesNoted = dropped;
    wire::DebugEvent event;
    event.set_wall_time(wallTimeSeconds());
    auto* m = event.mutable_debug_metadata();
    m->set_tensorflow_version(m_options.version);
    m->set_file_version("debug.Event:1");
    m->set_tfdbg_run_id(m_options.runId);
    auto* losses = event.mutable_nanscope_recorder_losses();
    losses->set_records_dropped(dropped);
    for (FileKind kind : kDataFiles)
        if (file(kind).frozen())
            losses->add_stopped_files(suffix(kind));
    losses->set_first_error(validUtf8(firstError().message())); // it may hold a path
    EventFile& metadata = file(FileKind::Metadata);
    metadata.append(framed(event.SerializeAsString()));
    (void)metadata.sync(); // a metadata file that cannot take it either has nothing more to say
}

Status EventWriter::close()
{
    if (m_closing.exchange(true))
        return {};
    unregisterCrashFlush(this);
    {
        std::lock_guard lock(m_flusherMutex);
        m_stopFlusher = true;
    }
    m_flusherWake.notify_all();
    if (m_flusher.joinable())
        m_flusher.join();
    Status status = m_open ? flushNow() : Status{};
    m_open = false;
    for (auto& f : m_files) {
        if (Status s = f.close(); status.ok())
            status = s;
    }
    noteError(status, true);
    return status;
}

void EventWriter::flusherLoop()
{
    std::unique_lock lock(m_flusherMutex);
    while (!m_stopFlusher) {
        m_flusherWake.wait_for(lock, m_options.flushInterval);
        if (m_stopFlusher)
            break;
        lock.unlock();
        // Buffered execution-type events stay in memory until flush(), as TensorFlow keeps them;
        // everything else reaches the disk within one interval.
        noteError(checkRemoved());
        noteError(writeOutInOrder(m_options.circularBufferSize > 0 ? FileKind::Graphs
                                                                   : FileKind::GraphExecutionTraces,
                                  false));
        noteLossesInMetadata();
        lock.lock();
    }
}

void EventWriter::noteError(const Status& status, bool reported)
{
    if (status.ok())
        return;
    std::lock_guard lock(m_errorMutex);
    if (m_firstError.ok())
        m_firstError = status;
    if (!reported && m_unreportedError.ok()) {
        m_unreportedError = status;
        m_hasUnreportedError.store(true, std::memory_order_release);
    }
}

Status EventWriter::firstError() const
{
    std::lock_guard lock(m_errorMutex);
    return m_firstError;
}

Status EventWriter::takeUnreportedError()
{
    // An error noted while this reads false is reported by a later call.
    if (!m_hasUnreportedError.load(std::memory_order_acquire))
        return {};
    std::lock_guard lock(m_errorMutex);
    m_hasUnreportedError.store(false, std::memory_order_relaxed);
    return std::exchange(m_unreportedError, Status{});
}

void EventWriter::flushFromSignal()
{
    // Every file is locked first, so that the state written is one moment's: no thread can add a
    // trace whose op would then be missing. A file some thread holds is skipped, and so is every
    // file after it, whose records may refer to what it holds.
    std::size_t locked = 0;
    while (locked < 5 && file(kDataFiles[locked]).tryLockForSignal())
        ++locked;
    bool buffersLocked[2] = {false, false};
    for (std::size_t i = 0; i < 2 && locked == 5; ++i)
        buffersLocked[i] = m_buffers[i].mutex.try_lock();
    for (std::size_t i = 0; i < locked; ++i) {
        EventFile& f = file(kDataFiles[i]);
        f.writeOutLockedFromSignal();
        const std::size_t buffer = kDataFiles[i] == FileKind::Execution ? 0 : 1;
        if (i >= 3 && buffersLocked[buffer]) {
            const RecordRing& records = m_buffers[buffer].records;
            for (std::size_t r = 0; r < records.size(); ++r)
                f.writeRecordLockedFromSignal(records[r].bytes(m_signalScratch));
        }
    }
    for (std::size_t i = 0; i < 2; ++i)
        if (buffersLocked[i])
            m_buffers[i].mutex.unlock();
    while (locked-- > 0)
        file(kDataFiles[locked]).unlockForSignal();
}

std::uint64_t EventWriter::bytesWritten() const
{
    std::uint64_t total = 0;
    for (const auto& f : m_files)
        total += f.bytesWritten();
    return total;
}

std::uint64_t EventWriter::recordsDropped() const
{
    std::uint64_t total = 0;
    for (const auto& f : m_files)
        total += f.recordsDropped();
    return total;
}

} // namespace nanscope::detail
