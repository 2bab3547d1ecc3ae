// SPDX-License-Identifier: GPL-3.0-or-later
// Append-only arrays whose chunks are shared between snapshots.
//
// A copy shares every chunk. The reader only ever writes elements at or beyond the size of every
// copy it has published, so published copies never see a write: reading more never copies what
// was read before, and a snapshot stays valid while the reader goes on.
#pragma once

#include "chunkarena.hpp"
#include "filepages.hpp"
#include "largepages.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace nanscope::core {

template <typename T, unsigned ChunkBits = 16>
class ChunkedArray
{
public:
    static constexpr std::size_t kChunkSize = std::size_t{1} << ChunkBits;
    static constexpr std::size_t kMask = kChunkSize - 1;
    // The first chunk starts at this many elements and doubles up to a whole chunk: a logdir of
    // a few records then takes kilobytes per column, not a whole chunk (512 KiB of doubles).
    static constexpr std::size_t kFirstChunkMin = std::min<std::size_t>(256, kChunkSize);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    const T& operator[](std::size_t i) const { return m_chunks[i >> ChunkBits][i & kMask]; }
    T& mutableAt(std::size_t i) { return m_chunks[i >> ChunkBits][i & kMask]; }

    // Grows or shrinks the visible size; new elements are uninitialised until written. Growing
    // past the first chunk's capacity moves that chunk (copies it into a larger one), which
    // invalidates writers: see reserve(). Growing an adopted array copies its last, partial chunk
    // first (see adopt).
    void resize(std::size_t size)
    {
        if (m_borrowedLast && size > m_size)
            ownLastChunk();
        growFirstChunk(size);
        const std::size_t chunks = (size + kMask) >> ChunkBits;
        while (m_chunks.size() < chunks)
            m_chunks.push_back(newChunk());
        m_size = size;
    }

    // Chunks come from runs of large pages (see newChunk) from the second whole one the array
    // holds in memory of its own (the first chunk grown whole, or the partial chunk an adopted
    // array copies, is the first), not from the run-th on: for an array whose every page fault
    // is on the reading thread's path (an execution column: 500 000 executions took 5 500 faults
    // there), at the cost of a run begun early in an array of a few chunks. Before it grows.
    void takeLargePagesEarly() { m_runsFrom = kEarlyRunsFrom; }

    // Finished chunks go to `arena` from now on (see sealBelow). For plain data only: a stored
    // chunk is a copy of its bytes.
    void spillTo(std::shared_ptr<ChunkArena> arena)
    {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        m_arena = std::move(arena);
    }

    // Stores the chunks that lie wholly below element `end` in the arena (ChunkArena::store) and
    // reads them from there from now on: for chunks the reader has finished writing. Their heap
    // copies go once no published copy of the array holds them. Nothing without an arena; the
    // heap from then on should the arena refuse.
    void sealBelow(std::size_t end)
    {
        const std::size_t last = std::min(end, m_size) >> ChunkBits;
        for (; m_sealed < last && m_arena; ++m_sealed) {
            if (m_sealed < m_stored.size() && m_stored[m_sealed])
                continue; // adopted from a mapped file: already where it can be given back
            void* stored = m_arena->store(m_chunks[m_sealed].get(), kChunkSize * sizeof(T));
            if (!stored) {
                m_arena.reset(); // a full disk
                break;
            }
            m_chunks[m_sealed] = std::shared_ptr<T[]>(m_arena, static_cast<T*>(stored));
            m_stored.resize(std::max(m_stored.size(), m_sealed + 1), false);
            m_stored[m_sealed] = true;
        }
    }

    // Sizes the first chunk for `count` elements now, so that growing up to `count` later never
    // moves it. Chunks after the first never move, so this allocates at most one chunk.
    void reserve(std::size_t count) { growFirstChunk(count); }

    void push_back(const T& value)
    {
        resize(m_size + 1);
        mutableAt(m_size - 1) = value;
    }

    // Appends `count` elements stored elsewhere (a memory-mapped file) to an array that is empty
    // or holds whole chunks (an earlier adopt's): whole chunks are used where they lie, kept
    // alive by `owner`, and never written (the reader only writes past the size); the last,
    // partial chunk too, until the array first grows (resize copies it then, as later elements
    // go there: a reopen that reads nothing more copies none, and every copy is fresh pages,
    // each a fault). `data` must be aligned for T.
    // `inPageCache`: the owner is a mapped file, whose whole chunks sealBelow must not store
    // again (a read on top of a reopened index of 10^7 traces copied all 320 MB of it into the
    // arena).
    void adopt(const T* data, std::size_t count, const std::shared_ptr<const void>& owner,
               bool inPageCache = false)
    {
        if (m_size == 0 && count <= kChunkSize) {
            resize(count);
            std::copy_n(data, count, m_chunks.empty() ? nullptr : m_chunks.front().get());
            return;
        }
        const std::size_t whole = count >> ChunkBits;
        for (std::size_t c = 0; c < whole; ++c)
            m_chunks.push_back(std::shared_ptr<T[]>(owner, const_cast<T*>(data + c * kChunkSize)));
        m_firstCapacity = kChunkSize;
        m_size += whole * kChunkSize;
        if (inPageCache) {
            m_stored.resize(m_chunks.size(), false);
            std::fill(m_stored.end() - static_cast<std::ptrdiff_t>(whole), m_stored.end(), true);
        }
        const std::size_t rest = count - whole * kChunkSize;
        if (rest > 0) {
            m_chunks.push_back(
                std::shared_ptr<T[]>(owner, const_cast<T*>(data + whole * kChunkSize)));
            m_size += rest;
            m_borrowedLast = true;
        }
    }

    // Calls f(pointer, count) for each run of contiguous elements from `from` (a chunk's first
    // element) on, in order. With `release`, a run stored in an arena leaves the resident set once
    // f is done with it, so that one pass over the whole array (saving it) does not map all of it.
    template <typename F>
    void forEachRun(const F& f, bool release = false, std::size_t from = 0) const
    {
        for (std::size_t begin = from; begin < m_size; begin += kChunkSize) {
            const std::size_t c = begin >> ChunkBits;
            const std::size_t n = std::min(kChunkSize, m_size - begin);
            f(static_cast<const T*>(m_chunks[c].get()), n);
            if (release && c < m_stored.size() && m_stored[c])
                releaseFilePages(m_chunks[c].get(), n * sizeof(T));
        }
    }

    // Gives back the pages of the current run of large pages that no chunk was carved from yet
    // (see newChunk): a huge page is resident whole once touched, and an array's unused tail
    // should cost no more than in small pages. For the end of an update, with no writer at
    // work: chunks carved later take those pages back, zeroed, as they are written.
    void releaseUncarvedRun()
    {
        if (!m_run.memory || m_run.next == kChunksPerRun)
            return;
        releaseMemoryPages(m_run.memory.get() + m_run.next * kChunkBytes,
                           (kChunksPerRun - m_run.next) * kChunkBytes);
    }

    // Bytes of element storage held.
    std::size_t capacityBytes() const
    {
        return m_chunks.empty()
                   ? 0
                   : (m_firstCapacity + (m_chunks.size() - 1) * kChunkSize) * sizeof(T);
    }
    std::size_t usedBytes() const { return m_size * sizeof(T); }

    // Raw pointers to the chunks covering [begin, end), for writers on other threads: they must
    // not touch the chunk list while the owner grows it, and the owner must have reserved room
    // for every element they write before taking them (a first chunk that moves would take their
    // writes with it).
    class Writer
    {
    public:
        T& operator[](std::size_t i) { return m_chunks[(i >> ChunkBits) - m_first][i & kMask]; }

    private:
        friend class ChunkedArray;
        std::vector<T*> m_chunks;
        std::size_t m_first = 0;
    };

    Writer writer(std::size_t begin, std::size_t end)
    {
        Writer w;
        if (end <= begin)
            return w;
        w.m_first = begin >> ChunkBits;
        for (std::size_t c = w.m_first; c <= (end - 1) >> ChunkBits; ++c)
            w.m_chunks.push_back(m_chunks[c].get());
        return w;
    }

private:
    static constexpr std::size_t kChunkBytes = kChunkSize * sizeof(T);
    // Chunks carved from one run of large pages: as many as fill one (or one, if larger).
    static constexpr std::size_t kChunksPerRun =
        std::max<std::size_t>(1, kLargePageBytes / kChunkBytes);

    // The large pages later chunks are carved from. A copy of the array starts a run of its
    // own: two arrays never carve the same one.
    struct ChunkRun
    {
        std::shared_ptr<std::byte[]> memory;
        std::size_t next = 0; // chunks carved so far
        ChunkRun() = default;
        ChunkRun(const ChunkRun&) {}
        ChunkRun& operator=(const ChunkRun& other)
        {
            if (this != &other) {
                memory.reset();
                next = 0;
            }
            return *this;
        }
        ChunkRun(ChunkRun&&) noexcept = default;
        ChunkRun& operator=(ChunkRun&&) noexcept = default;
        ~ChunkRun() = default;
    };

    // A chunk after the first. Once the array has made a run's worth of chunks itself (or two,
    // see takeLargePagesEarly), its chunks are carved from runs (largepages.hpp: one page fault
    // per 2 MiB, not per 4 KiB), each kept alive by the chunks that share it: an array smaller
    // than that never takes a whole run, nor does the one partial chunk an array adopted from a
    // saved index copies.
    std::shared_ptr<T[]> newChunk()
    {
        if constexpr (std::is_trivially_destructible_v<T>) {
            if (++m_madeChunks >= m_runsFrom) {
                if (!m_run.memory || m_run.next == kChunksPerRun) {
                    m_run.memory = allocateLargePages(kChunksPerRun * kChunkBytes);
                    m_run.next = 0;
                }
                T* chunk = reinterpret_cast<T*>(m_run.memory.get() + m_run.next++ * kChunkBytes);
                std::uninitialized_default_construct_n(chunk, kChunkSize);
                return std::shared_ptr<T[]>(m_run.memory, chunk);
            }
        }
        return std::shared_ptr<T[]>(new T[kChunkSize]);
    }

    // The adopted last chunk, copied into one of the array's own. Published copies keep the one
    // they read, as they keep an old first chunk.
    void ownLastChunk()
    {
        std::shared_ptr<T[]> own = newChunk();
        std::copy_n(m_chunks.back().get(), m_size & kMask, own.get());
        m_chunks.back() = std::move(own);
        m_borrowedLast = false;
    }

    // Published copies keep the old first chunk: it is never written again, only replaced here.
    void growFirstChunk(std::size_t count)
    {
        if (count <= m_firstCapacity || m_firstCapacity == kChunkSize)
            return;
        const std::size_t capacity =
            std::min(kChunkSize, std::bit_ceil(std::max(count, kFirstChunkMin)));
        std::shared_ptr<T[]> first(new T[capacity]);
        if (capacity == kChunkSize && m_runsFrom == kEarlyRunsFrom)
            ++m_madeChunks; // a whole chunk of its own, in small pages
        if (!m_chunks.empty()) {
            std::copy_n(m_chunks.front().get(), std::min(m_size, m_firstCapacity), first.get());
            m_chunks.front() = std::move(first);
        } else {
            m_chunks.push_back(std::move(first));
        }
        m_firstCapacity = capacity;
    }

    std::vector<std::shared_ptr<T[]>> m_chunks;
    std::size_t m_size = 0;
    std::size_t m_firstCapacity = 0; // elements in m_chunks[0]; every later chunk has kChunkSize
    std::shared_ptr<ChunkArena> m_arena; // where finished chunks go (see spillTo); null: nowhere
    std::vector<bool> m_stored;  // per chunk, whether it lies in a mapped file (the arena's or
                                 // an adopted one): its pages can be given back
    std::size_t m_sealed = 0;    // chunks before it were looked at by sealBelow
    bool m_borrowedLast = false; // the last chunk is an adopted partial one, never to be written
    ChunkRun m_run;
    // Whole chunks in memory of its own: by newChunk (not adopted ones), and the first chunk
    // grown whole where runs begin early.
    std::size_t m_madeChunks = 0;
    // The made chunk that starts the first run. A run's worth by default: the first open of 10^7
    // traces peaked 2 to 6 MiB higher with the trace columns' runs begun early.
    std::size_t m_runsFrom = kChunksPerRun;
    static constexpr std::size_t kEarlyRunsFrom = 2;
};

} // namespace nanscope::core
