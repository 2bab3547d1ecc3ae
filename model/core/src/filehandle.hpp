// SPDX-License-Identifier: GPL-3.0-or-later
// A file of a logdir opened for reading, from the real file system or from memory, with positioned
// reads: safe on files that another process is appending to (reads never go past the size asked
// for; nothing is memory-mapped).
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/core/filesystem.hpp"
#include "nanscope/format/record.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace nanscope::core {

class FileHandle
{
public:
    // Opens a file of `files` for reading (see realFileSystem() for what the disk refuses). On
    // failure returns false and sets `error` to a readable reason.
    bool open(const FileSystem& files, const std::filesystem::path& path, std::string* error);
    bool isOpen() const { return m_file != nullptr; }
    void close() { m_file.reset(); }

    std::uint64_t size() const { return m_file ? m_file->size() : 0; } // now; 0 on error
    std::int64_t modificationTime() const { return m_file ? m_file->modificationTime() : 0; }
    OpenFile::Identity identity() const
    {
        return m_file ? m_file->identity() : OpenFile::Identity{};
    }

    // Reads up to `size` bytes at `offset`; returns how many were read (fewer at the end of the
    // file or on an I/O error).
    std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const
    {
        return m_file ? m_file->readAt(offset, buffer, size) : 0;
    }

private:
    std::unique_ptr<OpenFile> m_file;
};

// Reads and checks the one record at `offset` (both CRCs); the payload goes to `payload`. A record
// whose payload is longer than `maxPayload` is not read (TooLarge): its length field alone must
// never decide how much memory is taken.
format::RecordStatus readRecordAt(const FileHandle& file, std::uint64_t offset,
                                  std::string& payload,
                                  std::uint64_t maxPayload = format::kMaxRecordPayload);

// Opens `path` and reads the record at `offset`; the error names the file and offset.
ReadResult<std::string> readRecord(const FileSystem& files, const std::filesystem::path& path,
                                   std::uint64_t offset,
                                   std::uint64_t maxPayload = format::kMaxRecordPayload);

} // namespace nanscope::core
