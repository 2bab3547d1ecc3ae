// SPDX-License-Identifier: GPL-3.0-or-later
#include "threadpool.hpp"

#include "nanscope/core/threadpriority.hpp"

namespace nanscope::core {

ThreadPool::ThreadPool(unsigned threads, Priority priority)
    : m_size(threads ? threads : std::max(1u, std::thread::hardware_concurrency())),
      m_priority(priority)
{}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_jobReady.notify_all();
    for (auto& t : m_threads)
        t.join();
}

void ThreadPool::submit(std::function<void()> job)
{
    if (m_threads.empty()) {
        for (unsigned i = 0; i < m_size; ++i)
            m_threads.emplace_back([this] { work(); });
    }
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_jobReady.notify_one();
}

void ThreadPool::runFront(std::unique_lock<std::mutex>& lock)
{
    auto job = std::move(m_jobs.front());
    m_jobs.pop_front();
    ++m_running;
    lock.unlock();
    job();
    lock.lock();
    --m_running;
    if (m_jobs.empty() && m_running == 0)
        m_idle.notify_all();
}

bool ThreadPool::runOne()
{
    std::unique_lock lock(m_mutex);
    if (m_jobs.empty())
        return false;
    runFront(lock);
    return true;
}

void ThreadPool::wait()
{
    while (runOne()) {
    }
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_jobs.empty() && m_running == 0; });
}

void ThreadPool::work()
{
    if (m_priority == Priority::Background)
        yieldToInteractiveThreads();
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_jobReady.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
        if (m_jobs.empty())
            return; // stopping
        runFront(lock);
    }
}

} // namespace nanscope::core
