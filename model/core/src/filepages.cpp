// SPDX-License-Identifier: GPL-3.0-or-later
#include "filepages.hpp"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace nanscope::core {

namespace {

// The whole pages within [data, data + bytes) to `advice`.
void adviseWholePages(const void* data, std::size_t bytes, int advice)
{
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (address + page - 1) / page * page;
    const std::uintptr_t last = (address + bytes) / page * page;
    if (last > first)
        ::madvise(const_cast<std::byte*>(static_cast<const std::byte*>(data)) + (first - address),
                  last - first, advice);
}

} // namespace

void releaseFilePages(const void* data, std::size_t bytes)
{
    adviseWholePages(data, bytes, MADV_DONTNEED);
}

void populatePages(void* data, std::size_t bytes)
{
#ifdef MADV_POPULATE_WRITE // Linux 5.14; older kernels refuse it (EINVAL), which changes nothing
    adviseWholePages(data, bytes, MADV_POPULATE_WRITE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace nanscope::core
