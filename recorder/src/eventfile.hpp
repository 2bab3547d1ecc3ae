// SPDX-License-Identifier: Apache-2.0
// One of the six files of a file set: framed records gathered in memory and appended to disk.
#pragma once

#include "nanscope/status.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>

namespace nanscope::detail {

class EventFile
{
public:
    // Everything appended so far (see mark()).
    static constexpr std::uint64_t kAll = std::numeric_limits<std::uint64_t>::max();

    EventFile() = default;
    ~EventFile();
    EventFile(const EventFile&) = delete;
    EventFile& operator=(const EventFile&) = delete;

    // Creates or truncates the file.
    Status open(const std::filesystem::path& path);

    // After a failed write the file takes no more records: they are dropped and counted, so the
    // file stays a prefix of what was recorded, with no gap a reader could not see (and source
    // files, which stack frames name by position, keep their positions). freeze() does the same
    // for a file whose records would refer to a file that lost some.
    void freeze();
    bool frozen() const;

    // Adds one framed record to the memory buffer; returns the bytes now pending.
    std::size_t append(std::string_view framedRecord);
    // The same, taking the record's bytes when nothing is pending (a large record is not copied).
    std::size_t append(std::string&& framedRecord);

    // Where the records appended so far end. Writing up to a mark taken before another file's
    // records were written out keeps the order in which records of different files were made.
    std::uint64_t mark() const;

    // Appends the pending records made before `upTo` (a mark) to the file. On failure the file is
    // cut back to its last complete record, so that what was written before stays readable, and
    // the batch is dropped.
    Status writeOut(std::uint64_t upTo = kAll);

    // Writes out, then makes the data durable if anything reached the file since the last sync.
    Status sync(std::uint64_t upTo = kAll);

    // Reports (once) that the file was deleted, or its directory removed, while it was open:
    // writing on would only fill the disk with data no one can read, so the file is closed and
    // its later records are dropped.
    Status checkRemoved();

    Status close();

    // For the fatal-signal handler (crashflush.cpp), which must not block and must not allocate:
    // it try-locks every file first (a thread holding one may be half-way through changing its
    // buffer, so that file is left alone), then writes with write() only the pending whole
    // records whose CRCs check (memory may be damaged by whatever crashed the program), then the
    // circular buffers' records, then unlocks.
    bool tryLockForSignal();
    void unlockForSignal();
    void writeOutLockedFromSignal();
    void writeRecordLockedFromSignal(std::string_view framedRecord);

    const std::filesystem::path& path() const { return m_path; }
    std::uint64_t bytesWritten() const { return m_bytesWritten.load(std::memory_order_relaxed); }
    std::uint64_t recordsDropped() const
    {
        return m_recordsDropped.load(std::memory_order_relaxed);
    }

private:
    Status writeOutLocked(std::uint64_t upTo);
    void dropLocked(std::size_t bytes);
    // Writes `bytes` at the end of the file; on failure cuts it back to m_committedSize. Only
    // write(), for the fatal-signal handler.
    int writeRawLocked(std::string_view bytes);
    // Writes the whole records of `bytes` that fit under RLIMIT_FSIZE (EFBIG when not all do),
    // never letting SIGXFSZ reach the program; `written` says how many bytes reached the file.
    int writeAllLocked(std::string_view bytes, std::size_t& written);

    mutable std::mutex m_mutex;
    std::filesystem::path m_path;
    int m_fd = -1;
    std::string m_pending;
    std::uint64_t m_appended = 0;      // bytes ever appended (the end of m_pending)
    std::uint64_t m_committedSize = 0; // bytes on disk, always a whole number of records
    bool m_unsynced = false;
    bool m_frozen = false;
    bool m_removed = false;
    std::atomic<std::uint64_t> m_bytesWritten{0};
    std::atomic<std::uint64_t> m_recordsDropped{0};
};

} // namespace nanscope::detail
