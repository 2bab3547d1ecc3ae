// SPDX-License-Identifier: Apache-2.0
// One kernel that counts the classes of every element of many tensors (tfdbg2's health
// summaries), reading each tensor once at memory bandwidth. The arithmetic and the walk over
// chunks are in healthcount.hpp; here is what only a GPU does: the block's fold of per-thread
// counters with warp reductions and 64-bit integer atomics. Integer addition is exact and
// commutative, so the totals do not depend on how the hardware schedules the blocks.
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

__global__ void __launch_bounds__(kHealthThreads)
    healthKernel(const KernelDescriptor* __restrict__ descriptors, std::uint32_t tensors,
                 std::uint64_t chunks, unsigned long long* __restrict__ counts)
{
    __shared__ std::uint32_t partial[kWarps][kCountersPerTensor];
    BlockFold fold{counts, partial};
    countBlock(descriptors, tensors, chunks, blockIdx.x, gridDim.x, threadIdx.x, fold);
}

} // namespace

cudaError_t launchHealthKernel(const KernelDescriptor* descriptors, std::uint32_t tensors,
                               std::uint64_t chunks, unsigned long long* counts, unsigned blocks,
                               cudaStream_t stream)
{
    healthKernel<<<blocks, kHealthThreads, 0, stream>>>(descriptors, tensors, chunks, counts);
    return cudaGetLastError();
}

cudaError_t healthKernelBlocksPerMultiprocessor(int* blocks)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, healthKernel, kHealthThreads, 0);
}

} // namespace nanscope::gpu::detail
