// SPDX-License-Identifier: Apache-2.0
// Whether this build and this machine can read tensors in CUDA device memory. Plain C++: the
// recorder and programs without CUDA headers include it.
#pragma once

#include "nanscope/status.hpp"

#include <cstddef>
#include <string>

namespace nanscope::gpu {

// Whether NaNscope was built with its CUDA kernels (a CUDA compiler was found and
// NANSCOPE_WITH_CUDA was on).
bool builtWithCuda();

// Whether a CUDA device is present and usable by this process: false in builds without CUDA,
// on machines without a GPU or driver, and when the driver is older than the runtime.
bool available();

// Ok when available(); otherwise ErrorCode::Unsupported with a message that says why (no CUDA in
// this build, or the CUDA runtime's own explanation).
Status deviceStatus();

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" for the current device, or the reason why
// there is none.
std::string deviceDescription();

// Copies `bytes` of device memory at `source` to host memory at `destination` in the order of
// `stream` (a cudaStream_t; nullptr is the default stream) and waits for the copy: how
// FULL_TENSOR reads a device tensor. `source` must be device, managed or pinned memory.
Status copyToHost(void* destination, const void* source, std::size_t bytes, void* stream);

} // namespace nanscope::gpu
