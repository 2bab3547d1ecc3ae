// SPDX-License-Identifier: GPL-3.0-or-later
#include "chunkarena.hpp"

#include "cachefiles.hpp"
#include "filepages.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace nanscope::core {
namespace {

// Segments are mapped this large (or as large as one allocation): a few dozen mappings for an
// index of 10^8 traces.
constexpr std::size_t kSegmentBytes = std::size_t{64} << 20;

std::size_t pageSize()
{
    static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

std::size_t roundUp(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

} // namespace

std::shared_ptr<ChunkArena> ChunkArena::create(const std::filesystem::path& directory)
{
#ifdef __APPLE__
    // No posix_fallocate: blocks could not be allocated before the pages are written, and a
    // full disk would fault them. The arrays stay in memory.
    (void)directory;
    return nullptr;
#endif
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    const int fd = createUnnamedCacheFile(directory);
    if (fd < 0)
        return nullptr;
    return std::shared_ptr<ChunkArena>(new ChunkArena(fd));
}

ChunkArena::ChunkArena(int fd) : m_fd(fd) {}

ChunkArena::~ChunkArena()
{
    for (const Segment& s : m_segments)
        ::munmap(s.base, s.size);
    ::close(m_fd);
}

void* ChunkArena::store(const void* data, std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    const std::size_t slot = roundUp(std::max<std::size_t>(bytes, 1), pageSize());
    if (m_segments.empty() || m_segments.back().size - m_used < slot) {
        const std::size_t size = std::max(kSegmentBytes, slot);
        // Past RLIMIT_FSIZE the kernel would answer with SIGXFSZ, which ends the process: a
        // spill that may not grow is refused like a full disk.
        if (!fitsFileSizeLimit(m_fileSize + size))
            return nullptr;
        // Blocks first: a mapped page whose block cannot be allocated would fault (SIGBUS).
        if (::posix_fallocate(m_fd, static_cast<off_t>(m_fileSize), static_cast<off_t>(size)) != 0)
            return nullptr;
        void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, m_fd,
                            static_cast<off_t>(m_fileSize));
        if (base == MAP_FAILED)
            return nullptr;
        m_segments.push_back({static_cast<std::byte*>(base), size, m_fileSize});
        m_fileSize += size;
        m_used = 0;
    }
    const Segment& segment = m_segments.back();
    const auto offset = static_cast<off_t>(segment.fileOffset + m_used);
    const auto* from = static_cast<const char*>(data);
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n =
            ::pwrite(m_fd, from + done, bytes - done, offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return nullptr; // the slot stays unused
        done += static_cast<std::size_t>(n);
    }
    std::byte* p = segment.base + m_used;
    m_used += slot;
    m_stored += bytes;
    return p;
}

void ChunkArena::releaseAll() const
{
    std::lock_guard lock(m_mutex);
    for (const Segment& s : m_segments)
        releaseFilePages(s.base, s.size);
}

std::uint64_t ChunkArena::storedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_stored;
}

} // namespace nanscope::core
