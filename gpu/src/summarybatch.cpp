// SPDX-License-Identifier: Apache-2.0
#include "nanscope/gpu/summarybatch.hpp"

#include "devicebatch.hpp"
#include "nanscope/gpu/device.hpp"

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

namespace nanscope::gpu {

namespace {

// SHAPE, NO_TENSOR and FULL_TENSOR summaries need no class counts.
bool readsValues(TensorDebugMode mode)
{
    return mode == TensorDebugMode::CurtHealth || mode == TensorDebugMode::ConciseHealth ||
           mode == TensorDebugMode::FullHealth;
}

HealthCounts fromKernel(const detail::KernelCounts& k, std::uint64_t count)
{
    HealthCounts c;
    c.size = count;
    c.negativeInfinity = k.negativeInfinity;
    c.positiveInfinity = k.positiveInfinity;
    c.nan = k.nan;
    c.negativeFinite = k.negativeFinite;
    c.zero = k.zero;
    c.positiveFinite =
        count - k.negativeInfinity - k.positiveInfinity - k.nan - k.negativeFinite - k.zero;
    return c;
}

enum class State { Open, Submitted, Done };

} // namespace

struct SummaryBatch::Impl
{
    struct Entry
    {
        DeviceTensor tensor;
        TensorDebugMode mode;
    };

    MemorySpace space;
    State state = State::Open;
    std::vector<Entry> entries;
    std::vector<HealthCounts> counts;
    std::vector<detail::KernelTensor> kernelTensors;
    std::unique_ptr<detail::DeviceBatch> device; // created on the first device submission

    explicit Impl(MemorySpace where) : space(where) {}

    Status submitOnHost()
    {
        counts.resize(entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const Entry& e = entries[i];
            if (readsValues(e.mode) && e.tensor.count > 0) {
                counts[i] = countHealth(e.tensor.data, e.tensor.dtype, e.tensor.count);
            } else {
                counts[i] = HealthCounts{};
                counts[i].size = e.tensor.count;
            }
        }
        state = State::Done;
        return {};
    }

    Status submitOnDevice()
    {
        if (Status s = deviceStatus(); !s.ok())
            return s;
        kernelTensors.clear();
        kernelTensors.reserve(entries.size());
        for (const Entry& e : entries)
            kernelTensors.push_back({.data = e.tensor.data,
                                     .count = readsValues(e.mode) ? e.tensor.count : 0,
                                     .dtype = e.tensor.dtype,
                                     .stream = e.tensor.stream});
        if (!device)
            device = std::make_unique<detail::DeviceBatch>();
        if (Status s = device->submit(kernelTensors); !s.ok())
            return s;
        state = State::Submitted;
        return {};
    }

    void collect()
    {
        const auto raw = device->counts();
        assert(raw.size() == entries.size());
        counts.resize(entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const Entry& e = entries[i];
            if (readsValues(e.mode)) {
                counts[i] = fromKernel(raw[i], e.tensor.count);
            } else {
                counts[i] = HealthCounts{}; // as on the host: a size, no classes
                counts[i].size = e.tensor.count;
            }
        }
        state = State::Done;
    }
};

SummaryBatch::SummaryBatch(MemorySpace space) : m_impl(std::make_unique<Impl>(space)) {}

SummaryBatch::~SummaryBatch()
{
    if (m_impl && m_impl->state == State::Submitted)
        (void)m_impl->device->wait();
}

SummaryBatch::SummaryBatch(SummaryBatch&&) noexcept = default;
SummaryBatch& SummaryBatch::operator=(SummaryBatch&& other) noexcept
{
    if (this != &other) {
        if (m_impl && m_impl->state == State::Submitted)
            (void)m_impl->device->wait();
        m_impl = std::move(other.m_impl);
    }
    return *this;
}

MemorySpace SummaryBatch::space() const
{
    return m_impl->space;
}

Result<std::size_t> SummaryBatch::add(const DeviceTensor& tensor, TensorDebugMode mode)
{
    Impl& d = *m_impl;
    if (d.state != State::Open)
        return Status{ErrorCode::InvalidArgument,
                      "the summary batch was submitted; clear() it before adding tensors"};
    if (!detail::kernelReads(tensor.dtype))
        return Status{ErrorCode::InvalidArgument, "tensors of type " +
                                                      std::string(dtypeName(tensor.dtype)) +
                                                      " have no summary"};
    if (summaryLength(mode) == 0 && mode != TensorDebugMode::NoTensor &&
        mode != TensorDebugMode::FullTensor)
        return Status{ErrorCode::InvalidArgument,
                      "unknown tensor debug mode " + std::to_string(static_cast<int>(mode))};
    if (readsValues(mode) && tensor.count > 0) {
        if (tensor.data == nullptr)
            return Status{ErrorCode::InvalidArgument, "the tensor has elements but no data"};
        const auto address = reinterpret_cast<std::uintptr_t>(tensor.data);
        if (address % elementSize(tensor.dtype) != 0)
            return Status{ErrorCode::InvalidArgument,
                          "the tensor's data is not aligned to its " +
                              std::to_string(elementSize(tensor.dtype)) + "-byte elements"};
    }
    d.entries.push_back({tensor, mode});
    return d.entries.size() - 1;
}

std::size_t SummaryBatch::size() const
{
    return m_impl->entries.size();
}

Status SummaryBatch::submit()
{
    Impl& d = *m_impl;
    if (d.state != State::Open)
        return {ErrorCode::InvalidArgument, "the summary batch was already submitted"};
    return d.space == MemorySpace::Host ? d.submitOnHost() : d.submitOnDevice();
}

Result<bool> SummaryBatch::ready()
{
    Impl& d = *m_impl;
    switch (d.state) {
    case State::Open:
        return Status{ErrorCode::InvalidArgument, "the summary batch was not submitted"};
    case State::Done:
        return true;
    case State::Submitted:
        break;
    }
    auto arrived = d.device->poll();
    if (!arrived)
        return arrived.status();
    if (*arrived)
        d.collect();
    return *arrived;
}

Status SummaryBatch::wait()
{
    Impl& d = *m_impl;
    switch (d.state) {
    case State::Open:
        return {ErrorCode::InvalidArgument, "the summary batch was not submitted"};
    case State::Done:
        return {};
    case State::Submitted:
        break;
    }
    if (Status s = d.device->wait(); !s.ok())
        return s;
    d.collect();
    return {};
}

const HealthCounts& SummaryBatch::counts(std::size_t index) const
{
    assert(m_impl->state == State::Done && index < m_impl->counts.size());
    return m_impl->counts[index];
}

void SummaryBatch::summary(std::size_t index, std::span<const std::int64_t> shape, double tensorId,
                           std::span<double> out) const
{
    const Impl::Entry& e = m_impl->entries[index];
    summaryFromCounts(e.mode, counts(index), e.tensor.dtype, shape, tensorId, out);
}

void SummaryBatch::clear()
{
    Impl& d = *m_impl;
    if (d.state == State::Submitted)
        (void)d.device->wait();
    d.entries.clear();
    d.counts.clear();
    d.state = State::Open;
}

Status summarize(const DeviceTensor& tensor, TensorDebugMode mode,
                 std::span<const std::int64_t> shape, double tensorId, std::span<double> out,
                 MemorySpace space)
{
    if (out.size() < static_cast<std::size_t>(summaryLength(mode)))
        return {ErrorCode::InvalidArgument, "the output holds fewer values than the summary"};
    SummaryBatch batch(space);
    auto index = batch.add(tensor, mode);
    if (!index)
        return index.status();
    if (Status s = batch.submit(); !s.ok())
        return s;
    if (Status s = batch.wait(); !s.ok())
        return s;
    batch.summary(*index, shape, tensorId, out);
    return {};
}

} // namespace nanscope::gpu
