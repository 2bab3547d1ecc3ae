// SPDX-License-Identifier: Apache-2.0
#include "tensorpayloads.hpp"

#include "devicepayloads.hpp"
#include "ids.hpp"
#include "nanscope/summary.hpp"
#include "nonfinitewatch.hpp"
#include "tensorproto.hpp"
#include "wire/messages.hpp"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace nanscope::detail {

namespace {

// FULL_TENSOR's values, counted as the health modes would.
std::uint8_t countKinds(const TensorView& values, std::int64_t count)
{
    const HealthCounts counts =
        countHealth(values.data, values.dtype, static_cast<std::uint64_t>(count));
    std::uint8_t kinds = 0;
    if (counts.negativeInfinity > 0)
        kinds |= nonfinite::NegInf;
    if (counts.positiveInfinity > 0)
        kinds |= nonfinite::PosInf;
    if (counts.nan > 0)
        kinds |= nonfinite::NaN;
    return kinds;
}

// FULL_TENSOR: the values themselves, copied to the host first when they live on the device.
Status setFullTensorPayload(wire::TensorProto& payload, const TensorView& tensor,
                            std::int64_t count, bool eager, std::uint8_t* kinds)
{
    TensorView values = tensor;
    std::vector<unsigned char> copy;
    if (tensor.space == MemorySpace::Device) {
        auto host = copyToHost(tensor, count, copy);
        if (!host)
            return host.status();
        values = *host;
    }
    Status s = eager ? setFullTensorEager(payload, values, count)
                     : setFullTensorContent(payload, values, count);
    if (s.ok() && kinds)
        *kinds = countKinds(values, count);
    // The payload borrowed the host copy's bytes: it keeps them.
    if (s.ok() && !copy.empty() &&
        payload.tensor_content().data() == reinterpret_cast<const char*>(copy.data()))
        payload.adopt_tensor_content(std::move(copy));
    return s;
}

// Adds a device tensor to the call's summary batch (taken from `pending` by the first), whose
// counts fill the payload once they are back.
Status addToSummaryBatch(wire::TensorProto& payload, const TensorView& tensor, std::int64_t count,
                         TensorDebugMode mode, double tensorId, DeviceSummaries* device,
                         PendingEvents& pending, std::uint8_t* kinds)
{
    if (!device)
        return {ErrorCode::InvalidArgument, "a device tensor needs a summary batch"};
    if (!device->batch)
        device->batch = pending.takeBatch();
    auto index = device->batch->add({.data = tensor.data,
                                     .dtype = tensor.dtype,
                                     .count = static_cast<std::uint64_t>(count),
                                     .stream = tensor.stream},
                                    mode);
    if (!index)
        return index.status();
    device->slots.push_back({.payload = &payload,
                             .index = *index,
                             .shape = SummaryShape(tensor.shape),
                             .tensorId = tensorId,
                             .kinds = kinds});
    return {};
}

// A host tensor's summary vector, computed now.
void setHostSummaryPayload(wire::TensorProto& payload, const TensorView& tensor,
                           TensorDebugMode mode, double tensorId, std::uint8_t* kinds)
{
    std::array<double, 11> summary{};
    const auto length = static_cast<std::size_t>(summaryLength(mode));
    summarize(mode, tensor.data, tensor.dtype, tensor.shape, tensorId,
              std::span(summary.data(), length));
    setSummaryPayload(payload, std::span<const double>(summary.data(), length));
    if (kinds)
        *kinds = summaryKinds(mode, std::span<const double>(summary.data(), length));
}

} // namespace

Status checkUnreadTensor(const TensorView& tensor)
{
    if (tensor.space == MemorySpace::Device)
        if (Status s = deviceTensorSupport(); !s.ok())
            return s;
    if (!elementCount(tensor.shape))
        return {ErrorCode::InvalidArgument,
                "the tensor's shape has a negative dimension or too many elements"};
    return {};
}

Status buildPayload(wire::TensorProto& payload, const TensorView& tensor, TensorDebugMode mode,
                    double tensorId, bool eager, DeviceSummaries* device, PendingEvents& pending,
                    std::uint8_t* kinds)
{
    if (Status s = checkUnreadTensor(tensor); !s.ok())
        return s;
    if (mode == TensorDebugMode::NoTensor) {
        setNoTensorPayload(payload);
        return {};
    }
    const auto count = elementCount(tensor.shape);
    if (mode == TensorDebugMode::FullTensor)
        return setFullTensorPayload(payload, tensor, *count, eager, kinds);
    if (*count > 0 && tensor.data == nullptr && mode != TensorDebugMode::Shape)
        return {ErrorCode::InvalidArgument, "the tensor has elements but no data"};
    // SHAPE reads no values, so it is computed here wherever the tensor lives.
    if (waitsForDevice(tensor, mode))
        return addToSummaryBatch(payload, tensor, *count, mode, tensorId, device, pending, kinds);
    setHostSummaryPayload(payload, tensor, mode, tensorId, kinds);
    return {};
}

bool waitsForDevice(const TensorView& tensor, TensorDebugMode mode)
{
    // Only the modes that read no values, or copy them, are made on the host: a mode added
    // later reads device memory on the device, never on the CPU.
    return tensor.space == MemorySpace::Device && mode != TensorDebugMode::NoTensor &&
           mode != TensorDebugMode::Shape && mode != TensorDebugMode::FullTensor;
}

Status buildTracePayload(wire::TensorProto& payload, const OpState& state, int slot,
                         const TensorView& tensor, TensorDebugMode mode, PendingEvents& pending,
                         std::uint8_t* kinds, DeviceSummaries* device)
{
    const double id = state.outputTensorIds[static_cast<std::size_t>(slot)];
    return buildPayload(payload, tensor, mode, id, false, device, pending, kinds);
}

Status buildExecutionPayloads(wire::Execution& execution, std::span<const TensorView> outputs,
                              const DumpPolicy& policy, bool typeSelected, TensorDebugMode mode,
                              DeviceSummaries& device, PendingEvents& pending,
                              std::span<std::uint8_t> kinds)
{
    for (const auto& tensor : outputs)
        if (tensor.space == MemorySpace::Device)
            if (Status s = deviceTensorSupport(); !s.ok())
                return s;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const TensorView& tensor = outputs[i];
        std::uint8_t* outputKinds = i < kinds.size() ? &kinds[i] : nullptr;
        switch (policy.executionOutput(typeSelected, tensor.dtype)) {
        case ExecutionOutput::Omitted:
            break;
        case ExecutionOutput::Placeholder:
            execution.add_tensor_protos(); // TensorFlow's empty placeholder (format §7.2)
            break;
        case ExecutionOutput::Summarised:
            if (Status s = buildPayload(*execution.add_tensor_protos(), tensor, mode, -1.0, true,
                                        &device, pending, outputKinds);
                !s.ok())
                return s;
            break;
        }
    }
    return {};
}

Status launchSummaries(DeviceSummaries& device, PendingEvents& pending)
{
    if (device.empty()) {
        pending.giveBack(std::move(device.batch));
        return {};
    }
    Status s = device.batch->submit();
    if (!s.ok())
        pending.giveBack(std::move(device.batch));
    return s;
}

} // namespace nanscope::detail
