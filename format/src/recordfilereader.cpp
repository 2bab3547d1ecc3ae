// SPDX-License-Identifier: Apache-2.0
#include "nanscope/format/recordfilereader.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace nanscope::format {
namespace {
// Big enough to hold thousands of typical records, small enough to never matter for memory.
constexpr std::size_t kReadAhead = std::size_t{256} << 10;
} // namespace

RecordFileReader::~RecordFileReader()
{
    close();
}

RecordFileReader::RecordFileReader(RecordFileReader&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_offset(other.m_offset),
      m_window(std::move(other.m_window)), m_windowOffset(other.m_windowOffset)
{}

RecordFileReader& RecordFileReader::operator=(RecordFileReader&& other) noexcept
{
    if (this != &other) {
        close();
        m_fd = std::exchange(other.m_fd, -1);
        m_offset = other.m_offset;
        m_window = std::move(other.m_window);
        m_windowOffset = other.m_windowOffset;
    }
    return *this;
}

void RecordFileReader::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

bool RecordFileReader::open(const std::filesystem::path& path, std::string* error)
{
    close();
    m_offset = 0;
    m_window.clear();
    m_windowOffset = 0;
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) {
        if (error)
            *error = "cannot open " + path.string() + ": " + std::strerror(errno);
        return false;
    }
    struct stat st
    {};
    if (::fstat(m_fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (error)
            *error = path.string() + " is not a regular file";
        close();
        return false;
    }
    return true;
}

std::uint64_t RecordFileReader::currentSize() const
{
    struct stat st
    {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0)
        return 0;
    return static_cast<std::uint64_t>(st.st_size);
}

bool RecordFileReader::fill(std::uint64_t offset, std::size_t size)
{
    if (offset >= m_windowOffset && offset + size <= m_windowOffset + m_window.size())
        return true;
    const std::size_t want = size > kReadAhead ? size : kReadAhead;
    m_window.resize(want);
    std::size_t got = 0;
    while (got < want) {
        const ssize_t n =
            ::pread(m_fd, m_window.data() + got, want - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    m_window.resize(got);
    m_windowOffset = offset;
    return got >= size;
}

RecordStatus RecordFileReader::readAt(std::uint64_t offset, std::string& payload)
{
    if (m_fd < 0)
        return RecordStatus::EndOfData;
    const std::uint64_t size = currentSize();
    const std::uint64_t available = offset < size ? size - offset : 0;
    if (available == 0)
        return RecordStatus::EndOfData;
    const std::size_t headerBytes =
        available < kRecordHeaderSize ? static_cast<std::size_t>(available) : kRecordHeaderSize;
    if (!fill(offset, headerBytes))
        return RecordStatus::TruncatedTail;
    const auto window = std::span<const std::byte>(m_window);
    const auto headerAt = static_cast<std::size_t>(offset - m_windowOffset);
    const RecordHeader header = parseRecordHeader(window.subspan(headerAt, headerBytes), available);
    if (header.status != RecordStatus::Ok)
        return header.status;
    // The header check bounded the length by the bytes that exist, so this allocation is too.
    const auto body = static_cast<std::size_t>(header.payloadSize) + 4;
    if (!fill(offset, kRecordHeaderSize + body))
        return RecordStatus::TruncatedTail;
    const auto bytes = std::span<const std::byte>(m_window).subspan(
        static_cast<std::size_t>(offset - m_windowOffset) + kRecordHeaderSize, body);
    if (!payloadCrcMatches(bytes))
        return RecordStatus::CorruptPayload;
    payload.assign(reinterpret_cast<const char*>(bytes.data()), body - 4);
    return RecordStatus::Ok;
}

RecordStatus RecordFileReader::next(std::string& payload)
{
    const RecordStatus status = readAt(m_offset, payload);
    if (status == RecordStatus::Ok)
        m_offset += kRecordOverhead + payload.size();
    return status;
}

} // namespace nanscope::format
