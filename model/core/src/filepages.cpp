// SPDX-License-Identifier: GPL-3.0-or-later
#include "filepages.hpp"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace nanscope::core {

void releaseFilePages(const void* data, std::size_t bytes)
{
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (address + page - 1) / page * page;
    const std::uintptr_t last = (address + bytes) / page * page;
    if (last > first)
        ::madvise(const_cast<std::byte*>(static_cast<const std::byte*>(data)) + (first - address),
                  last - first, MADV_DONTNEED);
}

void releaseMemoryPages(void* data, std::size_t bytes)
{
    releaseFilePages(data, bytes); // the same call: whole pages within, MADV_DONTNEED
}

} // namespace nanscope::core
