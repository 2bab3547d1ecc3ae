// SPDX-License-Identifier: GPL-3.0-or-later
// The host cost of the CUDA calls a device summary makes, each alone: what a record call's
// "record us" on a GPU machine is made of.
#include "bench_gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#include <vector>

namespace nanscope::bench {

namespace {

template <int Bytes>
struct Parameters
{
    unsigned char bytes[Bytes];
};

__global__ void emptyKernel() {}

template <int Bytes>
__global__ void kernelWithParameters(Parameters<Bytes> p, int* sink)
{
    if (sink != nullptr)
        *sink = p.bytes[threadIdx.x % Bytes];
}

// The median host time of `call` in microseconds, the stream drained every 64 calls so that
// launches never wait for room in its queue.
template <typename Call>
double medianMicroseconds(cudaStream_t stream, Call&& call)
{
    constexpr int kCalls = 2048;
    std::vector<double> times;
    times.reserve(kCalls);
    for (int i = 0; i < kCalls; ++i) {
        if (i % 64 == 0)
            check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
        const auto before = std::chrono::steady_clock::now();
        call();
        const auto after = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::micro>(after - before).count());
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    std::nth_element(times.begin(), times.begin() + kCalls / 2, times.end());
    return times[kCalls / 2];
}

template <int Bytes>
double launchWithParameters(cudaStream_t stream)
{
    const Parameters<Bytes> p{};
    return medianMicroseconds(stream, [&] {
        kernelWithParameters<Bytes><<<1, 32, 0, stream>>>(p, nullptr);
        check(cudaGetLastError(), "launch");
    });
}

} // namespace

std::vector<CallCost> measureCallCosts(cudaStream_t stream, const void* deviceData)
{
    std::vector<CallCost> costs;
    costs.push_back({"kernel launch, no parameters", medianMicroseconds(stream, [&] {
                         emptyKernel<<<1, 32, 0, stream>>>();
                         check(cudaGetLastError(), "launch");
                     })});
    costs.push_back({"kernel launch, 256 B of parameters", launchWithParameters<256>(stream)});
    costs.push_back({"kernel launch, 1 KiB of parameters", launchWithParameters<1024>(stream)});
    costs.push_back({"kernel launch, 3 KiB of parameters", launchWithParameters<3072>(stream)});
    cudaEvent_t event = nullptr;
    check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
    costs.push_back({"cudaEventRecord", medianMicroseconds(stream, [&] {
                         check(cudaEventRecord(event, stream), "cudaEventRecord");
                     })});
    check(cudaEventSynchronize(event), "cudaEventSynchronize");
    costs.push_back({"cudaEventQuery, completed", medianMicroseconds(stream, [&] {
                         check(cudaEventQuery(event), "cudaEventQuery");
                     })});
    check(cudaEventDestroy(event), "cudaEventDestroy");
    costs.push_back({"cudaPointerGetAttributes, device memory", medianMicroseconds(stream, [&] {
                         cudaPointerAttributes a{};
                         check(cudaPointerGetAttributes(&a, deviceData), "attributes");
                     })});
    costs.push_back({"cudaGetDevice", medianMicroseconds(stream, [&] {
                         int device = 0;
                         check(cudaGetDevice(&device), "cudaGetDevice");
                     })});
    return costs;
}

} // namespace nanscope::bench
