// SPDX-License-Identifier: Apache-2.0
#include "pendingevents.hpp"

#include "nonfinitewatch.hpp"
#include "tensorproto.hpp"
#include "wire/messages.hpp"

#include <array>
#include <span>
#include <utility>

namespace nanscope::detail {

namespace {

// Batches in flight before a record call waits for the oldest: each holds pinned and device
// buffers, and a GPU this far behind the program gains nothing from more.
constexpr std::size_t kMaxBatchesInFlight = 256;

// Batches kept for reuse.
constexpr std::size_t kMaxPooledBatches = 32;

} // namespace

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

void PendingEvents::setPollInterval(std::chrono::milliseconds interval)
{
    std::lock_guard lock(m_pollMutex);
    m_pollInterval = interval;
}

void PendingEvents::startPolling()
{
    std::lock_guard lock(m_pollMutex);
    if (!m_poller.joinable() && !m_stopPolling)
        m_poller = std::thread([this] { pollLoop(); });
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
    std::unique_lock lock(m_pollMutex);
    while (!m_stopPolling) {
        m_pollWake.wait_for(lock, m_pollInterval);
        if (m_stopPolling || empty())
            continue;
        lock.unlock();
        {
            std::lock_guard queue(m_mutex);
            drainLocked(false, 0); // errors are kept for the next call that reports them
        }
        lock.lock();
    }
}

Status PendingEvents::close()
{
    stopPolling();
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
    std::lock_guard lock(m_mutex);
    for (QueuedEvent& e : events)
        m_entries.push_back(
            {e.kind, {}, std::move(e.event), std::move(e.trace), work, std::move(e.watched)});
    m_queued.store(m_entries.size(), std::memory_order_release);
    startPolling();
    if (++m_batchesInFlight > kMaxBatchesInFlight)
        drainLocked(true, m_entries.size() / 2);
    return std::exchange(m_unreportedError, Status{});
}

void PendingEvents::pushReady(FileKind kind, std::string framedRecord,
                              std::unique_ptr<WatchedEvent> watched)
{
    std::lock_guard lock(m_mutex);
    m_entries.push_back(
        {kind, std::move(framedRecord), nullptr, nullptr, nullptr, std::move(watched)});
    m_queued.store(m_entries.size(), std::memory_order_release);
}

Status PendingEvents::drain(bool wait)
{
    std::lock_guard lock(m_mutex);
    drainLocked(wait, 0);
    return std::exchange(m_unreportedError, Status{});
}

Status PendingEvents::drainKeeping(std::size_t keep)
{
    std::lock_guard lock(m_mutex);
    drainLocked(false, 0);
    if (m_entries.size() > keep)
        drainLocked(true, keep);
    return std::exchange(m_unreportedError, Status{});
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
    if (m_firstError.ok())
        m_firstError = status;
    if (m_unreportedError.ok())
        m_unreportedError = status;
}

// Fills every payload of the batch once its counts are in host memory.
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
        batch.summary(slot.index, slot.shape, slot.tensorId, values);
        setSummaryPayload(*slot.payload, std::span<const double>(values.data(), length));
        if (slot.kinds)
            *slot.kinds =
                summaryKinds(work.summaries.mode, std::span<const double>(values.data(), length));
    }
    return {};
}

void PendingEvents::drainLocked(bool wait, std::size_t keep)
{
    while (m_entries.size() > keep) {
        Entry& entry = m_entries.front();
        if (entry.work) {
            Work& work = *entry.work;
            bool arrived = false;
            const Status s = complete(work, wait || keep > 0, arrived);
            if (!arrived)
                break;
            if (!s.ok()) {
                noteError(s);
                m_dropped.fetch_add(1);
            } else {
                if (entry.watched && m_inspector)
                    m_inspector(*entry.watched);
                noteError(entry.trace
                              ? m_writer.writeTrace(entry.trace->wallTime, *entry.trace->frame,
                                                    entry.trace->payload)
                              : m_writer.writeEvent(entry.kind, *entry.event));
            }
            if (--work.remaining == 0) {
                --m_batchesInFlight;
                auto batch = std::move(work.summaries.batch);
                batch->clear();
                if (m_pool.size() < kMaxPooledBatches)
                    m_pool.push_back(std::move(batch));
            }
        } else {
            if (entry.watched && m_inspector)
                m_inspector(*entry.watched);
            noteError(m_writer.writeFramed(entry.kind, std::move(entry.framed)));
        }
        m_entries.pop_front();
    }
    m_queued.store(m_entries.size(), std::memory_order_release);
}

} // namespace nanscope::detail
