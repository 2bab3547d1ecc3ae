// SPDX-License-Identifier: GPL-3.0-or-later
// Where the finished chunks of a large index's columns go: a file of the user's cache directory.
//
// The file has no name (it is gone when the arena is) and is mapped shared. A chunk is built on
// the heap, as any other, and once the reader has finished writing it, it is stored: written to
// the file (a copy into the page cache, no page faults) and read from the mapping from then on.
// Its pages are then page cache, not the process's own memory: the kernel writes them out and
// evicts them under memory pressure, and reading maps them in again. An index of 10^8 traces
// (2.6 GB of columns) then costs resident memory only where it is being built and where the
// views look. The file's blocks are allocated before a chunk is stored, so that a disk that
// fills up later cannot fault a page of it: a full disk makes the arena refuse, and the columns
// stay on the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

namespace nanscope::core {

class ChunkArena
{
public:
    // An arena in `directory` (created if needed); null when it cannot be made there.
    static std::shared_ptr<ChunkArena> create(const std::filesystem::path& directory);
    ~ChunkArena();
    ChunkArena(const ChunkArena&) = delete;
    ChunkArena& operator=(const ChunkArena&) = delete;

    // Copies `bytes` at `data` into the file; returns where they are mapped (page-aligned,
    // writable, valid while the arena lives), or null when the file cannot grow (a full disk).
    void* store(const void* data, std::size_t bytes);

    // releaseFilePages() for everything stored so far: after a scan over whole columns, what it
    // mapped goes back to the page cache.
    void releaseAll() const;

    // Bytes stored so far.
    std::uint64_t storedBytes() const;

private:
    explicit ChunkArena(int fd);

    struct Segment
    {
        std::byte* base = nullptr;
        std::size_t size = 0;
        std::uint64_t fileOffset = 0;
    };

    mutable std::mutex m_mutex;
    int m_fd;
    std::uint64_t m_fileSize = 0;
    std::vector<Segment> m_segments;
    std::size_t m_used = 0; // of the last segment
    std::uint64_t m_stored = 0;
};

} // namespace nanscope::core
