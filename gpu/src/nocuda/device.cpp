// SPDX-License-Identifier: Apache-2.0
// The device functions of a build without CUDA: there is never a device to read.
#include "nanscope/gpu/device.hpp"

namespace nanscope::gpu {

namespace {

constexpr const char* kNoCuda = "this build of NaNscope has no CUDA support (it was configured "
                                "without a CUDA compiler, or with NANSCOPE_WITH_CUDA=OFF)";

} // namespace

bool builtWithCuda()
{
    return false;
}

bool available()
{
    return false;
}

Status deviceStatus()
{
    return {ErrorCode::Unsupported, kNoCuda};
}

std::string deviceDescription()
{
    return "no CUDA device: " + std::string(kNoCuda);
}

Status copyToHost(void*, const void*, std::size_t, void*)
{
    return deviceStatus();
}

} // namespace nanscope::gpu
