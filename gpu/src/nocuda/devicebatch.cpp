// SPDX-License-Identifier: Apache-2.0
// The device half of SummaryBatch in a build without CUDA: every submission is refused with
// the reason, so a device batch fails the same way with or without CUDA on a machine with no
// GPU.
#include "../devicebatch.hpp"

#include "nanscope/gpu/device.hpp"

namespace nanscope::gpu::detail {

struct DeviceBatch::Impl
{};

DeviceBatch::DeviceBatch() = default;
DeviceBatch::~DeviceBatch() = default;

Status DeviceBatch::submit(std::span<const KernelTensor>)
{
    return deviceStatus();
}

Result<bool> DeviceBatch::poll()
{
    return deviceStatus();
}

Status DeviceBatch::wait()
{
    return deviceStatus();
}

std::span<const KernelCounts> DeviceBatch::counts() const
{
    return {};
}

} // namespace nanscope::gpu::detail
