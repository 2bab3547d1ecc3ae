// SPDX-License-Identifier: Apache-2.0
// Launching the health kernel for a batch: one launch whose parameters carry the tensor table
// (a copy of the table first only for batches too large for that), and whose last block writes
// the totals into pinned host memory; an event tells when they have arrived. On this path a
// step's summaries cost one launch and one event record of host time, and no copies on the
// stream that the step's own work would wait behind.
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

// One allocation that only grows: device memory, or pinned host memory mapped for the device.
class Allocation
{
public:
    enum class Kind { Device, MappedHost };
    explicit Allocation(Kind kind) : m_kind(kind) {}
    ~Allocation() { release(); }
    Allocation(const Allocation&) = delete;
    Allocation& operator=(const Allocation&) = delete;

    unsigned char* data() const { return m_data; }
    std::size_t capacity() const { return m_capacity; }
    // The address the device uses.
    unsigned char* deviceData() const { return m_deviceData; }

    // Makes room for `bytes`; `grew` says whether the contents were lost.
    Status reserve(std::size_t bytes, bool& grew)
    {
        grew = false;
        if (bytes <= m_capacity)
            return {};
        release();
        const std::size_t size = roundUp(bytes);
        void* p = nullptr;
        if (m_kind == Kind::Device) {
            if (Status s = cudaStatus(cudaMalloc(&p, size),
                                      "cannot allocate device memory for summary counts");
                !s.ok())
                return s;
            m_deviceData = static_cast<unsigned char*>(p);
        } else {
            if (Status s = cudaStatus(cudaHostAlloc(&p, size, cudaHostAllocMapped),
                                      "cannot allocate pinned memory for summary counts");
                !s.ok())
                return s;
            void* mapped = nullptr;
            if (Status s = cudaStatus(cudaHostGetDevicePointer(&mapped, p, 0),
                                      "cannot map pinned memory for the device");
                !s.ok()) {
                (void)cudaFreeHost(p);
                return s;
            }
            m_deviceData = static_cast<unsigned char*>(mapped);
        }
        m_data = static_cast<unsigned char*>(p);
        m_capacity = size;
        grew = true;
        return {};
    }

    // Errors are ignored: they can only mean that the runtime is shutting down.
    void release()
    {
        if (m_data) {
            if (m_kind == Kind::Device)
                (void)cudaFree(m_data);
            else
                (void)cudaFreeHost(m_data);
        }
        m_data = nullptr;
        m_deviceData = nullptr;
        m_capacity = 0;
    }

private:
    Kind m_kind;
    unsigned char* m_data = nullptr;
    unsigned char* m_deviceData = nullptr;
    std::size_t m_capacity = 0;
};

} // namespace

struct DeviceBatch::Impl
{
    int device = -1;
    unsigned blocks = 0; // grid size that fills the device
    // The kernel's counters and arrival counter, zero between launches.
    Allocation counters{Allocation::Kind::Device};
    bool countersZeroed = false;
    Allocation results{Allocation::Kind::MappedHost}; // written by the kernel's last block
    // A table beyond kInlineDescriptors: staged in pinned memory, copied to the device.
    Allocation staging{Allocation::Kind::MappedHost};
    Allocation table{Allocation::Kind::Device};
    cudaEvent_t done = nullptr;
    std::vector<cudaEvent_t> forks; // one per extra stream
    std::vector<KernelDescriptor> descriptors;
    std::vector<cudaStream_t> streams; // distinct streams of the tensors read
    std::vector<KernelCounts> collected;
    std::size_t tensors = 0;
    bool inFlight = false;

    ~Impl() { release(); }

    // Frees everything on the device it was allocated on.
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
        counters.release();
        results.release();
        staging.release();
        table.release();
        if (switched)
            (void)cudaSetDevice(current);
        (void)cudaGetLastError();
        done = nullptr;
        forks.clear();
        countersZeroed = false;
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
            if (Status s =
                    deviceAddress(t.data, device, {"tensor", static_cast<long>(i)}, readable);
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

    // The buffers of a launch over `tensors` slots. The counters' whole allocation is zeroed in
    // stream order when it is (re)allocated: a later launch may use more slots than this one,
    // and find its arrival counter further on. Each launch leaves what it used zeroed again.
    Status prepare(cudaStream_t stream)
    {
        const std::size_t countBytes = tensors * sizeof(KernelCounts);
        const std::size_t counterBytes = countBytes + sizeof(unsigned long long);
        bool grew = false;
        if (Status s = counters.reserve(counterBytes, grew); !s.ok())
            return s;
        if (grew || !countersZeroed) {
            countersZeroed = false;
            if (Status s =
                    cudaStatus(cudaMemsetAsync(counters.data(), 0, counters.capacity(), stream),
                               "cannot zero the summary counters");
                !s.ok())
                return s;
            countersZeroed = true;
        }
        if (Status s = results.reserve(countBytes, grew); !s.ok())
            return s;
        if (descriptors.size() <= kInlineDescriptors)
            return {};
        const std::size_t tableBytes = descriptors.size() * sizeof(KernelDescriptor);
        if (Status s = staging.reserve(tableBytes, grew); !s.ok())
            return s;
        if (Status s = table.reserve(tableBytes, grew); !s.ok())
            return s;
        std::memcpy(staging.data(), descriptors.data(), tableBytes);
        return cudaStatus(cudaMemcpyAsync(table.data(), staging.data(), tableBytes,
                                          cudaMemcpyHostToDevice, stream),
                          "cannot copy the summary descriptors to the device");
    }

    Status launchKernel(std::uint64_t chunks, cudaStream_t stream)
    {
        HealthLaunch launch;
        HealthArguments& a = launch.arguments;
        a.tensors = static_cast<std::uint32_t>(descriptors.size());
        a.chunks = chunks;
        a.counters = reinterpret_cast<unsigned long long*>(counters.deviceData());
        a.arrivals =
            reinterpret_cast<unsigned int*>(counters.deviceData() + tensors * sizeof(KernelCounts));
        a.results = reinterpret_cast<unsigned long long*>(results.deviceData());
        a.slots = static_cast<std::uint32_t>(tensors);
        launch.blocks = static_cast<unsigned>(std::min<std::uint64_t>(blocks, chunks));
        launch.stream = stream;
        if (descriptors.size() > kInlineDescriptors)
            return cudaStatus(
                launchHealthKernel(reinterpret_cast<const KernelDescriptor*>(table.deviceData()),
                                   launch),
                "cannot launch the health kernel");
        InlineDescriptors inlined;
        std::copy(descriptors.begin(), descriptors.end(), inlined.table);
        return cudaStatus(launchHealthKernel(inlined, launch), "cannot launch the health kernel");
    }

    // Everything enqueued after the first step must not be left half done: on an error the
    // stream is drained so that no copy still reads the pinned buffers when they are reused.
    Status launch(std::uint64_t chunks)
    {
        const cudaStream_t stream = streams.front();
        if (Status s = forkEvents(streams.size() - 1); !s.ok())
            return s;
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
        Status status = prepare(stream);
        if (status.ok())
            status = launchKernel(chunks, stream);
        if (status.ok())
            status = cudaStatus(cudaEventRecord(done, stream), "cannot record a CUDA event");
        if (!status.ok()) {
            (void)cudaStreamSynchronize(stream);
            (void)cudaGetLastError();
            countersZeroed = false; // a kernel that did not run to its end left them as they were
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
        collected.resize(tensors);
        std::memcpy(collected.data(), results.data(), tensors * sizeof(KernelCounts));
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
        d.collected.assign(tensors.size(), KernelCounts{});
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
        d.countersZeroed = false;
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
        d.countersZeroed = false;
        return cudaStatus(e, "the summary kernel failed");
    }
    d.collect();
    return {};
}

std::span<const KernelCounts> DeviceBatch::counts() const
{
    return m_impl->collected;
}

} // namespace nanscope::gpu::detail
