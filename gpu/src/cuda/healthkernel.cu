// SPDX-License-Identifier: Apache-2.0
// One kernel that counts the classes of every element of many tensors (tfdbg2's health
// summaries), reading each tensor once at memory bandwidth. The arithmetic and the walk over
// chunks are in healthcount.hpp; here is what only a GPU does: the block's fold of per-thread
// counters with warp reductions and 64-bit integer atomics, and the last block's hand-over of
// the totals to host memory. Integer addition is exact and commutative, so the totals do not
// depend on how the hardware schedules the blocks.
#include "healthcount.hpp"
#include "healthkernel.hpp"

namespace nanscope::gpu::detail {

namespace {

constexpr int kWarps = kHealthThreads / 32;

__device__ __forceinline__ std::uint32_t warpSum(std::uint32_t v)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(0xffffffffu, v);
#else
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
#endif
}

// Adds the block's counters to a tensor's totals and resets them; every thread of the block
// calls it at the same point.
struct BlockFold
{
    unsigned long long* counts;
    std::uint32_t (&partial)[kWarps][kCountersPerTensor];

    __device__ void operator()(Counters& c, std::uint32_t slot)
    {
        const std::uint32_t values[kCountersPerTensor] = {c.negativeInfinity, c.positiveInfinity,
                                                          c.nan, c.negativeFinite, c.zero};
        const unsigned warp = threadIdx.x / 32;
        const unsigned lane = threadIdx.x % 32;
#pragma unroll
        for (int k = 0; k < kCountersPerTensor; ++k) {
            const std::uint32_t sum = warpSum(values[k]);
            if (lane == 0)
                partial[warp][k] = sum;
        }
        __syncthreads();
        if (threadIdx.x < kCountersPerTensor) {
            unsigned long long sum = 0;
            for (int w = 0; w < kWarps; ++w)
                sum += partial[w][threadIdx.x];
            if (sum != 0)
                atomicAdd(counts + std::uint64_t{slot} * kCountersPerTensor + threadIdx.x, sum);
        }
        __syncthreads(); // `partial` is reused by the next fold
        c = Counters{};
    }
};

struct DescriptorPointer
{
    const KernelDescriptor* table;
};

__device__ __forceinline__ const KernelDescriptor* descriptorsOf(const InlineDescriptors& d)
{
    return d.table;
}

__device__ __forceinline__ const KernelDescriptor* descriptorsOf(const DescriptorPointer& d)
{
    return d.table;
}

// The last block to finish copies the totals to the host and zeroes the counters for the next
// launch: no copy before the kernel, none after it. The fences make every block's atomic
// additions visible before its arrival is counted.
__device__ void handOverTotals(const HealthArguments& a)
{
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(a.arrivals, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    const std::uint32_t values = a.slots * kCountersPerTensor;
    for (std::uint32_t i = threadIdx.x; i < values; i += kHealthThreads)
        a.results[i] = atomicExch(a.counters + i, 0ull);
    if (threadIdx.x == 0)
        *a.arrivals = 0;
    __threadfence_system();
}

// The table is a __grid_constant__ parameter: read in place, never copied per thread.
template <class Table>
__global__ void __launch_bounds__(kHealthThreads)
    healthKernel(const __grid_constant__ Table descriptors, const HealthArguments arguments)
{
    __shared__ std::uint32_t partial[kWarps][kCountersPerTensor];
    BlockFold fold{arguments.counters, partial};
    countBlock(descriptorsOf(descriptors), arguments.tensors, arguments.chunks, blockIdx.x,
               gridDim.x, threadIdx.x, fold);
    handOverTotals(arguments);
}

} // namespace

cudaError_t launchHealthKernel(const InlineDescriptors& descriptors, const HealthLaunch& launch)
{
    healthKernel<InlineDescriptors>
        <<<launch.blocks, kHealthThreads, 0, launch.stream>>>(descriptors, launch.arguments);
    return cudaGetLastError();
}

cudaError_t launchHealthKernel(const KernelDescriptor* descriptors, const HealthLaunch& launch)
{
    healthKernel<DescriptorPointer><<<launch.blocks, kHealthThreads, 0, launch.stream>>>(
        DescriptorPointer{descriptors}, launch.arguments);
    return cudaGetLastError();
}

cudaError_t healthKernelBlocksPerMultiprocessor(int* blocks)
{
    // The two tables' kernels differ in registers by a few: the grid fits the tighter one.
    int inlined = 0, pointed = 0;
    if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &inlined, healthKernel<InlineDescriptors>, kHealthThreads, 0);
        e != cudaSuccess)
        return e;
    if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &pointed, healthKernel<DescriptorPointer>, kHealthThreads, 0);
        e != cudaSuccess)
        return e;
    *blocks = inlined < pointed ? inlined : pointed;
    return cudaSuccess;
}

} // namespace nanscope::gpu::detail
