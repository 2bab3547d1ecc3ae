#include "eventwriter.hpp"

#include "ids.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <cstdio>
#include <system_error>
#include <utility>

namespace nanscope::detail {
namespace {

// Large enough to amortise system calls, small enough that a crash loses little.
constexpr std::size_t kWriteThreshold = 256 * 1024;

std::string framed(std::string_view payload)
{
    std::string out;
    out.reserve(payload.size() + format::kRecordOverhead);
    format::appendRecord(out, payload);
    return out;
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

    tfdbg::DebugEvent metadata;
    metadata.set_wall_time(wallTimeSeconds());
    m_prefix = options.dumpRoot / filePrefixName(options.hostName, metadata.wall_time());

    // TensorFlow's order: the three non-execution files, the metadata, then the other two.
    for (FileKind kind :
         {FileKind::SourceFiles, FileKind::StackFrames, FileKind::Graphs, FileKind::Metadata,
          FileKind::Execution, FileKind::GraphExecutionTraces}) {
        auto path = m_prefix;
        path += std::string(".") + suffix(kind);
        if (Status s = file(kind).open(path); !s.ok())
            return s;
        if (kind == FileKind::Metadata) {
            auto* m = metadata.mutable_debug_metadata();
            m->set_tensorflow_version(options.version);
            m->set_file_version("debug.Event:1");
            m->set_tfdbg_run_id(options.runId);
            file(kind).append(framed(metadata.SerializeAsString()));
            if (Status s = file(kind).sync(); !s.ok())
                return s;
        }
    }
    m_open = true;
    m_flusher = std::thread([this] { flusherLoop(); });
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
    std::string record = framed(serializedEvent);
    if (isBuffered(kind)) {
        auto& buffer = m_buffers[kind == FileKind::Execution ? 0 : 1];
        std::lock_guard lock(buffer.mutex);
        buffer.records.push_back(std::move(record));
        if (buffer.records.size() > static_cast<std::size_t>(m_options.circularBufferSize))
            buffer.records.pop_front();
        return {};
    }
    if (file(kind).append(record) < kWriteThreshold)
        return {};
    Status status;
    if (kind == FileKind::Execution || kind == FileKind::GraphExecutionTraces)
        status = writeOutNonExecution();
    if (Status s = file(kind).writeOut(); status.ok())
        status = s;
    noteError(status, true);
    return status;
}

Status EventWriter::writeOutNonExecution()
{
    Status status;
    for (FileKind kind : {FileKind::SourceFiles, FileKind::StackFrames, FileKind::Graphs}) {
        if (Status s = file(kind).writeOut(); status.ok())
            status = s;
    }
    return status;
}

Status EventWriter::writeOutAll()
{
    Status status = writeOutNonExecution();
    for (FileKind kind : {FileKind::Execution, FileKind::GraphExecutionTraces}) {
        if (Status s = file(kind).writeOut(); status.ok())
            status = s;
    }
    return status;
}

Status EventWriter::drainCircularBuffers()
{
    for (std::size_t i = 0; i < m_buffers.size(); ++i) {
        std::deque<std::string> records;
        {
            std::lock_guard lock(m_buffers[i].mutex);
            records.swap(m_buffers[i].records);
        }
        auto& target = file(i == 0 ? FileKind::Execution : FileKind::GraphExecutionTraces);
        for (const auto& r : records)
            target.append(r);
    }
    return {};
}

Status EventWriter::flush()
{
    if (!m_open)
        return {ErrorCode::Closed, "the recorder is closed"};
    return flushNow();
}

Status EventWriter::flushNow()
{
    Status status = drainCircularBuffers();
    for (FileKind kind : {FileKind::SourceFiles, FileKind::StackFrames, FileKind::Graphs,
                          FileKind::Execution, FileKind::GraphExecutionTraces}) {
        if (Status s = file(kind).sync(); status.ok())
            status = s;
    }
    noteError(status, true);
    return status;
}

Status EventWriter::close()
{
    if (m_closing.exchange(true))
        return {};
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
        noteError(m_options.circularBufferSize > 0 ? writeOutNonExecution() : writeOutAll());
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
    if (!reported && m_unreportedError.ok())
        m_unreportedError = status;
}

Status EventWriter::firstError() const
{
    std::lock_guard lock(m_errorMutex);
    return m_firstError;
}

Status EventWriter::takeUnreportedError()
{
    std::lock_guard lock(m_errorMutex);
    return std::exchange(m_unreportedError, Status{});
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
