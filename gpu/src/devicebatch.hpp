// SPDX-License-Identifier: Apache-2.0
// The device half of SummaryBatch: one kernel launch and one copy back for a list of tensors.
// Built from CUDA sources when the build has CUDA, and as a stub that refuses otherwise.
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/status.hpp"

#include <cstdint>
#include <memory>
#include <span>

namespace nanscope::gpu::detail {

// The types whose elements the kernel classifies: the floating ones, the integers and bool (its
// bytes count as uint8: non-zero is positive).
constexpr bool kernelReads(DType dtype)
{
    return isFloating(dtype) || isInteger(dtype) || dtype == DType::Bool;
}

struct KernelTensor
{
    const void* data = nullptr;
    std::uint64_t count = 0;      // 0: nothing to read, the counts stay zero
    DType dtype = DType::Float32; // one that kernelReads()
    void* stream = nullptr;
};

// Counts as the kernel produces them; positive finite values are the rest of the elements.
struct KernelCounts
{
    std::uint64_t negativeInfinity = 0;
    std::uint64_t positiveInfinity = 0;
    std::uint64_t nan = 0;
    std::uint64_t negativeFinite = 0;
    std::uint64_t zero = 0;
};

class DeviceBatch
{
public:
    DeviceBatch();
    ~DeviceBatch(); // waits for a submission in flight
    DeviceBatch(const DeviceBatch&) = delete;
    DeviceBatch& operator=(const DeviceBatch&) = delete;

    // Checks every pointer, then launches one kernel and one copy back; returns at once.
    Status submit(std::span<const KernelTensor> tensors);
    // True once the counts of the last submission are in host memory.
    Result<bool> poll();
    Status wait();
    // One per submitted tensor, in order; valid once poll() or wait() reported completion.
    std::span<const KernelCounts> counts() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::gpu::detail
