// SPDX-License-Identifier: GPL-3.0-or-later
#include "largepages.hpp"

#include <cstdint>
#include <cstring>
#include <new>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

namespace nanscope::core {
namespace {

std::size_t roundedUp(std::size_t bytes)
{
    return (bytes + kLargePageBytes - 1) / kLargePageBytes * kLargePageBytes;
}

class LargePageResource final : public std::pmr::memory_resource
{
    void* do_allocate(std::size_t bytes, std::size_t alignment) override
    {
        return allocateBytes(bytes, alignment, kLargePageBytes);
    }

    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override
    {
        deallocateBytes(p, bytes, alignment, kLargePageBytes);
    }

    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override
    {
        return this == &other;
    }
};

bool inLargePages(std::size_t bytes, std::size_t alignment, std::size_t largeFrom)
{
    return bytes >= largeFrom && alignment <= kLargePageBytes;
}

} // namespace

void* mapLargePages(std::size_t bytes)
{
    if (bytes == 0 || bytes > SIZE_MAX / 2)
        throw std::bad_alloc();
    const std::size_t length = roundedUp(bytes);
#if defined(__unix__) || defined(__APPLE__)
    // Mapped with a large page's room to spare, then trimmed to an aligned range: the kernel
    // backs only aligned 2 MiB ranges with huge pages.
    void* mapped = ::mmap(nullptr, length + kLargePageBytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        throw std::bad_alloc();
    auto* base = static_cast<std::byte*>(mapped);
    const auto misalignment = reinterpret_cast<std::uintptr_t>(base) % kLargePageBytes;
    const std::size_t head = misalignment == 0 ? 0 : kLargePageBytes - misalignment;
    if (head > 0)
        ::munmap(base, head);
    ::munmap(base + head + length, kLargePageBytes - head);
    std::byte* aligned = base + head;
#ifdef MADV_HUGEPAGE
    (void)::madvise(aligned, length, MADV_HUGEPAGE); // only advice: without it, small pages
#endif
    return aligned;
#else
    void* memory = ::operator new (length, std::align_val_t{kLargePageBytes});
    std::memset(memory, 0, length); // zeroed, as a fresh mapping is
    return memory;
#endif
}

void unmapLargePages(void* memory, std::size_t bytes)
{
    if (!memory)
        return;
#if defined(__unix__) || defined(__APPLE__)
    ::munmap(memory, roundedUp(bytes));
#else
    ::operator delete (memory, std::align_val_t{kLargePageBytes});
#endif
}

void* allocateBytes(std::size_t bytes, std::size_t alignment, std::size_t largeFrom)
{
    if (inLargePages(bytes, alignment, largeFrom))
        return mapLargePages(bytes);
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
}

void deallocateBytes(void* memory, std::size_t bytes, std::size_t alignment, std::size_t largeFrom)
{
    if (inLargePages(bytes, alignment, largeFrom))
        unmapLargePages(memory, bytes);
    else
        std::pmr::new_delete_resource()->deallocate(memory, bytes, alignment);
}

void adviseLargePages(void* memory, std::size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    if (!memory)
        return;
    auto* begin = static_cast<std::byte*>(memory);
    const auto misalignment = reinterpret_cast<std::uintptr_t>(begin) % kLargePageBytes;
    const std::size_t head = misalignment == 0 ? 0 : kLargePageBytes - misalignment;
    if (bytes <= head)
        return;
    const std::size_t whole = (bytes - head) / kLargePageBytes * kLargePageBytes;
    if (whole > 0)
        (void)::madvise(begin + head, whole, MADV_HUGEPAGE); // only advice
#else
    (void)memory;
    (void)bytes;
#endif
}

std::shared_ptr<std::byte[]> allocateLargePages(std::size_t bytes)
{
    return {static_cast<std::byte*>(mapLargePages(bytes)), [bytes](std::byte* p) {
                unmapLargePages(p, bytes);
            }};
}

std::pmr::memory_resource* largePageResource()
{
    static LargePageResource resource;
    return &resource;
}

} // namespace nanscope::core
