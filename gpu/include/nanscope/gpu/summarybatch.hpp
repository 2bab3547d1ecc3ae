// SPDX-License-Identifier: Apache-2.0
// Summaries of many tensors in GPU memory with one kernel launch and one copy back: the vectors
// of tfdbg2's DebugNumericSummaryV2 (format §6.2), exact and deterministic. Plain C++, no CUDA
// types; streams are passed as void* (a cudaStream_t).
//
//   gpu::SummaryBatch batch;
//   auto a = batch.add({.data = logits, .dtype = DType::Float32, .count = n, .stream = s},
//                      TensorDebugMode::FullHealth);
//   batch.submit();          // returns at once; the kernel runs after the work already on `s`
//   ...                      // the program goes on
//   batch.wait();            // or poll ready()
//   batch.summary(*a, shape, -1.0, vector);
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/status.hpp"
#include "nanscope/summary.hpp"
#include "nanscope/tensordebugmode.hpp"
#include "nanscope/tensorview.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace nanscope::gpu {

struct DeviceTensor
{
    // The first element, aligned to the element size as every typed pointer into a CUDA
    // allocation is; a view may start at any element, not only at a 16-byte boundary.
    const void* data = nullptr;
    DType dtype = DType::Float32;
    std::uint64_t count = 0; // elements
    // The cudaStream_t whose work produces the tensor (nullptr: the default stream). The summary
    // reads the tensor after that work, and later work on the stream waits for the summary.
    void* stream = nullptr;
};

// One batch of tensors, summarised together. Reusable: clear() keeps its buffers (pinned host
// memory and device memory allocated on first use and grown as needed), so a program that
// summarises every step allocates nothing after the first.
//
// A batch in MemorySpace::Host reads host memory on the CPU with the vectorised CPU summaries
// instead: the fallback for builds and machines without CUDA, with the same interface.
class SummaryBatch
{
public:
    explicit SummaryBatch(MemorySpace space = MemorySpace::Device);
    ~SummaryBatch(); // waits for a submitted batch: the device still writes its buffers
    SummaryBatch(SummaryBatch&&) noexcept;
    SummaryBatch& operator=(SummaryBatch&&) noexcept;
    SummaryBatch(const SummaryBatch&) = delete;
    SummaryBatch& operator=(const SummaryBatch&) = delete;

    MemorySpace space() const;

    // Adds a tensor whose summary in `mode` is wanted and returns its index. Only the
    // summarising modes that count classes (CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH) read the
    // tensor; the others cost nothing. InvalidArgument for a type without a summary (string,
    // complex, resource, variant), missing data, a misaligned pointer, or a submitted batch.
    Result<std::size_t> add(const DeviceTensor& tensor,
                            TensorDebugMode mode = TensorDebugMode::FullHealth);

    std::size_t size() const;

    // Starts the batch: on the device, one kernel over every tensor added, then one
    // device-to-host copy of all their counts; it returns without waiting. Tensors on several
    // streams are read after the work on each, and each stream's later work waits for the
    // read. Unsupported without a usable CUDA device; InvalidArgument for a pointer that is not
    // device-accessible memory (then nothing was launched).
    Status submit();

    // Whether the counts have arrived; never blocks. An error if the device failed, or if the
    // batch was not submitted.
    Result<bool> ready();

    // Blocks until the counts have arrived.
    Status wait();

    // The exact counts of tensor `index`, once ready() or wait() reported them.
    const HealthCounts& counts(std::size_t index) const;

    // The summary vector of tensor `index` in the mode it was added with (summaryLength(mode)
    // values in `out`); `shape` supplies rank and dimensions, `tensorId` slot 0.
    void summary(std::size_t index, std::span<const std::int64_t> shape, double tensorId,
                 std::span<double> out) const;

    // Forgets the tensors and the counts, keeping the buffers; waits for a submitted batch.
    void clear();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// One tensor, synchronously: a batch of one, submitted and waited for.
Status summarize(const DeviceTensor& tensor, TensorDebugMode mode,
                 std::span<const std::int64_t> shape, double tensorId, std::span<double> out,
                 MemorySpace space = MemorySpace::Device);

} // namespace nanscope::gpu
