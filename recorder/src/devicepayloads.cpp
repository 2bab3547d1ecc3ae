// SPDX-License-Identifier: Apache-2.0
#include "devicepayloads.hpp"

#include "nanscope/format/record.hpp"
#include "nanscope/gpu/device.hpp"

#include <string>

namespace nanscope::detail {

Status deviceTensorSupport()
{
    static const Status support = [] {
        Status s = gpu::deviceStatus();
        if (s.ok())
            return s;
        return Status{ErrorCode::Unsupported,
                      "cannot record a tensor in device memory: " + s.message()};
    }();
    return support;
}

Result<TensorView> copyToHost(const TensorView& tensor, std::int64_t count,
                              std::vector<unsigned char>& host)
{
    const std::size_t size = hasFixedSizeElements(tensor.dtype) ? elementSize(tensor.dtype) : 0;
    if (size == 0)
        return Status{ErrorCode::Unsupported, "FULL_TENSOR cannot copy tensors of type " +
                                                  std::string(dtypeName(tensor.dtype))};
    // The same limit as the record that will hold the values, checked before copying them.
    if (static_cast<std::uint64_t>(count) > (format::kMaxRecordPayload - 4096) / size)
        return Status{ErrorCode::InvalidArgument,
                      "the tensor is too large for one FULL_TENSOR record"};
    const std::size_t bytes = static_cast<std::size_t>(count) * size;
    if (bytes > 0 && tensor.data == nullptr)
        return Status{ErrorCode::InvalidArgument, "the tensor has elements but no data"};
    host.resize(bytes);
    if (Status s = gpu::copyToHost(host.data(), tensor.data, bytes, tensor.stream); !s.ok())
        return s;
    TensorView view = tensor;
    view.data = host.data();
    view.space = MemorySpace::Host;
    view.stream = nullptr;
    return view;
}

} // namespace nanscope::detail
