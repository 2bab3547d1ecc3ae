// SPDX-License-Identifier: Apache-2.0
// Events that wait for the summaries of their device tensors. A record call with device tensors
// launches one summary kernel for all of them and queues its events; the recorder's background
// thread writes them in the order they were recorded once the counts are back in host memory:
// woken by the first push after a quiet spell, it looks again every millisecond while anything
// waits. Record calls themselves only queue: the payloads are filled and the records framed on
// that thread, not in the training step. Everything queued is waited for at flush and close,
// and a watching recorder waits in the call for all but its newest events. While anything waits,
// events without device tensors queue behind it, so that each file keeps the order of the calls.
#pragma once

#include "eventwriter.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "nanscope/status.hpp"
#include "nonfinitewatch.hpp"
#include "wire/messages.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace nanscope::detail {

// A device tensor's shape, kept until its summary is made: inline up to six dimensions, so that
// queueing a tensor allocates nothing for it in the record call (nor frees it on the thread
// that writes the event).
class SummaryShape
{
public:
    SummaryShape() = default;
    explicit SummaryShape(std::span<const std::int64_t> dims);
    std::span<const std::int64_t> dims() const;

private:
    static constexpr std::size_t kInlineRank = 6;
    std::array<std::int64_t, kInlineRank> m_inline{};
    std::size_t m_rank = 0;
    std::vector<std::int64_t> m_spilled; // a shape of more dimensions
};

// Where the summary of one device tensor goes once its batch has the counts.
struct DeviceSummarySlot
{
    wire::TensorProto* payload = nullptr; // inside an event or trace the queue owns
    std::size_t index = 0;                // the tensor's index in the batch
    SummaryShape shape;
    double tensorId = -1.0;
    std::uint8_t* kinds = nullptr; // the tensor's non-finite kinds, for a WatchedEvent
};

// The device tensors of one record call: one batch, so one kernel launch.
struct DeviceSummaries
{
    std::unique_ptr<gpu::SummaryBatch> batch; // taken from PendingEvents::takeBatch()
    std::vector<DeviceSummarySlot> slots;
    TensorDebugMode mode = TensorDebugMode::FullHealth; // the recorder's

    bool empty() const { return slots.empty(); }
};

// A graph execution trace as its op output's frame and its payload (wire::frameTrace).
struct QueuedTrace
{
    double wallTime = 0.0;
    std::shared_ptr<const wire::TraceFrame> frame; // keeps its op's state alive
    wire::TensorProto payload;

    // The trace for the writer: the frame moves out, and the writer may take the payload's
    // content.
    TraceParts takeParts()
    {
        return {.wallTime = wallTime, .frame = std::move(frame), .payload = &payload};
    }
};

// An event to write: a message, or a trace (the file is then GraphExecutionTraces).
struct QueuedEvent
{
    FileKind kind = FileKind::GraphExecutionTraces;
    std::unique_ptr<wire::DebugEvent> event;
    std::unique_ptr<WatchedEvent> watched; // when the recorder watches for non-finite values
    std::unique_ptr<QueuedTrace> trace;    // instead of `event`
};

// Called with each watched event just before it is written, in the order of the writes.
using EventInspector = std::function<void(const WatchedEvent&)>;

class PendingEvents
{
public:
    explicit PendingEvents(EventWriter& writer);
    ~PendingEvents(); // stops polling and waits for everything queued

    PendingEvents(const PendingEvents&) = delete;
    PendingEvents& operator=(const PendingEvents&) = delete;

    // Nothing waits, or is being written: events may go straight to the writer.
    bool empty() const { return m_unwritten.load() == 0; }

    // A batch for the next record call: a reused one (its buffers already allocated) or a new one.
    std::unique_ptr<gpu::SummaryBatch> takeBatch();
    // Gives back a batch that was not submitted.
    void giveBack(std::unique_ptr<gpu::SummaryBatch> batch);

    // Queues `events`, whose payloads `summaries` (submitted) completes, for the background
    // thread. Blocks only when too many batches are in flight: then the oldest are waited for.
    // Returns the first error met since the last call that returned one, by earlier events.
    Status push(std::vector<QueuedEvent> events, DeviceSummaries summaries);
    // Queues an event without device tensors behind those that wait.
    void pushReady(FileKind kind, std::string framedRecord, // wire::framedEvent
                   std::unique_ptr<WatchedEvent> watched = nullptr);
    // The first error met since the last call that returned one (see drain).
    Status takeUnreportedError();

    // Set before the first push.
    void setInspector(EventInspector inspector) { m_inspector = std::move(inspector); }

    // Writes the events at the head of the queue whose summaries have arrived; with `wait`,
    // waits for all of them. Returns the first error met since the last call that returned one:
    // a write error, or a device error (then the events of the failed batch are dropped, and
    // counted), wherever it was met.
    Status drain(bool wait);
    // Writes what has arrived, then waits for all but the newest `keep` events.
    Status drainKeeping(std::size_t keep);

    // Stops the background thread and writes everything queued; later pushes are written as
    // they come (the recorder is closing).
    Status close();

    std::uint64_t dropped() const { return m_dropped.load(); }
    Status firstError() const;

private:
    struct Work; // a submitted batch and the slots it fills
    struct Entry
    {
        FileKind kind;
        std::string framed;                      // when `work` is null: a framed record
        std::unique_ptr<wire::DebugEvent> event; // when `work` is set: this or `trace`
        std::unique_ptr<QueuedTrace> trace;
        std::shared_ptr<Work> work;
        std::unique_ptr<WatchedEvent> watched;
    };

    // Writes the events at the head of the queue whose summaries have arrived (with `wait`:
    // waits for them) until `keep` are left. One thread at a time drains, so the writes keep the
    // queue's order; the queue's lock is held only to take events off it, so that record calls
    // pushing meanwhile never wait for the writes.
    void drainOrdered(bool wait, std::size_t keep);
    // Takes the next run of events off the queue: those of the batch at its head once its
    // summaries arrived (their payloads filled; `status` says whether the batch failed), or the
    // ready events there. False when nothing beyond `keep` can be taken yet.
    bool takeNext(bool wait, std::size_t keep, std::vector<Entry>& taken, Status& status);
    void write(Entry& entry, const Status& batchStatus);
    Status complete(Work& work, bool wait, bool& arrived);
    void noteError(const Status& status); // locks m_mutex
    void startPolling();
    void wakePoller();
    void stopPolling();
    void pollLoop();

    EventWriter& m_writer;
    EventInspector m_inspector;
    mutable std::mutex m_mutex; // the queue, the pool, the counts and the errors
    std::deque<Entry> m_entries;
    std::size_t m_batchesInFlight = 0;
    std::vector<std::unique_ptr<gpu::SummaryBatch>> m_pool;
    bool m_closed = false; // pushes after close() are written in the call
    // Events queued and not yet written (taken off the queue or not).
    std::atomic<std::size_t> m_unwritten{0};
    std::atomic<std::uint64_t> m_dropped{0};
    Status m_firstError;
    Status m_unreportedError;

    std::mutex m_drainMutex; // held by the one thread that drains

    std::mutex m_pollMutex;
    std::condition_variable m_pollWake;
    bool m_stopPolling = false;
    bool m_wake = false;                   // a push woke the idle poller
    std::atomic<bool> m_pollerIdle{false}; // waiting for a push, not looking for arrivals
    std::atomic<bool> m_pollerStarted{false};
    std::thread m_poller;
};

} // namespace nanscope::detail
