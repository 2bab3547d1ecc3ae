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

    // On failure returns false and sets `error` to a readable reason.
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

// Reads and checks the one record at `offset` (both CRCs); the payload goes to `payload`.
format::RecordStatus readRecordAt(const FileHandle& file, std::uint64_t offset,
                                  std::string& payload);

// Opens `path` and reads the record at `offset`; the error names the file and offset.
ReadResult<std::string> readRecord(const std::filesystem::path& path, std::uint64_t offset);

} // namespace nanscope::core
