// SPDX-License-Identifier: GPL-3.0-or-later
// Device buffers and streams for the [gpu] tests, which call the CUDA runtime directly to set up
// what the facade then reads.
#pragma once

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <cuda_runtime_api.h>
#include <utility>
#include <vector>

namespace nanscope::test {

#define NANSCOPE_CUDA_REQUIRE(call)                                                                \
    do {                                                                                           \
        const cudaError_t nanscopeError = (call);                                                  \
        INFO(#call << ": " << cudaGetErrorString(nanscopeError));                                  \
        REQUIRE(nanscopeError == cudaSuccess);                                                     \
    } while (false)

enum class Allocation { Device, Pinned, Managed };

class DeviceMemory
{
public:
    explicit DeviceMemory(std::size_t bytes, Allocation kind = Allocation::Device) : m_kind(kind)
    {
        const std::size_t size = bytes == 0 ? 1 : bytes;
        switch (kind) {
        case Allocation::Device:
            NANSCOPE_CUDA_REQUIRE(cudaMalloc(&m_data, size));
            break;
        case Allocation::Pinned:
            NANSCOPE_CUDA_REQUIRE(cudaMallocHost(&m_data, size));
            break;
        case Allocation::Managed:
            NANSCOPE_CUDA_REQUIRE(cudaMallocManaged(&m_data, size));
            break;
        }
    }
    ~DeviceMemory()
    {
        if (m_kind == Allocation::Pinned)
            (void)cudaFreeHost(m_data);
        else
            (void)cudaFree(m_data);
    }
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    unsigned char* data() const { return static_cast<unsigned char*>(m_data); }

    void upload(std::size_t offset, const void* source, std::size_t bytes) const
    {
        NANSCOPE_CUDA_REQUIRE(cudaMemcpy(data() + offset, source, bytes, cudaMemcpyDefault));
    }

private:
    void* m_data = nullptr;
    Allocation m_kind;
};

class Stream
{
public:
    Stream() { NANSCOPE_CUDA_REQUIRE(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
    ~Stream() { (void)cudaStreamDestroy(m_stream); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }
    void* handle() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

// Free device memory now, for tests that need a lot of it.
inline std::size_t freeDeviceMemory()
{
    std::size_t free = 0;
    std::size_t total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return free;
}

} // namespace nanscope::test
