// SPDX-License-Identifier: GPL-3.0-or-later
#include "heapwatch.hpp"

#include <atomic>
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NANSCOPE_HEAP_HOOKS 1
#endif
#endif

#ifdef NANSCOPE_HEAP_HOOKS
#include <sanitizer/allocator_interface.h>
#endif

namespace nanscope::fuzz {
namespace {

std::atomic<std::int64_t> g_live{0};
std::atomic<std::int64_t> g_base{0};
std::atomic<std::int64_t> g_peak{0};

#ifdef NANSCOPE_HEAP_HOOKS
void onMalloc(const volatile void*, std::size_t size)
{
    const std::int64_t live =
        g_live.fetch_add(static_cast<std::int64_t>(size)) + static_cast<std::int64_t>(size);
    std::int64_t peak = g_peak.load(std::memory_order_relaxed);
    while (live > peak && !g_peak.compare_exchange_weak(peak, live))
        ;
}

void onFree(const volatile void* p)
{
    if (p != nullptr)
        g_live.fetch_sub(
            static_cast<std::int64_t>(__sanitizer_get_allocated_size(const_cast<const void*>(p))));
}

const bool g_installed = __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree) != 0;
#else
const bool g_installed = false;
#endif

} // namespace

bool HeapWatch::available()
{
    return g_installed;
}

void HeapWatch::start()
{
    g_base = g_live.load();
    g_peak = g_base.load();
}

std::uint64_t HeapWatch::peakGrowth()
{
    const std::int64_t growth = g_peak.load() - g_base.load();
    return growth > 0 ? static_cast<std::uint64_t>(growth) : 0;
}

} // namespace nanscope::fuzz
