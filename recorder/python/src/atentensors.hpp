// SPDX-License-Identifier: Apache-2.0
// The C++ op observer's view of torch tensors: their ids and their memory, read from at::Tensor
// directly (no Python object, no GIL).
#pragma once

#include "nanscope/recorder.hpp"

#include <ATen/core/Tensor.h>
#include <c10/core/UndefinedTensorImpl.h>
#include <c10/util/intrusive_ptr.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope::python {

// The recorder's DType of a torch scalar type; nullopt for the types tfdbg2 has no number for.
std::optional<DType> dtypeOf(c10::ScalarType type);

// Eager tensor ids for tensors, one per TensorImpl for as long as it lives. A weak reference
// per entry keeps the TensorImpl's memory from being reused while its entry exists, so a new
// tensor never inherits a dead one's id; dead entries are swept as the table grows.
// Thread-safe.
class TensorImplIds
{
public:
    explicit TensorImplIds(std::function<std::int64_t()> fresh) : m_fresh(std::move(fresh)) {}

    // Appends the id of each defined tensor (assigned on first sight).
    void idsOf(const std::vector<at::Tensor>& tensors, std::vector<std::int64_t>& out);
    std::size_t size() const;
    void clear();

private:
    struct Entry
    {
        c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl> alive;
        std::int64_t id = 0;
    };
    void sweep();

    std::function<std::int64_t()> m_fresh;
    mutable std::mutex m_mutex;
    std::unordered_map<const c10::TensorImpl*, Entry> m_ids;
    std::size_t m_sweepAt = std::size_t{1} << 16;
};

struct DescribedAtenTensor
{
    std::vector<std::int64_t> shape;
    TensorView view;                     // view.shape points into `shape`
    std::vector<unsigned char> gathered; // the values of a non-contiguous host tensor, in order
    at::Tensor dense;                    // a non-contiguous CUDA tensor's dense copy
    std::string skipReason;              // set: recorded without values, counted
};

struct AtenDescribeOptions
{
    bool readValues = false;      // the mode reads values
    bool deviceSupported = false; // this build and machine read CUDA memory
    bool orderMatters = false;    // the mode writes values in order (FULL_TENSOR)
    // The raw cudaStream_t of a device's current stream where this torch cannot say it itself
    // (set by the package; needs the GIL).
    // nullopt when it cannot be read.
    std::function<std::optional<void*>(int device)> currentStream;
};

// The raw stream of a CUDA device's current stream, through `slow` (which asks the Python
// package, under the GIL) once per stream: after that, by the stream's id, which torch reads
// from thread-local state. An id names one stream for the process's life (a pool stream's
// index, or an external stream's own handle), so the cache is never stale.
std::function<std::optional<void*>(int device)>
cachedCurrentStreams(std::function<std::optional<void*>(int device)> slow);

// Describes one output tensor as describeTensor (tensorwalk.hpp) does for Python objects, with
// the same skip reasons. A non-contiguous CUDA tensor is copied densely on its current stream,
// unobserved and outside autograd.
std::unique_ptr<DescribedAtenTensor> describeAtenTensor(const at::Tensor& tensor,
                                                        const AtenDescribeOptions& options);

} // namespace nanscope::python
