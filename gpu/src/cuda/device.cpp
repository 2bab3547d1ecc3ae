// SPDX-License-Identifier: Apache-2.0
// Finding out once whether this process can run the kernels, and the device functions that do
// not need a batch.
#include "nanscope/gpu/device.hpp"

#include "cudastatus.hpp"
#include "healthkernel.hpp"

#include <cstdio>
#include <cuda_runtime_api.h>
#include <mutex>
#include <string>

namespace nanscope::gpu {

namespace {

struct Probe
{
    Status status;
};

// The CUDA runtime is asked once per process: the answer does not change, and the first call
// loads the driver, which takes long enough to matter in a loop.
const Probe& probe()
{
    static const Probe result = [] {
        Probe p;
        int devices = 0;
        if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess) {
            (void)cudaGetLastError();
            p.status = {ErrorCode::Unsupported, std::string("no usable CUDA device: ") +
                                                    cudaGetErrorString(e) + " (" +
                                                    cudaGetErrorName(e) + ")"};
            return p;
        }
        if (devices == 0) {
            p.status = {ErrorCode::Unsupported, "no usable CUDA device: the driver sees none"};
            return p;
        }
        // A device the build has no kernel image for (older than the architectures compiled,
        // and no PTX it can JIT) is as good as none.
        int blocks = 0;
        if (const cudaError_t e = detail::healthKernelBlocksPerMultiprocessor(&blocks);
            e != cudaSuccess || blocks < 1) {
            (void)cudaGetLastError();
            p.status = {ErrorCode::Unsupported,
                        std::string("no usable CUDA device: NaNscope's kernels cannot run on "
                                    "the current device: ") +
                            cudaGetErrorString(e)};
        }
        return p;
    }();
    return result;
}

} // namespace

namespace detail {

Status deviceAddress(const void* pointer, int device, const PointerName& name,
                     const void*& accessible)
{
    cudaPointerAttributes attributes{};
    if (const cudaError_t e = cudaPointerGetAttributes(&attributes, pointer); e != cudaSuccess) {
        (void)cudaGetLastError(); // not sticky: only this query failed
        return {ErrorCode::InvalidArgument,
                name.text() + " is not a pointer the CUDA runtime knows: " + cudaGetErrorString(e)};
    }
    const auto located = [&] {
        char address[32];
        std::snprintf(address, sizeof address, "%p", pointer);
        return name.text() + " at " + address;
    };
    switch (attributes.type) {
    case cudaMemoryTypeDevice:
        if (attributes.device != device)
            return {ErrorCode::InvalidArgument, located() + " is in the memory of CUDA device " +
                                                    std::to_string(attributes.device) +
                                                    ", but the current device is " +
                                                    std::to_string(device)};
        accessible = pointer;
        return {};
    case cudaMemoryTypeManaged:
        accessible = pointer;
        return {};
    case cudaMemoryTypeHost:
        // Pinned host memory: readable through its mapped device address.
        accessible = attributes.devicePointer ? attributes.devicePointer : pointer;
        return {};
    case cudaMemoryTypeUnregistered:
        break;
    }
    return {ErrorCode::InvalidArgument,
            located() +
                " is not in device memory: the GPU cannot read pageable host memory (record "
                "host tensors with MemorySpace::Host)"};
}

} // namespace detail

bool builtWithCuda()
{
    return true;
}

bool available()
{
    return probe().status.ok();
}

Status deviceStatus()
{
    return probe().status;
}

std::string deviceDescription()
{
    if (!available())
        return deviceStatus().message();
    int device = 0;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return "a CUDA device whose properties cannot be read";
    }
    char text[512];
    std::snprintf(text, sizeof text, "%s (device %d, sm_%d%d, %d SMs, %.1f GiB)", properties.name,
                  device, properties.major, properties.minor, properties.multiProcessorCount,
                  static_cast<double>(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

Status copyToHost(void* destination, const void* source, std::size_t bytes, void* stream)
{
    if (Status s = deviceStatus(); !s.ok())
        return s;
    if (bytes == 0)
        return {};
    int device = 0;
    if (Status s = detail::cudaStatus(cudaGetDevice(&device), "cannot query the current device");
        !s.ok())
        return s;
    const void* readable = nullptr;
    if (Status s = detail::deviceAddress(source, device, {}, readable); !s.ok())
        return s;
    auto* s = static_cast<cudaStream_t>(stream);
    if (Status status =
            detail::cudaStatus(cudaMemcpyAsync(destination, readable, bytes, cudaMemcpyDefault, s),
                               "copying a tensor from the device failed");
        !status.ok())
        return status;
    return detail::cudaStatus(cudaStreamSynchronize(s), "copying a tensor from the device failed");
}

} // namespace nanscope::gpu
