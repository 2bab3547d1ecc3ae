// SPDX-License-Identifier: GPL-3.0-or-later
#include "privatecopy.hpp"

#include "cachefiles.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace nanscope::core {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

// Reads up to `size` bytes from `fd` at `offset` into `to`; the bytes read (fewer when the file
// was cut short meanwhile), or -1 with errno set.
std::int64_t readAll(int fd, std::byte* to, std::size_t size, std::size_t offset = 0)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, to + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    return static_cast<std::int64_t>(done);
}

// Copies up to `size` bytes from `from`'s start to `to`'s: in the kernel where it can (a shared
// extent on file systems that clone), through a buffer where it cannot. Bytes copied, or -1.
std::int64_t copyAll(int from, int to, std::size_t size)
{
    std::size_t done = 0;
#ifdef __linux__
    while (done < size) {
        off64_t in = static_cast<off64_t>(done), out = in;
        const ssize_t n = ::copy_file_range(from, &in, to, &out, size - done, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && done == 0 &&
            (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL))
            break; // through a buffer instead
        if (n < 0)
            return -1;
        if (n == 0)
            return static_cast<std::int64_t>(done);
        done += static_cast<std::size_t>(n);
    }
    if (done == size)
        return static_cast<std::int64_t>(done);
#endif
    std::vector<std::byte> buffer(std::min(size, kBufferBytes));
    // A buffered copy from where the kernel's stopped (at 0 when it could not start).
    while (done < size) {
        const std::int64_t n =
            readAll(from, buffer.data(), std::min(buffer.size(), size - done), done);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        if (writeCacheBytes(to, done, buffer.data(), static_cast<std::size_t>(n)) != 0)
            return -1;
        done += static_cast<std::size_t>(n);
    }
    return static_cast<std::int64_t>(done);
}

} // namespace

PrivateCopy::PrivateCopy(std::byte* address, std::size_t mapped, std::size_t size, bool fileBacked)
    : m_address(address), m_mapped(mapped), m_size(size), m_fileBacked(fileBacked)
{}

PrivateCopy::~PrivateCopy()
{
    ::munmap(m_address, m_mapped);
}

std::shared_ptr<const PrivateCopy> PrivateCopy::of(int fd, std::uint64_t size,
                                                   const std::filesystem::path& directory,
                                                   std::uint64_t fileAboveBytes, std::string& why)
{
    if (size == 0 || size > SIZE_MAX / 2) {
        why = size == 0 ? "it is empty" : "it is too large to read";
        return nullptr;
    }
    const auto bytes = static_cast<std::size_t>(size);
    const bool toFile = !directory.empty() && size >= fileAboveBytes;
#ifndef __APPLE__ // no unnamed files there (ChunkArena): memory
    if (toFile) {
        std::error_code ec;
        std::filesystem::create_directories(directory, ec);
        const int copy = createUnnamedCacheFile(directory);
        if (copy < 0) {
            why = "cannot copy it into the spill directory: " + cacheFileError(errno);
            return nullptr;
        }
        if (!fitsFileSizeLimit(size)) {
            ::close(copy);
            why = "cannot copy it: larger than the file size limit";
            return nullptr;
        }
        const std::int64_t copied = copyAll(fd, copy, bytes);
        const int error = errno;
        void* address = copied > 0 ? ::mmap(nullptr, static_cast<std::size_t>(copied), PROT_READ,
                                            MAP_SHARED, copy, 0)
                                   : MAP_FAILED;
        ::close(copy); // the mapping keeps the file
        if (address == MAP_FAILED) {
            why = copied < 0 ? "cannot copy it: " + std::string(std::strerror(error))
                             : "cannot map its copy";
            return nullptr;
        }
        const auto length = static_cast<std::size_t>(copied);
        return std::shared_ptr<const PrivateCopy>(
            new PrivateCopy(static_cast<std::byte*>(address), length, length, true));
    }
#endif
    void* address =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (address == MAP_FAILED) {
        why = "no memory to read it into";
        return nullptr;
    }
    auto* to = static_cast<std::byte*>(address);
    const std::int64_t read = readAll(fd, to, bytes);
    const int error = errno;
    if (read <= 0) {
        ::munmap(address, bytes);
        why = read < 0 ? "cannot read it: " + std::string(std::strerror(error)) : "it is empty";
        return nullptr;
    }
    ::mprotect(address, bytes, PROT_READ); // checked bytes stay as checked
    // Fewer bytes than the size looked at: the file was cut short meanwhile, and the copy holds
    // what it held then (a load will find it incomplete).
    return std::shared_ptr<const PrivateCopy>(
        new PrivateCopy(to, bytes, static_cast<std::size_t>(read), false));
}

} // namespace nanscope::core
