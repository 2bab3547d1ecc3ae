// SPDX-License-Identifier: Apache-2.0
#include "deferredrecords.hpp"

#include <chrono>

namespace nanscope::python {
namespace {

// An idle worker looks for records this often, and is woken early for this many: a wake-up per
// record would cost the caller a system call each.
constexpr auto kLatency = std::chrono::milliseconds(2);
constexpr std::size_t kWakeAt = 256;

} // namespace

DeferredRecords::DeferredRecords(Recorder& recorder)
    : m_recorder(recorder), m_worker([this] { run(); })
{}

DeferredRecords::~DeferredRecords()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_worker.join();
}

bool DeferredRecords::tryPush(Record& record)
{
    std::size_t queued = 0;
    {
        const std::lock_guard lock(m_mutex);
        if (m_queue.size() >= kMaxQueued)
            return false;
        m_queue.push_back(std::move(record));
        ++m_pushed;
        queued = m_queue.size();
    }
    if (queued == kWakeAt)
        m_wake.notify_one();
    return true;
}

void DeferredRecords::drain()
{
    std::unique_lock lock(m_mutex);
    const std::uint64_t target = m_pushed;
    m_wake.notify_one();
    m_drained.wait(lock, [&] { return m_done >= target; });
}

std::map<std::string, std::uint64_t> DeferredRecords::failures() const
{
    const std::lock_guard lock(m_mutex);
    return m_failures;
}

void DeferredRecords::write(Record& record)
{
    const Status status =
        record.stackId
            ? m_recorder.recordExecution(record.spec, *record.stackId)
            : m_recorder.recordExecution(record.spec, std::span<const CodeLocation>(record.stack));
    if (!status.ok()) {
        const std::lock_guard lock(m_mutex);
        ++m_failures["not recorded: " + status.message()];
    }
}

void DeferredRecords::run()
{
    std::vector<Record> batch;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait_for(lock, kLatency, [&] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty()) {
            if (m_stop)
                return;
            continue;
        }
        batch.swap(m_queue);
        lock.unlock();
        for (Record& record : batch)
            write(record);
        const auto written = batch.size();
        batch.clear();
        lock.lock();
        m_done += written;
        m_drained.notify_all();
    }
}

} // namespace nanscope::python
