// SPDX-License-Identifier: GPL-3.0-or-later
// A piece of work done beside the caller's own, on a thread of its own, finished by wait() or
// the destructor. The analysis uses it to prepare memory it is about to fill (faulting pages in,
// filling arrays) while it walks the events on one core and the other would be idle. Where no
// thread can be started, or the work is too small to be worth one, it is done at once.
#pragma once

#include <cstddef>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>

namespace nanscope::core {

// Memory to prepare beside the caller from this size on: a smaller amount is faulted in or filled
// in less time than a thread takes to start.
inline constexpr std::size_t kBackgroundAboveBytes = std::size_t{1} << 20;

class BackgroundTask
{
public:
    // Done on a thread of its own when `beside`, else here and now.
    BackgroundTask(std::function<void()> work, bool beside) : m_work(std::move(work))
    {
        if (beside) {
            try {
                m_thread = std::thread([this] { m_work(); });
                return;
            } catch (const std::system_error&) { // no thread to be had: here
            }
        }
        m_work();
    }
    ~BackgroundTask() { wait(); }
    BackgroundTask(const BackgroundTask&) = delete;
    BackgroundTask& operator=(const BackgroundTask&) = delete;

    void wait()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::function<void()> m_work;
    std::thread m_thread;
};

} // namespace nanscope::core
