// SPDX-License-Identifier: Apache-2.0
// What the recorder needs from the GPU facade to read a tensor in device memory.
#pragma once

#include "nanscope/status.hpp"
#include "nanscope/tensorview.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::detail {

// Ok when this build and machine can read device memory; otherwise ErrorCode::Unsupported with
// the reason (no CUDA in this build, or no usable device).
Status deviceTensorSupport();

// FULL_TENSOR of a device tensor: copies its `count` elements into `host` in the order of its
// stream, waiting for the copy, and returns a host view of them with the tensor's shape.
Result<TensorView> copyToHost(const TensorView& tensor, std::int64_t count,
                              std::vector<unsigned char>& host);

} // namespace nanscope::detail
