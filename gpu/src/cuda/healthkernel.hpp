// SPDX-License-Identifier: Apache-2.0
// The interface between the health kernel (healthkernel.cu, built by nvcc) and the host code
// that launches it (devicebatch.cpp, built by the C++ compiler).
#pragma once

#include "kernelabi.hpp"

#include <cstdint>
#include <cuda_runtime_api.h>

namespace nanscope::gpu::detail {

// Adds the counts of every tensor in `descriptors` (device memory) to `counts` (device memory,
// kCountersPerTensor per slot, zeroed by the caller) with `blocks` blocks on `stream`.
cudaError_t launchHealthKernel(const KernelDescriptor* descriptors, std::uint32_t tensors,
                               std::uint64_t chunks, unsigned long long* counts, unsigned blocks,
                               cudaStream_t stream);

// How many blocks of the kernel fit on one multiprocessor of the current device; fails when
// the build has no kernel image for the device.
cudaError_t healthKernelBlocksPerMultiprocessor(int* blocks);

} // namespace nanscope::gpu::detail
