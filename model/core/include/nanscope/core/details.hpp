// SPDX-License-Identifier: GPL-3.0-or-later
// Full records decoded on demand from the files (format §8.5), for the one row a user looks at.
#pragma once

#include "nanscope/core/debugmode.hpp"
#include "nanscope/core/health.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

// No limit on the size of a record read on demand (beyond the reader's own).
inline constexpr std::uint64_t kAnyRecordSize = std::numeric_limits<std::uint64_t>::max();

// The largest record that a thread which must stay responsive (the GUI thread) reads: reading
// and decoding cost about a millisecond per MiB (nanscope_bench_details), so one such record
// stays well within a frame.
inline constexpr std::uint64_t kInteractiveRecordBytes = std::uint64_t{1} << 20;

// A value or the reason there is none.
template <typename T>
struct ReadResult
{
    std::optional<T> value;
    std::string error;
    // The record is larger than the caller's limit, so nothing was read: not an error of the file.
    bool deferred = false;

    explicit operator bool() const { return value.has_value(); }
    const T& operator*() const { return *value; }
    const T* operator->() const { return &*value; }
};

// How many of a full tensor's values a read keeps: enough to show, few enough that reading a
// record of millions of elements costs no more than walking its bytes.
inline constexpr std::size_t kTensorValuesKept = 64;

// A decoded tensor. Numeric values are converted to double; strings and other types keep only
// their dtype and shape.
struct TensorValue
{
    DType dtype = DType::Invalid;
    std::vector<std::int64_t> shape;
    std::uint64_t elementCount = 0; // numeric tensors: all of them, kept or not
    std::vector<double> values;     // the first kTensorValuesKept, row-major; none if not numeric
    bool numeric = false;
};

struct TraceDetails
{
    double wallTime = 0;
    std::string graphId;
    std::vector<std::string> graphIds; // outermost first; the last is graphId
    std::string opType;
    std::string opName;
    int outputSlot = 0;
    DebugMode mode = DebugMode::Unspecified;
    // TensorFlow's debug_tensor_value: the summary vector; none for NO_TENSOR and FULL_TENSOR.
    std::optional<std::vector<double>> debugTensorValue;
    std::optional<TensorValue> fullTensor; // FULL_TENSOR only
    std::string deviceName;
    TensorHealth health;
};

struct ExecutionDetails
{
    double wallTime = 0;
    std::string opType;
    int numOutputs = 0;
    std::string graphId; // empty for a plain op
    std::vector<std::int64_t> inputTensorIds;
    std::vector<std::int64_t> outputTensorIds;
    std::vector<std::int32_t> outputTensorDeviceIds;
    DebugMode mode = DebugMode::Unspecified;
    // TensorFlow's debug_tensor_values: one entry per tensor_protos entry (none when it cannot be
    // parsed); none as a whole for NO_TENSOR and FULL_TENSOR.
    std::optional<std::vector<std::optional<std::vector<double>>>> debugTensorValues;
    std::vector<TensorValue> fullTensors;   // FULL_TENSOR only, one per tensor_protos entry
    std::vector<TensorHealth> outputHealth; // one per tensor_protos entry
    std::string hostName;
    std::vector<std::string> stackFrameIds; // outermost first
    // NaNscope's framework context (PyTorch): the module the op ran in, and for a backward op
    // the forward op it differentiates. Empty for TensorFlow's executions.
    std::string modulePath;
    std::string forwardOpType;
    std::string forwardModulePath;
    std::vector<std::string> forwardStackFrameIds; // outermost first
};

} // namespace nanscope::core
