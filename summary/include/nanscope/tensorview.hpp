// SPDX-License-Identifier: Apache-2.0
// A non-owning description of a tensor's memory that the recorder reads.
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/export.h"

#include <cstdint>
#include <optional>
#include <span>

namespace nanscope {

enum class MemorySpace {
    Host,
    Device, // CUDA device memory; read on `stream` by builds with CUDA support
};

struct TensorView
{
    const void* data = nullptr;
    DType dtype = DType::Float32;
    std::span<const std::int64_t> shape; // row-major dimensions; empty for a scalar
    MemorySpace space = MemorySpace::Host;
    void* stream = nullptr; // a cudaStream_t when space == Device (nullptr: the default stream)
};

// Product of the dimensions (1 for a scalar); nullopt when a dimension is negative or the
// product does not fit in 63 bits.
NANSCOPE_API std::optional<std::int64_t> elementCount(std::span<const std::int64_t> shape);

} // namespace nanscope
