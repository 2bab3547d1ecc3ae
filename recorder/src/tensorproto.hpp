// SPDX-License-Identifier: Apache-2.0
// The TensorProto payloads of traces and executions for each tensor debug mode.
#pragma once

#include "nanscope/status.hpp"
#include "nanscope/tensorview.hpp"
#include "wire/forward.hpp"

#include <cstdint>
#include <span>

namespace nanscope::detail {

// NO_TENSOR's placeholder: an empty float32 tensor of shape [0].
void setNoTensorPayload(wire::TensorProto& proto);
// The same, made once: every NO_TENSOR trace shares it.
const wire::TensorProto& noTensorPayload();

// A summary vector as a float64 rank-1 tensor with raw content.
void setSummaryPayload(wire::TensorProto& proto, std::span<const double> values);

// The full value as TensorFlow's C++ kernels write it: dtype, shape, raw content.
Status setFullTensorContent(wire::TensorProto& proto, const TensorView& view,
                            std::int64_t elementCount);

// The full value as Python's make_tensor_proto writes eager outputs: raw content for tensors of
// more than one element of the common numeric types, typed fields otherwise.
Status setFullTensorEager(wire::TensorProto& proto, const TensorView& view,
                          std::int64_t elementCount);

} // namespace nanscope::detail
