// SPDX-License-Identifier: Apache-2.0
// Reads TFRecord-framed records from a file that may still be growing.
#pragma once

#include "nanscope/format/record.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nanscope::format {

class RecordFileReader
{
public:
    RecordFileReader() = default;
    ~RecordFileReader();
    RecordFileReader(RecordFileReader&& other) noexcept;
    RecordFileReader& operator=(RecordFileReader&& other) noexcept;
    RecordFileReader(const RecordFileReader&) = delete;
    RecordFileReader& operator=(const RecordFileReader&) = delete;

    // Opens `path` for reading; on failure returns false and sets `error` to a readable reason.
    bool open(const std::filesystem::path& path, std::string* error = nullptr);
    bool isOpen() const { return m_fd >= 0; }

    // Reads the record at offset() into `payload`. On Ok the offset moves past it; on any other
    // status it stays, so a torn tail is read again once the writer has finished it.
    RecordStatus next(std::string& payload);

    // Reads the record at `offset` without moving offset().
    RecordStatus readAt(std::uint64_t offset, std::string& payload);

    std::uint64_t offset() const { return m_offset; }
    void seek(std::uint64_t offset) { m_offset = offset; }

    // The file's size now (it may grow between calls).
    std::uint64_t currentSize() const;

private:
    // Makes bytes [offset, offset + size) available in m_window; false on an I/O error.
    bool fill(std::uint64_t offset, std::size_t size);
    void close();

    int m_fd = -1;
    std::uint64_t m_offset = 0;
    std::vector<std::byte> m_window;
    std::uint64_t m_windowOffset = 0;
};

} // namespace nanscope::format
