// SPDX-License-Identifier: GPL-3.0-or-later
#include "privatecopy.hpp"

#include "cachefiles.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

namespace nanscope::core {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
// Copies into files larger than this run in two halves at once.
constexpr std::size_t kSplitAboveBytes = std::size_t{64} << 20;

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

// Copies up to `size` bytes of `from`, from `offset` on, to `to`'s start: in the kernel where it
// can (a shared extent on file systems that clone), through a buffer where it cannot. Bytes
// copied, or -1.
std::int64_t copyAll(int from, std::size_t offset, int to, std::size_t size)
{
    std::size_t done = 0;
#ifdef __linux__
    while (done < size) {
        off64_t in = static_cast<off64_t>(offset + done), out = static_cast<off64_t>(done);
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
            readAll(from, buffer.data(), std::min(buffer.size(), size - done), offset + done);
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

#ifndef __APPLE__ // no unnamed files there (ChunkArena)
// One part of a copy into unnamed files of a directory.
struct FilePart
{
    int fd = -1;
    std::int64_t copied = -1; // bytes, or -1 with `error` set
    int error = 0;
    std::string why; // when the file could not be made
};

// `size` bytes of `from` from `offset` on, into a new unnamed file of `directory`.
FilePart copyToNewFile(int from, std::size_t offset, std::size_t size,
                       const std::filesystem::path& directory)
{
    FilePart part;
    part.fd = createUnnamedCacheFile(directory);
    if (part.fd < 0) {
        part.why = "cannot copy it into the spill directory: " + cacheFileError(errno);
        return part;
    }
    // Its blocks in one call, rather than one delayed allocation per page as the copy writes
    // them (a third of the copy's time on ext4); a full disk is then told before any copying.
    if (const int error = ::posix_fallocate(part.fd, 0, static_cast<off_t>(size)); error != 0) {
        part.why = "cannot copy it into the spill directory: " + cacheFileError(error);
        return part;
    }
    part.copied = copyAll(from, offset, part.fd, size);
    part.error = errno;
    return part;
}

std::size_t pageSize()
{
    static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

// The first `length` bytes of the two files, `first` bytes of the first and the rest of the
// second, mapped read-only one after the other; null when they cannot be.
std::byte* mapParts(int firstFd, int secondFd, std::size_t first, std::size_t length)
{
    void* range = ::mmap(nullptr, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (range == MAP_FAILED)
        return nullptr;
    auto* base = static_cast<std::byte*>(range);
    const std::size_t inFirst = std::min(first, length);
    bool mapped =
        ::mmap(base, inFirst, PROT_READ, MAP_SHARED | MAP_FIXED, firstFd, 0) != MAP_FAILED;
    if (mapped && length > first)
        mapped = ::mmap(base + first, length - first, PROT_READ, MAP_SHARED | MAP_FIXED, secondFd,
                        0) != MAP_FAILED;
    if (!mapped) {
        ::munmap(range, length);
        return nullptr;
    }
    return base;
}
#endif

} // namespace

PrivateCopy::PrivateCopy(std::byte* address, std::size_t mapped, std::size_t size, Files files)
    : m_address(address), m_mapped(mapped), m_size(size), m_fileBacked(files.first >= 0),
      m_files(files)
{}

PrivateCopy::~PrivateCopy()
{
    ::munmap(m_address, m_mapped);
    for (const int fd : {m_files.first, m_files.second})
        if (fd >= 0)
            ::close(fd);
}

bool PrivateCopy::read(std::size_t offset, std::span<std::byte> to) const
{
    if (offset > m_size || to.size() > m_size - offset)
        return false;
    if (!m_fileBacked) {
        std::memcpy(to.data(), m_address + offset, to.size());
        return true;
    }
    // The part in the first file, then the part in the second.
    const std::size_t inFirst =
        offset < m_files.firstBytes ? std::min(to.size(), m_files.firstBytes - offset) : 0;
    if (inFirst > 0 &&
        readAll(m_files.first, to.data(), inFirst, offset) != static_cast<std::int64_t>(inFirst))
        return false;
    const std::size_t rest = to.size() - inFirst;
    return rest == 0 || (m_files.second >= 0 && readAll(m_files.second, to.data() + inFirst, rest,
                                                        offset + inFirst - m_files.firstBytes) ==
                                                    static_cast<std::int64_t>(rest));
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
        if (!fitsFileSizeLimit(size)) {
            why = "cannot copy it: larger than the file size limit";
            return nullptr;
        }
        // A large index is copied in two halves at once, each into a file of its own (the
        // writes to one file take turns on its lock), mapped side by side.
        const std::size_t first = bytes > kSplitAboveBytes
                                      ? (bytes / 2 + pageSize() - 1) / pageSize() * pageSize()
                                      : bytes;
        FilePart second;
        std::thread secondCopier;
        if (first < bytes) {
            try {
                secondCopier = std::thread(
                    [&] { second = copyToNewFile(fd, first, bytes - first, directory); });
            } catch (const std::system_error&) {
                second = copyToNewFile(fd, first, bytes - first, directory); // no thread: here
            }
        }
        FilePart part = copyToNewFile(fd, 0, first, directory);
        if (secondCopier.joinable())
            secondCopier.join();
        const auto closeParts = [&] {
            for (const int partFd : {part.fd, second.fd})
                if (partFd >= 0)
                    ::close(partFd);
        };
        for (const FilePart* p : {&part, &second}) {
            if (!p->why.empty()) {
                why = p->why;
                closeParts();
                return nullptr;
            }
        }
        // Fewer bytes than looked at: the file was cut short meanwhile, and the copy holds what
        // it held then (a load will find it incomplete).
        std::int64_t copied = part.copied;
        if (part.copied == static_cast<std::int64_t>(first) && first < bytes)
            copied = second.copied < 0 ? -1 : part.copied + second.copied;
        const int error = part.copied < 0 ? part.error : second.error;
        std::byte* address =
            copied > 0 ? mapParts(part.fd, second.fd, first, static_cast<std::size_t>(copied))
                       : nullptr;
        if (!address) {
            closeParts();
            why = copied < 0 ? "cannot copy it: " + std::string(std::strerror(error))
                             : "cannot map its copy";
            return nullptr;
        }
        const auto length = static_cast<std::size_t>(copied);
        // The files stay open for read(); a second one the copy does not reach is closed.
        const bool twoFiles = length > first;
        if (!twoFiles && second.fd >= 0)
            ::close(second.fd);
        return std::shared_ptr<const PrivateCopy>(
            new PrivateCopy(address, length, length,
                            {part.fd, twoFiles ? second.fd : -1, std::min(first, length)}));
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
        new PrivateCopy(to, bytes, static_cast<std::size_t>(read), {}));
}

} // namespace nanscope::core
