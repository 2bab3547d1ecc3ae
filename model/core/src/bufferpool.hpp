// SPDX-License-Identifier: GPL-3.0-or-later
// The read buffers of a pass that decodes chunks of a file on a ThreadPool.
#pragma once

#include "readbuffer.hpp"
#include "threadpool.hpp"

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace nanscope::core {

// A bounded set of read buffers: reading waits while every buffer is being decoded, so memory
// stays at a few chunks whatever the file's size. While it waits, the reading thread decodes the
// chunks that no pool thread has started: both cores decode, and the reading never runs far ahead.
class BufferPool
{
public:
    explicit BufferPool(std::size_t count) : m_free(count) {}

    ReadBuffer take(ThreadPool& decoding)
    {
        for (;;) {
            {
                std::lock_guard lock(m_mutex);
                if (!m_free.empty())
                    return pop();
            }
            if (!decoding.runOne())
                break; // every buffer is being decoded on a pool thread
        }
        std::unique_lock lock(m_mutex);
        m_available.wait(lock, [this] { return !m_free.empty(); });
        return pop();
    }

    void give(ReadBuffer buffer)
    {
        {
            std::lock_guard lock(m_mutex);
            m_free.push_back(std::move(buffer));
        }
        m_available.notify_one();
    }

private:
    ReadBuffer pop()
    {
        auto buffer = std::move(m_free.back());
        m_free.pop_back();
        return buffer;
    }

    std::mutex m_mutex;
    std::condition_variable m_available;
    std::vector<ReadBuffer> m_free;
};

} // namespace nanscope::core
