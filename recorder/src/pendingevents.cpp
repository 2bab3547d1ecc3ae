// SPDX-License-Identifier: Apache-2.0
#include "pendingevents.hpp"

#include "nonfinitewatch.hpp"
#include "tensorproto.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <span>
#include <utility>

namespace nanscope::detail {

namespace {

// Batches in flight before a record call waits for the oldest: each holds pinned and device
// buffers, and a GPU this far behind the program gains nothing from more.
constexpr std::size_t kMaxBatchesInFlight = 256;

// Batches kept for reuse.
constexpr std::size_t kMaxPooledBatches = 32;

// How often the background thread looks for arrived summaries while events wait. A training
// step's arrive within a fraction of a millisecond of their launch; looking every millisecond
// writes about ten steps at a time, far from the batches-in-flight limit.
constexpr std::chrono::milliseconds kArrivalPoll{1};

// How long the background thread goes on looking after the last events it wrote, before it
// sleeps until a push wakes it. Waking it is a system call in the record call (about as long as
// the rest of a step's record calls together); a program that records step after step never
// pays it.
constexpr std::chrono::milliseconds kIdleAfter{100};

} // namespace

SummaryShape::SummaryShape(std::span<const std::int64_t> dims) : m_rank(dims.size())
{
    if (dims.size() <= kInlineRank)
        std::copy(dims.begin(), dims.end(), m_inline.begin());
    else
        m_spilled.assign(dims.begin(), dims.end());
}

std::span<const std::int64_t> SummaryShape::dims() const
{
    if (m_rank <= kInlineRank)
        return {m_inline.data(), m_rank};
    return m_spilled;
}

struct PendingEvents::Work
{
    DeviceSummaries summaries;
    std::size_t remaining = 0; // queued events not yet written
    bool completed = false;
    Status status; // the device's error, if it failed
};

PendingEvents::PendingEvents(EventWriter& writer) : m_writer(writer) {}

PendingEvents::~PendingEvents()
{
    (void)close();
}

void PendingEvents::startPolling()
{
    if (m_pollerStarted.load())
        return;
    std::lock_guard lock(m_pollMutex);
    if (!m_poller.joinable() && !m_stopPolling) {
        m_poller = std::thread([this] { pollLoop(); });
        m_pollerStarted.store(true);
    }
}

// Called after m_unwritten grew. The poller sets m_pollerIdle before it last reads m_unwritten,
// and a push grows m_unwritten before it reads m_pollerIdle (both sequentially consistent): so
// either the poller sees the new event, or the push sees the poller idle and wakes it.
void PendingEvents::wakePoller()
{
    if (!m_pollerIdle.load())
        return;
    {
        std::lock_guard lock(m_pollMutex);
        m_wake = true;
    }
    m_pollWake.notify_one();
}

void PendingEvents::stopPolling()
{
    {
        std::lock_guard lock(m_pollMutex);
        m_stopPolling = true;
    }
    m_pollWake.notify_all();
    if (m_poller.joinable())
        m_poller.join();
}

void PendingEvents::pollLoop()
{
    using Clock = std::chrono::steady_clock;
    std::unique_lock lock(m_pollMutex);
    auto lastBusy = Clock::now();
    while (!m_stopPolling) {
        if (m_unwritten.load() > 0 || Clock::now() - lastBusy < kIdleAfter) {
            m_pollWake.wait_for(lock, kArrivalPoll, [this] { return m_stopPolling; });
        } else {
            m_pollerIdle.store(true);
            if (m_unwritten.load() == 0)
                m_pollWake.wait(lock, [this] { return m_stopPolling || m_wake; });
            m_pollerIdle.store(false);
            m_wake = false;
        }
        if (m_stopPolling)
            break;
        if (m_unwritten.load() == 0)
            continue;
        lastBusy = Clock::now();
        lock.unlock();
        drainOrdered(false, 0); // errors are kept for the next call that reports them
        lock.lock();
    }
}

Status PendingEvents::close()
{
    stopPolling();
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    return drain(true);
}

std::unique_ptr<gpu::SummaryBatch> PendingEvents::takeBatch()
{
    std::lock_guard lock(m_mutex);
    if (m_pool.empty())
        return std::make_unique<gpu::SummaryBatch>(MemorySpace::Device);
    auto batch = std::move(m_pool.back());
    m_pool.pop_back();
    return batch;
}

void PendingEvents::giveBack(std::unique_ptr<gpu::SummaryBatch> batch)
{
    if (!batch)
        return;
    batch->clear();
    std::lock_guard lock(m_mutex);
    if (m_pool.size() < kMaxPooledBatches)
        m_pool.push_back(std::move(batch));
}

Status PendingEvents::push(std::vector<QueuedEvent> events, DeviceSummaries summaries)
{
    auto work = std::make_shared<Work>();
    work->summaries = std::move(summaries);
    work->remaining = events.size();
    Status earlier;
    bool closed = false;
    std::optional<std::size_t> keep; // too many batches in flight: wait until this many are left
    {
        std::lock_guard lock(m_mutex);
        earlier = std::exchange(m_unreportedError, Status{});
        for (QueuedEvent& e : events)
            m_entries.push_back(
                {e.kind, {}, std::move(e.event), std::move(e.trace), work, std::move(e.watched)});
        m_unwritten.fetch_add(events.size());
        closed = m_closed;
        if (++m_batchesInFlight > kMaxBatchesInFlight)
            keep = m_entries.size() / 2;
    }
    if (closed) {
        drainOrdered(true, 0);
        Status later = takeUnreportedError();
        return earlier.ok() ? later : earlier;
    }
    startPolling();
    wakePoller();
    if (keep)
        drainOrdered(true, *keep);
    return earlier;
}

void PendingEvents::pushReady(FileKind kind, std::string framedRecord,
                              std::unique_ptr<WatchedEvent> watched)
{
    bool closed = false;
    {
        std::lock_guard lock(m_mutex);
        m_entries.push_back(
            {kind, std::move(framedRecord), nullptr, nullptr, nullptr, std::move(watched)});
        m_unwritten.fetch_add(1);
        closed = m_closed;
    }
    if (closed)
        drainOrdered(true, 0);
    else
        wakePoller();
}

Status PendingEvents::takeUnreportedError()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_unreportedError, Status{});
}

Status PendingEvents::drain(bool wait)
{
    drainOrdered(wait, 0);
    return takeUnreportedError();
}

Status PendingEvents::drainKeeping(std::size_t keep)
{
    drainOrdered(false, 0);
    drainOrdered(true, keep);
    return takeUnreportedError();
}

Status PendingEvents::firstError() const
{
    std::lock_guard lock(m_mutex);
    return m_firstError;
}

void PendingEvents::noteError(const Status& status)
{
    if (status.ok())
        return;
    std::lock_guard lock(m_mutex);
    if (m_firstError.ok())
        m_firstError = status;
    if (m_unreportedError.ok())
        m_unreportedError = status;
}

// Fills every payload of the batch once its counts are in host memory. Only the draining thread
// touches a batch once it is queued.
Status PendingEvents::complete(Work& work, bool wait, bool& arrived)
{
    arrived = true;
    if (work.completed)
        return work.status;
    gpu::SummaryBatch& batch = *work.summaries.batch;
    if (wait) {
        work.status = batch.wait();
    } else {
        auto ready = batch.ready();
        if (!ready)
            work.status = ready.status();
        else if (!*ready)
            arrived = false;
    }
    if (!arrived)
        return {};
    work.completed = true;
    if (!work.status.ok())
        return work.status;
    const auto length = static_cast<std::size_t>(summaryLength(work.summaries.mode));
    std::array<double, 11> values{};
    for (const DeviceSummarySlot& slot : work.summaries.slots) {
        batch.summary(slot.index, slot.shape.dims(), slot.tensorId, values);
        setSummaryPayload(*slot.payload, std::span<const double>(values.data(), length));
        if (slot.kinds)
            *slot.kinds =
                summaryKinds(work.summaries.mode, std::span<const double>(values.data(), length));
    }
    return {};
}

bool PendingEvents::takeNext(bool wait, std::size_t keep, std::vector<Entry>& taken, Status& status)
{
    std::shared_ptr<Work> work;
    {
        std::lock_guard lock(m_mutex);
        if (m_entries.size() <= keep)
            return false;
        work = m_entries.front().work;
        if (!work) {
            while (m_entries.size() > keep && !m_entries.front().work) {
                taken.push_back(std::move(m_entries.front()));
                m_entries.pop_front();
            }
            return true;
        }
    }
    // Outside the lock: a wait for the device must not hold up record calls.
    bool arrived = false;
    status = complete(*work, wait || keep > 0, arrived);
    if (!arrived)
        return false;
    std::lock_guard lock(m_mutex);
    while (m_entries.size() > keep && m_entries.front().work == work) {
        taken.push_back(std::move(m_entries.front()));
        m_entries.pop_front();
    }
    return true;
}

void PendingEvents::write(Entry& entry, const Status& batchStatus)
{
    if (entry.work && !batchStatus.ok()) {
        noteError(batchStatus);
        m_dropped.fetch_add(1);
    } else {
        if (entry.watched && m_inspector)
            m_inspector(*entry.watched);
        noteError(!entry.work   ? m_writer.writeFramed(entry.kind, std::move(entry.framed))
                  : entry.trace ? m_writer.writeTrace(entry.trace->takeParts())
                                : m_writer.writeEvent(entry.kind, *entry.event));
    }
    if (entry.work && --entry.work->remaining == 0) {
        auto batch = std::move(entry.work->summaries.batch);
        batch->clear();
        std::lock_guard lock(m_mutex);
        --m_batchesInFlight;
        if (m_pool.size() < kMaxPooledBatches)
            m_pool.push_back(std::move(batch));
    }
}

void PendingEvents::drainOrdered(bool wait, std::size_t keep)
{
    std::lock_guard drainer(m_drainMutex);
    std::vector<Entry> taken;
    Status status;
    while (takeNext(wait, keep, taken, status)) {
        for (Entry& entry : taken) {
            write(entry, status);
            m_unwritten.fetch_sub(1); // after the write: until then, later events queue behind
        }
        taken.clear();
        status = {};
    }
}

} // namespace nanscope::detail
