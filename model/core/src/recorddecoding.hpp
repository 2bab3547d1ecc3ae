// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written decoders of the two record types a logdir holds millions of (see wirereader.hpp
// for why): GraphExecutionTrace and Execution, reduced to what the index keeps.
#pragma once

#include "nanscope/core/debugmode.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/health.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace nanscope::core {

enum class DecodeStatus {
    Ok,
    OtherKind, // a valid DebugEvent, but not of the expected kind
    Malformed, // not a valid DebugEvent
};

struct DecodedTrace
{
    double wallTime = 0;
    std::string_view graphId;
    std::string_view opName;
    std::uint32_t outputSlot = 0;
    DebugMode mode = DebugMode::Unspecified;
    std::string_view deviceName; // the device the op ran on; may be empty
    TensorHealth health;
    bool malformedSummary = false; // a summary vector too short for its mode
    bool alerts = false;           // NaNscope raises an InfNanAlert (fields in `alert`)
    bool tensorBoardAlert = false; // and TensorBoard does too (not for a bfloat16 FULL_TENSOR)
    Alert alert;
};

DecodeStatus decodeTrace(std::string_view payload, DecodedTrace& out);

struct DecodedExecution
{
    double wallTime = 0;
    std::string_view opType;
    std::string_view graphId;
    std::uint32_t numOutputs = 0;
    DebugMode mode = DebugMode::Unspecified;
    std::vector<std::int64_t> inputIds;
    std::vector<std::int64_t> outputIds;
    std::vector<TensorHealth> outputHealth; // one per tensor_protos entry
    std::vector<Alert> alerts;              // outputSlot set; event left to the caller
    // The output slots of the alerts above that TensorBoard does not raise (a bfloat16, float8 or
    // complex FULL_TENSOR value): NaNscope's alone.
    std::vector<std::uint32_t> notTensorBoardAlerts;
    bool malformedSummary = false;
    std::string_view modulePath;   // NaNscope's framework context (PyTorch); empty otherwise
    std::string_view codeLocation; // the CodeLocation's bytes (host name, stack frame ids)
};

DecodeStatus decodeExecution(std::string_view payload, DecodedExecution& out);

// The wall time and which oneof member a DebugEvent carries (0 when none), for any record.
struct EventKind
{
    double wallTime = 0;
    std::uint32_t member = 0; // DebugEvent field number of the oneof member
    std::string_view body;    // its bytes
};
bool peekEvent(std::string_view payload, EventKind& out);

// DebugEvent oneof field numbers (format §3.2).
namespace event {
constexpr std::uint32_t DebugMetadata = 3, SourceFile = 4, StackFrameWithId = 6,
                        GraphOpCreation = 7, DebuggedGraph = 8, Execution = 9,
                        GraphExecutionTrace = 10, GraphId = 11, DebuggedDevice = 12;
}

} // namespace nanscope::core
