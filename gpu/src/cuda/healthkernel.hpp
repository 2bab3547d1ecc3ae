// SPDX-License-Identifier: Apache-2.0
// The interface between the health kernel (healthkernel.cu, built by nvcc) and the host code
// that launches it (devicebatch.cpp, built by the C++ compiler).
#pragma once

#include "kernelabi.hpp"

#include <cstdint>
#include <cuda_runtime_api.h>

namespace nanscope::gpu::detail {

// A table this small travels in the launch's own parameters, so that a batch of a few tensors
// (a training step's, an op's) costs one launch and no copy: 96 descriptors are 3 KiB, well
// inside the 4 KiB that every CUDA version allows a kernel's parameters.
inline constexpr std::uint32_t kInlineDescriptors = 96;

struct InlineDescriptors
{
    KernelDescriptor table[kInlineDescriptors];
};

// What the kernel is given besides its table.
struct HealthArguments
{
    std::uint32_t tensors = 0; // descriptors in the table
    std::uint64_t chunks = 0;
    // Device memory, kCountersPerTensor per slot, then one arrival counter; zero before the
    // launch, and zero again after it (the last block to finish resets what it read).
    unsigned long long* counters = nullptr;
    unsigned int* arrivals = nullptr;
    // Where the last block writes the totals of every slot: host memory mapped for the device.
    unsigned long long* results = nullptr;
    std::uint32_t slots = 0;
};

struct HealthLaunch
{
    HealthArguments arguments;
    unsigned blocks = 1;
    cudaStream_t stream = nullptr;
};

// Counts every tensor of a table in the launch's parameters (at most kInlineDescriptors).
cudaError_t launchHealthKernel(const InlineDescriptors& descriptors, const HealthLaunch& launch);
// Counts every tensor of a table in device memory.
cudaError_t launchHealthKernel(const KernelDescriptor* descriptors, const HealthLaunch& launch);

// How many blocks of the kernel fit on one multiprocessor of the current device; fails when
// the build has no kernel image for the device.
cudaError_t healthKernelBlocksPerMultiprocessor(int* blocks);

} // namespace nanscope::gpu::detail
