// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed set of worker threads running submitted jobs (the trace decoding). The threads start
// with the first job: a reader of small logdirs decodes on its own thread and never pays for them.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nanscope::core {

class ThreadPool
{
public:
    enum class Priority { Normal, Background };
    // threads 0: one per hardware thread. Background threads yield to the program's interactive
    // ones (yieldToInteractiveThreads).
    explicit ThreadPool(unsigned threads, Priority priority = Priority::Normal);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Called from one thread only (the one that owns the pool).
    void submit(std::function<void()> job);
    // Runs the oldest job not yet started on the calling thread; false when there is none. The
    // owner calls it instead of waiting, so that it decodes too while its reading is blocked.
    bool runOne();
    // Blocks until every job submitted so far has finished, running queued ones meanwhile.
    void wait();
    // The threads it runs once it has had a job.
    unsigned size() const { return m_size; }

private:
    void work();
    // Runs the oldest queued job with `lock` released meanwhile; `lock` holds m_mutex.
    void runFront(std::unique_lock<std::mutex>& lock);

    unsigned m_size;
    Priority m_priority;
    std::mutex m_mutex;
    std::condition_variable m_jobReady;
    std::condition_variable m_idle;
    std::deque<std::function<void()>> m_jobs;
    std::size_t m_running = 0;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace nanscope::core
