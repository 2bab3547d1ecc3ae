// SPDX-License-Identifier: GPL-3.0-or-later
// A read-only file descriptor with positioned reads: safe on files that another process is
// appending to (reads never go past the size asked for; nothing is memory-mapped).
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/format/record.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace nanscope::core {

class FileHandle
{
public:
    FileHandle() = default;
    ~FileHandle();
    FileHandle(FileHandle&& other) noexcept;
    FileHandle& operator=(FileHandle&& other) noexcept;
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;

    // Opens a file of a logdir for reading. On failure returns false and sets `error` to a
    // readable reason. Logdirs are often written by other people's programs into shared places,
    // so a symbolic link that leads out of the file's directory is not followed (links within it
    // are), and anything but a regular file is refused without blocking (a FIFO would wait
    // forever for a writer).
    bool open(const std::filesystem::path& path, std::string* error);
    bool isOpen() const { return m_fd >= 0; }
    void close();

    std::uint64_t size() const; // now; 0 on error

    // Reads up to `size` bytes at `offset`; returns how many were read (fewer at the end of the
    // file or on an I/O error).
    std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const;

private:
    int m_fd = -1;
};

// Reads and checks the one record at `offset` (both CRCs); the payload goes to `payload`. A record
// whose payload is longer than `maxPayload` is not read (TooLarge): its length field alone must
// never decide how much memory is taken.
format::RecordStatus readRecordAt(const FileHandle& file, std::uint64_t offset,
                                  std::string& payload,
                                  std::uint64_t maxPayload = format::kMaxRecordPayload);

// Opens `path` and reads the record at `offset`; the error names the file and offset.
ReadResult<std::string> readRecord(const std::filesystem::path& path, std::uint64_t offset,
                                   std::uint64_t maxPayload = format::kMaxRecordPayload);

} // namespace nanscope::core
