// SPDX-License-Identifier: GPL-3.0-or-later
#include "filehandle.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;

// O_NONBLOCK: opening a FIFO must not wait for a writer. O_NOCTTY: a terminal never becomes ours.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

class Descriptor
{
public:
    explicit Descriptor(int fd = -1) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

// openat2 with RESOLVE_BENEATH: the kernel refuses any path that leaves `dirfd`, by ".." or by a
// symbolic link, atomically (no window between a check and the open). -1 with errno ENOSYS where
// the kernel (before 5.6) or a seccomp filter does not offer it.
int openBeneath(int dirfd, const char* name)
{
#ifdef SYS_openat2
    open_how how{};
    how.flags = kOpenFlags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return static_cast<int>(::syscall(SYS_openat2, dirfd, name, &how, sizeof how));
#else
    (void)dirfd;
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}

bool isBeneath(const fs::path& inner, const fs::path& outer)
{
    const auto relative = inner.lexically_relative(outer);
    return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// Opens `path` unless it is a symbolic link whose target lies outside the path's directory.
int openInDirectory(const fs::path& path, std::string* error)
{
    auto fail = [&](std::string reason) {
        if (error)
            *error = std::move(reason);
        return -1;
    };
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const fs::path name = path.filename();
    const Descriptor dirfd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dirfd.get() < 0)
        return fail(std::strerror(errno));
    int fd = openBeneath(dirfd.get(), name.c_str());
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG && errno != EXDEV))
        return fd >= 0 ? fd : fail(std::strerror(errno));

    // A link refused by RESOLVE_BENEATH may still point inside (as an absolute path), and old
    // kernels need the check done here: resolve it and compare.
    struct stat st
    {};
    if (::fstatat(dirfd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return fail(std::strerror(errno));
    if (!S_ISLNK(st.st_mode)) {
        fd = ::openat(dirfd.get(), name.c_str(), kOpenFlags | O_NOFOLLOW);
        return fd >= 0 ? fd : fail(std::strerror(errno));
    }
    std::error_code ec;
    const fs::path target = fs::canonical(path, ec);
    if (ec)
        return fail("a symbolic link to a missing or unreadable target: " + ec.message());
    const fs::path base = fs::canonical(dir, ec);
    if (ec || !isBeneath(target, base))
        return fail("a symbolic link to " + target.string() +
                    ", outside the logdir: NaNscope does not follow links out of a logdir");
    // Every component of `target` was a real directory or file a moment ago; O_NOFOLLOW keeps a
    // link swapped in since then for the last one from being followed.
    fd = ::open(target.c_str(), kOpenFlags | O_NOFOLLOW);
    return fd >= 0 ? fd : fail(std::strerror(errno));
}

} // namespace

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
    m_fd = openInDirectory(path, error);
    if (m_fd < 0)
        return false;
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
                                  std::string& payload, std::uint64_t maxPayload)
{
    const std::uint64_t size = file.size();
    const std::uint64_t available = offset < size ? size - offset : 0;
    std::array<std::byte, format::kRecordHeaderSize> header{};
    const std::size_t got = file.readAt(offset, header.data(), header.size());
    const auto parsed = format::parseRecordHeader(std::span<const std::byte>(header.data(), got),
                                                  got < header.size() ? got : available);
    if (parsed.status != format::RecordStatus::Ok)
        return parsed.status;
    if (parsed.payloadSize > maxPayload)
        return format::RecordStatus::TooLarge;
    // Bounded by the bytes that exist and by the caller's limit (a sparse file can claim
    // gigabytes that cost no disk).
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

ReadResult<std::string> readRecord(const std::filesystem::path& path, std::uint64_t offset,
                                   std::uint64_t maxPayload)
{
    ReadResult<std::string> result;
    FileHandle file;
    std::string error;
    if (!file.open(path, &error)) {
        result.error = "cannot open " + path.string() + ": " + error;
        return result;
    }
    std::string payload;
    const auto status = readRecordAt(file, offset, payload, maxPayload);
    if (status != format::RecordStatus::Ok) {
        result.error = path.string() + " at offset " + std::to_string(offset) + ": " +
                       format::toString(status);
        result.deferred = status == format::RecordStatus::TooLarge;
        return result;
    }
    result.value = std::move(payload);
    return result;
}

} // namespace nanscope::core
