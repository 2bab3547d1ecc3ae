#include "filehandle.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace nanscope::core {

FileHandle::~FileHandle()
{
    close();
}

FileHandle::FileHandle(FileHandle&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept
{
    if (this != &other) {
        close();
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

void FileHandle::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

bool FileHandle::open(const std::filesystem::path& path, std::string* error)
{
    close();
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) {
        if (error)
            *error = std::strerror(errno);
        return false;
    }
    struct stat st
    {};
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (error)
            *error = "not a regular file";
        close();
        return false;
    }
    return true;
}

std::uint64_t FileHandle::size() const
{
    struct stat st
    {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0)
        return 0;
    return static_cast<std::uint64_t>(st.st_size);
}

std::size_t FileHandle::readAt(std::uint64_t offset, void* buffer, std::size_t size) const
{
    std::size_t got = 0;
    auto* out = static_cast<char*>(buffer);
    while (got < size) {
        const ssize_t n = ::pread(m_fd, out + got, size - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    return got;
}

format::RecordStatus readRecordAt(const FileHandle& file, std::uint64_t offset,
                                  std::string& payload)
{
    const std::uint64_t size = file.size();
    const std::uint64_t available = offset < size ? size - offset : 0;
    std::array<std::byte, format::kRecordHeaderSize> header{};
    const std::size_t got = file.readAt(offset, header.data(), header.size());
    const auto parsed = format::parseRecordHeader(std::span<const std::byte>(header.data(), got),
                                                  got < header.size() ? got : available);
    if (parsed.status != format::RecordStatus::Ok)
        return parsed.status;
    // The header check bounded the length by the bytes that exist, so this allocation is too.
    std::string body(static_cast<std::size_t>(parsed.payloadSize) + 4, '\0');
    if (file.readAt(offset + format::kRecordHeaderSize, body.data(), body.size()) != body.size())
        return format::RecordStatus::TruncatedTail;
    if (!format::payloadCrcMatches(std::span<const std::byte>(
            reinterpret_cast<const std::byte*>(body.data()), body.size())))
        return format::RecordStatus::CorruptPayload;
    body.resize(body.size() - 4);
    payload = std::move(body);
    return format::RecordStatus::Ok;
}

ReadResult<std::string> readRecord(const std::filesystem::path& path, std::uint64_t offset)
{
    ReadResult<std::string> result;
    FileHandle file;
    std::string error;
    if (!file.open(path, &error)) {
        result.error = "cannot open " + path.string() + ": " + error;
        return result;
    }
    std::string payload;
    const auto status = readRecordAt(file, offset, payload);
    if (status != format::RecordStatus::Ok) {
        result.error = path.string() + " at offset " + std::to_string(offset) + ": " +
                       format::toString(status);
        return result;
    }
    result.value = std::move(payload);
    return result;
}

} // namespace nanscope::core
