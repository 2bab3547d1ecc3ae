// SPDX-License-Identifier: Apache-2.0
// A dense row-major tensor in device memory, allocated and freed in the order of the demo's
// stream (the stream-ordered allocator: no device-wide synchronisation per op).
#pragma once

#include "gpu_context.hpp"
#include "instrumentation.hpp"
#include "tensor.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace nanscope::demo::cuda {

template <typename T>
class GpuTensor
{
public:
    std::vector<std::int64_t> shape; // empty for a scalar

    GpuTensor() = default;
    explicit GpuTensor(std::vector<std::int64_t> dims) : shape(std::move(dims))
    {
        const std::size_t bytes = size() * sizeof(T);
        if (bytes > 0)
            check(cudaMallocAsync(reinterpret_cast<void**>(&m_data), bytes, context().stream),
                  "allocating a tensor");
    }
    ~GpuTensor() { release(); }
    GpuTensor(GpuTensor&& other) noexcept
        : shape(std::move(other.shape)), m_data(std::exchange(other.m_data, nullptr))
    {}
    GpuTensor& operator=(GpuTensor&& other) noexcept
    {
        if (this != &other) {
            release();
            shape = std::move(other.shape);
            m_data = std::exchange(other.m_data, nullptr);
        }
        return *this;
    }
    GpuTensor(const GpuTensor&) = delete;
    GpuTensor& operator=(const GpuTensor&) = delete;

    std::size_t size() const { return static_cast<std::size_t>(Tensor<T>::count(shape)); }
    std::int64_t rows() const { return shape.empty() ? 1 : shape.front(); }
    std::int64_t cols() const { return shape.size() < 2 ? 1 : shape.back(); }
    T* data() { return m_data; }
    const T* data() const { return m_data; }

private:
    void release()
    {
        if (m_data)
            (void)cudaFreeAsync(m_data, context().stream);
        m_data = nullptr;
    }

    T* m_data = nullptr;
};

using GpuFloat = GpuTensor<float>;
using GpuInt32 = GpuTensor<std::int32_t>;
using GpuInt64 = GpuTensor<std::int64_t>;
using GpuUInt8 = GpuTensor<std::uint8_t>;
using GpuBool = GpuTensor<Bool>;

// A copy of a host tensor, in stream order.
template <typename T>
GpuTensor<T> upload(const Tensor<T>& host)
{
    GpuTensor<T> t(host.shape);
    if (t.size() > 0)
        check(cudaMemcpyAsync(t.data(), host.data(), t.size() * sizeof(T), cudaMemcpyHostToDevice,
                              context().stream),
              "uploading a tensor");
    // The host tensor may be gone before the copy runs: pageable copies are staged, but only
    // waiting makes that a guarantee.
    check(cudaStreamSynchronize(context().stream), "uploading a tensor");
    return t;
}

// The values, waiting for the work that computes them.
template <typename T>
Tensor<T> download(const GpuTensor<T>& t)
{
    Tensor<T> host(t.shape);
    if (t.size() > 0)
        check(cudaMemcpyAsync(host.data(), t.data(), t.size() * sizeof(T), cudaMemcpyDeviceToHost,
                              context().stream),
              "downloading a tensor");
    check(cudaStreamSynchronize(context().stream), "downloading a tensor");
    return host;
}

// What the recorder reads: device memory, on the demo's stream.
template <typename T>
TensorView view(const GpuTensor<T>& t)
{
    return {.data = t.data(),
            .dtype = dtypeOf<T>(),
            .shape = t.shape,
            .space = MemorySpace::Device,
            .stream = context().stream};
}

} // namespace nanscope::demo::cuda
