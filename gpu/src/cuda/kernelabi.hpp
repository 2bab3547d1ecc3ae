// SPDX-License-Identifier: Apache-2.0
// The layout shared by the health kernel and the code that prepares its input: chunking, the
// tensor table, the output counters. Plain C++, so that the CPU emulation of the kernel in the
// tests builds without CUDA.
#pragma once

#include "nanscope/dtype.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::gpu::detail {

// The bytes of a tensor that one thread block reads in one go: 16 KiB is 4 vector loads per
// thread, small enough that a tensor of a few MiB still spreads over every multiprocessor.
inline constexpr std::uint32_t kChunkBytes = 16384;
inline constexpr int kHealthThreads = 256;

// Counters per tensor in the kernel's output, in KernelCounts' order: -inf, +inf, NaN,
// negative finite, zero.
inline constexpr int kCountersPerTensor = 5;

// One tensor with elements to read. The table is sorted by firstChunk, which starts at 0 and
// grows by the tensor's chunk count, so a chunk finds its tensor by binary search.
struct alignas(16) KernelDescriptor
{
    std::uint64_t address;    // a device-accessible pointer to the first element
    std::uint64_t count;      // elements, at least 1
    std::uint64_t firstChunk; // global index of the tensor's first chunk
    std::uint32_t dtype;      // a DType that kernelReads()
    std::uint32_t slot;       // index of the tensor's counters in the output
};
static_assert(sizeof(KernelDescriptor) == 32);

inline std::uint64_t chunkCount(std::uint64_t count, DType dtype)
{
    const std::uint64_t perChunk = kChunkBytes / elementSize(dtype);
    return (count + perChunk - 1) / perChunk;
}

// Appends a tensor with elements to the table, its chunks after the `chunks` already there;
// returns the chunk count of the table with it.
inline std::uint64_t appendTensor(std::vector<KernelDescriptor>& table, std::uint64_t chunks,
                                  std::uint64_t address, std::uint64_t count, DType dtype,
                                  std::uint32_t slot)
{
    table.push_back({address, count, chunks, static_cast<std::uint32_t>(dtype), slot});
    return chunks + chunkCount(count, dtype);
}

} // namespace nanscope::gpu::detail
