// SPDX-License-Identifier: GPL-3.0-or-later
// The buffers that record chunks are read into.
//
// A read overwrites a buffer at once, so growing one need not zero it first; and a buffer of a
// megabyte or more is one or a few large pages (largepages.hpp) rather than hundreds of small
// ones, each a page fault on first touch (12 us apiece in some virtual machines: the 3.5 MB
// source file of a TensorFlow-shaped logdir cost 10 ms of faults before its first record was
// read, and each pass's fresh 1 MiB buffers 256 faults apiece). Buffers live for a pass, so the
// half page a 1 MiB one leaves unused is not held for long.
#pragma once

#include "largepages.hpp"

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace nanscope::core {

template <typename T>
class ReadBufferAllocator
{
public:
    using value_type = T;
    // From here on, large pages (a 1 MiB chunk's buffer takes one whole).
    static constexpr std::size_t kLargeFromBytes = kLargePageBytes / 2;

    ReadBufferAllocator() = default;
    template <typename U>
    ReadBufferAllocator(const ReadBufferAllocator<U>&) noexcept
    {}

    T* allocate(std::size_t n)
    {
        if (n > SIZE_MAX / sizeof(T))
            throw std::bad_alloc();
        return static_cast<T*>(allocateBytes(n * sizeof(T), alignof(T), kLargeFromBytes));
    }

    void deallocate(T* p, std::size_t n) noexcept
    {
        deallocateBytes(p, n * sizeof(T), alignof(T), kLargeFromBytes);
    }

    // Elements made by resize() are left as they were: the read that follows writes them.
    template <typename U>
    void construct(U* p) noexcept
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    template <typename U>
    bool operator==(const ReadBufferAllocator<U>&) const noexcept
    {
        return true;
    }
};

using ReadBuffer = std::vector<std::byte, ReadBufferAllocator<std::byte>>;

} // namespace nanscope::core
