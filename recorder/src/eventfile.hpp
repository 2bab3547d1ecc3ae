// One of the six files of a file set: framed records gathered in memory and appended to disk.
#pragma once

#include "nanscope/status.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

namespace nanscope::detail {

class EventFile
{
public:
    EventFile() = default;
    ~EventFile();
    EventFile(const EventFile&) = delete;
    EventFile& operator=(const EventFile&) = delete;

    // Creates or truncates the file.
    Status open(const std::filesystem::path& path);

    // Adds one framed record to the memory buffer; returns the bytes now pending.
    std::size_t append(std::string_view framedRecord);

    // Appends everything pending to the file. On failure the file is cut back to its last
    // complete record, so that what was written before stays readable, and the batch is dropped.
    Status writeOut();

    // Writes out, then makes the data durable if anything reached the file since the last sync.
    Status sync();

    Status close();

    const std::filesystem::path& path() const { return m_path; }
    std::uint64_t bytesWritten() const { return m_bytesWritten.load(std::memory_order_relaxed); }
    std::uint64_t recordsDropped() const
    {
        return m_recordsDropped.load(std::memory_order_relaxed);
    }

private:
    Status writeOutLocked();

    std::mutex m_mutex;
    std::filesystem::path m_path;
    int m_fd = -1;
    std::string m_pending;
    std::uint64_t m_pendingRecords = 0;
    std::uint64_t m_committedSize = 0; // bytes on disk, always a whole number of records
    bool m_unsynced = false;
    std::atomic<std::uint64_t> m_bytesWritten{0};
    std::atomic<std::uint64_t> m_recordsDropped{0};
};

} // namespace nanscope::detail
