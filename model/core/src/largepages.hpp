// SPDX-License-Identifier: GPL-3.0-or-later
// Memory for the reader's large arrays in transparent huge pages, where the system gives them on
// request (Linux with THP set to "madvise", the default of several distributions).
//
// Each first touch of a 4 KiB page is a page fault: a 10^7-trace index (300 MB) took 75 000 of
// them, a quarter of its CPU time in a virtual machine. A 2 MiB page is one fault for 512 of
// them. Elsewhere the memory is plain, and nothing changes but the fault count.
#pragma once

#include <cstddef>
#include <memory>
#include <memory_resource>

namespace nanscope::core {

inline constexpr std::size_t kLargePageBytes = std::size_t{2} << 20;

// `bytes` rounded up to whole large pages, aligned to one and advised for huge pages: zeroed.
// Throws std::bad_alloc. Give it back with unmapLargePages and the same `bytes`.
void* mapLargePages(std::size_t bytes);
void unmapLargePages(void* memory, std::size_t bytes);

// The same, given back when the last owner lets go.
std::shared_ptr<std::byte[]> allocateLargePages(std::size_t bytes);

// A memory resource that serves requests of a large page or more with mapLargePages, and
// smaller ones from the default resource: the upstream of arenas and containers that grow large.
std::pmr::memory_resource* largePageResource();

} // namespace nanscope::core
