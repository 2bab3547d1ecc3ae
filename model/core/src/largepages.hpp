// SPDX-License-Identifier: GPL-3.0-or-later
// Memory for the reader's large arrays in transparent huge pages, where the system gives them on
// request (Linux with THP set to "madvise", the default of several distributions).
//
// Each first touch of a 4 KiB page is a page fault: a 10^7-trace index (300 MB) took 75 000 of
// them, a quarter of its CPU time in a virtual machine. A 2 MiB page is one fault for 512 of
// them. Elsewhere the memory is plain, and nothing changes but the fault count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <vector>

namespace nanscope::core {

inline constexpr std::size_t kLargePageBytes = std::size_t{2} << 20;

// `bytes` rounded up to whole large pages, aligned to one and advised for huge pages: zeroed.
// Throws std::bad_alloc. Give it back with unmapLargePages and the same `bytes`.
void* mapLargePages(std::size_t bytes);
void unmapLargePages(void* memory, std::size_t bytes);

// The same, given back when the last owner lets go.
std::shared_ptr<std::byte[]> allocateLargePages(std::size_t bytes);

// `bytes` aligned to `alignment`: in large pages (mapLargePages) from `largeFrom` bytes up, from
// the default resource below. Give them back with deallocateBytes and the same arguments.
void* allocateBytes(std::size_t bytes, std::size_t alignment, std::size_t largeFrom);
void deallocateBytes(void* memory, std::size_t bytes, std::size_t alignment, std::size_t largeFrom);

// Advises the whole large pages inside [memory, memory + bytes) for huge pages, leaving the rest
// as it is: for memory of the process's allocator that is about to be filled whole, so that it
// takes no more pages than in small ones, in a fault per 2 MiB rather than per 4 KiB.
void adviseLargePages(void* memory, std::size_t bytes);

// `count` copies of `value`, in a vector whose storage takes large pages where it can
// (adviseLargePages) and has room for `capacity` elements (at least `count`): for arrays of
// millions filled at once, and grown once after.
template <typename T>
std::vector<T> filledInLargePages(std::size_t count, const T& value, std::size_t capacity = 0)
{
    std::vector<T> v;
    v.reserve(std::max(count, capacity));
    adviseLargePages(v.data(), v.capacity() * sizeof(T));
    v.assign(count, value);
    return v;
}

// A memory resource that serves requests of a large page or more with mapLargePages, and
// smaller ones from the default resource (allocateBytes): the upstream of arenas and containers
// that grow large.
std::pmr::memory_resource* largePageResource();

} // namespace nanscope::core
