// SPDX-License-Identifier: Apache-2.0
// Launching the health kernel for a batch: descriptors and zeroed counters go to the device in
// one copy, the kernel runs once, and the counters come back in one copy to pinned memory,
// all in stream order; an event tells when the counters have arrived.
#include "../devicebatch.hpp"

#include "cudastatus.hpp"
#include "healthkernel.hpp"

#include <algorithm>
#include <cstring>
#include <cuda_runtime_api.h>
#include <string>
#include <vector>

namespace nanscope::gpu::detail {

namespace {

static_assert(sizeof(KernelCounts) == kCountersPerTensor * sizeof(std::uint64_t));

// Buffers grow to a multiple of this, so that slowly growing batches reallocate rarely.
constexpr std::size_t kAllocationGranule = std::size_t{64} << 10;

std::size_t roundUp(std::size_t bytes)
{
    return (bytes + kAllocationGranule - 1) / kAllocationGranule * kAllocationGranule;
}

} // namespace

struct DeviceBatch::Impl
{
    int device = -1;
    unsigned blocks = 0;             // grid size that fills the device
    unsigned char* host = nullptr;   // pinned: descriptors, then counters
    unsigned char* memory = nullptr; // the same layout on the device
    std::size_t capacity = 0;        // bytes of each
    cudaEvent_t done = nullptr;
    std::vector<cudaEvent_t> forks; // one per extra stream
    std::vector<KernelDescriptor> descriptors;
    std::vector<cudaStream_t> streams; // distinct streams of the tensors read
    std::vector<KernelCounts> results;
    std::size_t countsOffset = 0;
    std::size_t tensors = 0;
    bool inFlight = false;

    ~Impl() { release(); }

    // Frees everything on the device it was allocated on; errors are ignored because they
    // can only mean that the runtime is shutting down.
    void release()
    {
        if (device < 0)
            return;
        int current = -1;
        const bool switched = cudaGetDevice(&current) == cudaSuccess && current != device &&
                              cudaSetDevice(device) == cudaSuccess;
        if (done)
            (void)cudaEventDestroy(done);
        for (cudaEvent_t e : forks)
            (void)cudaEventDestroy(e);
        if (host)
            (void)cudaFreeHost(host);
        if (memory)
            (void)cudaFree(memory);
        if (switched)
            (void)cudaSetDevice(current);
        (void)cudaGetLastError();
        done = nullptr;
        forks.clear();
        host = nullptr;
        memory = nullptr;
        capacity = 0;
        device = -1;
    }

    Status bind(int current)
    {
        if (device == current)
            return {};
        release();
        int perMultiprocessor = 0;
        int multiprocessors = 0;
        if (Status s = cudaStatus(healthKernelBlocksPerMultiprocessor(&perMultiprocessor),
                                  "NaNscope's health kernel cannot run on this device");
            !s.ok())
            return s;
        if (Status s = cudaStatus(
                cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, current),
                "cannot query the device");
            !s.ok())
            return s;
        if (Status s = cudaStatus(cudaEventCreateWithFlags(&done, cudaEventDisableTiming),
                                  "cannot create a CUDA event");
            !s.ok())
            return s;
        blocks = static_cast<unsigned>(std::max(1, perMultiprocessor * multiprocessors));
        device = current;
        return {};
    }

    Status reserve(std::size_t bytes)
    {
        if (bytes <= capacity)
            return {};
        const std::size_t size = roundUp(std::max(bytes, 2 * capacity));
        if (host)
            (void)cudaFreeHost(host);
        if (memory)
            (void)cudaFree(memory);
        host = nullptr;
        memory = nullptr;
        capacity = 0;
        if (Status s = cudaStatus(
                cudaHostAlloc(reinterpret_cast<void**>(&host), size, cudaHostAllocDefault),
                "cannot allocate pinned memory for summary counts");
            !s.ok())
            return s;
        if (Status s = cudaStatus(cudaMalloc(reinterpret_cast<void**>(&memory), size),
                                  "cannot allocate device memory for summary counts");
            !s.ok()) {
            (void)cudaFreeHost(host);
            host = nullptr;
            return s;
        }
        capacity = size;
        return {};
    }

    Status forkEvents(std::size_t count)
    {
        while (forks.size() < count) {
            cudaEvent_t e = nullptr;
            if (Status s = cudaStatus(cudaEventCreateWithFlags(&e, cudaEventDisableTiming),
                                      "cannot create a CUDA event");
                !s.ok())
                return s;
            forks.push_back(e);
        }
        return {};
    }

    Status describe(std::span<const KernelTensor> tensorList, std::uint64_t& chunks)
    {
        descriptors.clear();
        streams.clear();
        chunks = 0;
        for (std::size_t i = 0; i < tensorList.size(); ++i) {
            const KernelTensor& t = tensorList[i];
            if (t.count == 0)
                continue;
            const void* readable = nullptr;
            if (Status s = deviceAddress(t.data, device, "tensor " + std::to_string(i), readable);
                !s.ok())
                return s;
            chunks = appendTensor(descriptors, chunks, reinterpret_cast<std::uint64_t>(readable),
                                  t.count, t.dtype, static_cast<std::uint32_t>(i));
            const auto stream = static_cast<cudaStream_t>(t.stream);
            if (std::find(streams.begin(), streams.end(), stream) == streams.end())
                streams.push_back(stream);
        }
        return {};
    }

    // Everything enqueued after the first step must not be left half done: on an error the
    // stream is drained so that no copy still reads the pinned buffer when it is reused.
    Status launch(std::uint64_t chunks)
    {
        const cudaStream_t stream = streams.front();
        const std::size_t descriptorBytes = descriptors.size() * sizeof(KernelDescriptor);
        const std::size_t countBytes = tensors * sizeof(KernelCounts);
        countsOffset = descriptorBytes;
        if (Status s = reserve(descriptorBytes + countBytes); !s.ok())
            return s;
        if (Status s = forkEvents(streams.size() - 1); !s.ok())
            return s;
        std::memcpy(host, descriptors.data(), descriptorBytes);
        std::memset(host + countsOffset, 0, countBytes);

        // The kernel reads tensors of other streams only after their streams' work so far.
        for (std::size_t i = 1; i < streams.size(); ++i) {
            if (Status s = cudaStatus(cudaEventRecord(forks[i - 1], streams[i]),
                                      "cannot order the summary after the tensor's stream");
                !s.ok())
                return s;
            if (Status s = cudaStatus(cudaStreamWaitEvent(stream, forks[i - 1], 0),
                                      "cannot order the summary after the tensor's stream");
                !s.ok())
                return s;
        }
        const auto* deviceDescriptors = reinterpret_cast<const KernelDescriptor*>(memory);
        auto* deviceCounts = reinterpret_cast<unsigned long long*>(memory + countsOffset);
        Status status = cudaStatus(cudaMemcpyAsync(memory, host, descriptorBytes + countBytes,
                                                   cudaMemcpyHostToDevice, stream),
                                   "cannot copy the summary descriptors to the device");
        if (status.ok()) {
            const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(blocks, chunks));
            status = cudaStatus(launchHealthKernel(deviceDescriptors,
                                                   static_cast<std::uint32_t>(descriptors.size()),
                                                   chunks, deviceCounts, grid, stream),
                                "cannot launch the health kernel");
        }
        if (status.ok())
            status = cudaStatus(cudaMemcpyAsync(host + countsOffset, deviceCounts, countBytes,
                                                cudaMemcpyDeviceToHost, stream),
                                "cannot copy the summary counts to the host");
        if (status.ok())
            status = cudaStatus(cudaEventRecord(done, stream), "cannot record a CUDA event");
        if (!status.ok()) {
            (void)cudaStreamSynchronize(stream);
            (void)cudaGetLastError();
            return status;
        }
        // Later work on the other streams (which may overwrite their tensors) waits for the read.
        for (std::size_t i = 1; i < streams.size(); ++i)
            if (Status s = cudaStatus(cudaStreamWaitEvent(streams[i], done, 0),
                                      "cannot order the tensor's stream after the summary");
                !s.ok())
                return s;
        return {};
    }

    void collect()
    {
        results.resize(tensors);
        std::memcpy(results.data(), host + countsOffset, tensors * sizeof(KernelCounts));
        inFlight = false;
    }
};

DeviceBatch::DeviceBatch() : m_impl(std::make_unique<Impl>()) {}

DeviceBatch::~DeviceBatch()
{
    if (m_impl->inFlight)
        (void)cudaEventSynchronize(m_impl->done);
}

Status DeviceBatch::submit(std::span<const KernelTensor> tensors)
{
    Impl& d = *m_impl;
    if (d.inFlight)
        return {ErrorCode::InvalidArgument, "the previous submission is still in flight"};
    int current = 0;
    if (Status s = cudaStatus(cudaGetDevice(&current), "cannot query the current CUDA device");
        !s.ok())
        return s;
    if (Status s = d.bind(current); !s.ok())
        return s;
    std::uint64_t chunks = 0;
    if (Status s = d.describe(tensors, chunks); !s.ok())
        return s;
    d.tensors = tensors.size();
    if (chunks == 0) {
        // Nothing to read (empty tensors, or modes without counts): no launch, all zeros.
        d.results.assign(tensors.size(), KernelCounts{});
        return {};
    }
    if (Status s = d.launch(chunks); !s.ok())
        return s;
    d.inFlight = true;
    return {};
}

Result<bool> DeviceBatch::poll()
{
    Impl& d = *m_impl;
    if (!d.inFlight)
        return true;
    const cudaError_t e = cudaEventQuery(d.done);
    if (e == cudaErrorNotReady)
        return false;
    if (e != cudaSuccess) {
        d.inFlight = false;
        return cudaStatus(e, "the summary kernel failed");
    }
    d.collect();
    return true;
}

Status DeviceBatch::wait()
{
    Impl& d = *m_impl;
    if (!d.inFlight)
        return {};
    if (const cudaError_t e = cudaEventSynchronize(d.done); e != cudaSuccess) {
        d.inFlight = false;
        return cudaStatus(e, "the summary kernel failed");
    }
    d.collect();
    return {};
}

std::span<const KernelCounts> DeviceBatch::counts() const
{
    return m_impl->results;
}

} // namespace nanscope::gpu::detail
