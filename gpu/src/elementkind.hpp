// SPDX-License-Identifier: Apache-2.0
// How the health kernel reads an element. Shared by the facade and the CUDA kernel, so it
// stays C++17 for nvcc.
#pragma once

#include <cstdint>

namespace nanscope::gpu::detail {

// The classes depend only on the float format, or for integers on width and signedness; bool
// bytes count as uint8 (non-zero is positive). The order is the kernel's ABI.
enum class ElementKind : std::uint32_t {
    Float16,
    BFloat16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
};

} // namespace nanscope::gpu::detail
