// SPDX-License-Identifier: GPL-3.0-or-later
// A buffer of the calling thread's, for passes that read files piece by piece (a saved index's
// checks, the checksums of a logdir's pieces). Every such pass of a thread uses the same pages,
// so that only the first faults them in: a fresh buffer per pass costs a fault per page, and in
// a virtual machine each takes microseconds (a 1 MiB buffer, 3 ms). The reader's pool threads
// live as long as the reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace nanscope::core {

inline constexpr std::size_t kThreadScratchBytes = std::size_t{256} << 10;

// kThreadScratchBytes, aligned for any element an array holds.
inline std::span<std::byte> threadScratch()
{
    thread_local const std::unique_ptr<std::uint64_t[]> buffer(
        new std::uint64_t[kThreadScratchBytes / sizeof(std::uint64_t)]);
    return {reinterpret_cast<std::byte*>(buffer.get()), kThreadScratchBytes};
}

} // namespace nanscope::core
