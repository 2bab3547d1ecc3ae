// SPDX-License-Identifier: GPL-3.0-or-later
#include "recorddecoding.hpp"

#include "healthrules.hpp"
#include "tensorproto.hpp"
#include "wirereader.hpp"

#include <array>

namespace nanscope::core {
namespace {

using wire::Field;
using wire::WireType;

bool isOneofMember(std::uint32_t number)
{
    return number >= 3 && number <= 12 && number != 5;
}

// Health and TensorBoard's alert for one payload tensor of `mode`.
void tensorHealth(DebugMode mode, std::string_view tensorBytes, bool present, TensorHealth& health,
                  bool& malformed, bool& alerts, Alert& alert)
{
    health = {};
    malformed = false;
    alerts = false;
    if (!present || mode == DebugMode::NoTensor)
        return;
    TensorProtoView view;
    if (!parseTensorProto(tensorBytes, view))
        return;
    if (mode == DebugMode::FullTensor) {
        health = fullTensorHealth(view);
        alerts = fullTensorAlert(health, alert); // float16/32/64 only, as TensorBoard
        return;
    }
    std::array<double, 16> values;
    const std::int64_t n = readDoubles(view, values);
    if (n <= 0)
        return; // TensorFlow's reader: no value (unparseable, or NO_TENSOR's empty tensor)
    const auto used = std::span<const double>(values.data(), n < 16 ? std::size_t(n) : 16);
    health = healthFromSummary(mode, used, malformed);
    alerts = summaryAlert(mode, used, alert);
}

} // namespace

bool peekEvent(std::string_view payload, EventKind& out)
{
    out = {};
    wire::Reader reader(payload);
    Field field;
    while (reader.next(field)) {
        if (field.number == 1 && field.type == WireType::Fixed64) {
            out.wallTime = field.asDouble();
        } else if (isOneofMember(field.number)) {
            out.member = field.number;
            out.body = field.bytes;
        }
    }
    return !reader.failed();
}

DecodeStatus decodeTrace(std::string_view payload, DecodedTrace& out)
{
    out.wallTime = 0;
    std::string_view body;
    bool isTrace = false;
    {
        wire::Reader reader(payload);
        Field field;
        while (reader.next(field)) {
            if (field.number == 1) {
                if (field.type != WireType::Fixed64)
                    return DecodeStatus::Malformed;
                out.wallTime = field.asDouble();
            } else if (field.number == event::GraphExecutionTrace) {
                if (field.type != WireType::LengthDelimited)
                    return DecodeStatus::Malformed;
                body = field.bytes;
                isTrace = true;
            } else if (isOneofMember(field.number)) {
                isTrace = false; // the last oneof member on the wire wins
            }
        }
        if (reader.failed())
            return DecodeStatus::Malformed;
    }
    if (!isTrace)
        return DecodeStatus::OtherKind;

    out.graphId = {};
    out.opName = {};
    out.outputSlot = 0;
    out.mode = DebugMode::Unspecified;
    std::string_view tensor;
    bool hasTensor = false;
    wire::Reader reader(body);
    Field field;
    while (reader.next(field)) {
        switch (field.number) {
        case 1: // tfdbg_context_id
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            out.graphId = field.bytes;
            break;
        case 2: // op_name
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            out.opName = field.bytes;
            break;
        case 3: // output_slot
            if (field.type != WireType::Varint)
                return DecodeStatus::Malformed;
            out.outputSlot = static_cast<std::uint32_t>(field.value);
            break;
        case 4: // tensor_debug_mode
            if (field.type != WireType::Varint)
                return DecodeStatus::Malformed;
            out.mode = debugModeFromWire(field.value);
            break;
        case 5: // tensor_proto
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            tensor = field.bytes;
            hasTensor = true;
            break;
        default:
            break;
        }
    }
    if (reader.failed())
        return DecodeStatus::Malformed;
    tensorHealth(out.mode, tensor, hasTensor, out.health, out.malformedSummary, out.alerts,
                 out.alert);
    out.alert.outputSlot = out.outputSlot;
    return DecodeStatus::Ok;
}

DecodeStatus decodeExecution(std::string_view payload, DecodedExecution& out)
{
    out.wallTime = 0;
    out.opType = {};
    out.graphId = {};
    out.numOutputs = 0;
    out.mode = DebugMode::Unspecified;
    out.inputIds.clear();
    out.outputIds.clear();
    out.outputHealth.clear();
    out.alerts.clear();
    out.malformedSummary = false;

    std::string_view body;
    bool isExecution = false;
    {
        wire::Reader reader(payload);
        Field field;
        while (reader.next(field)) {
            if (field.number == 1) {
                if (field.type != WireType::Fixed64)
                    return DecodeStatus::Malformed;
                out.wallTime = field.asDouble();
            } else if (field.number == event::Execution) {
                if (field.type != WireType::LengthDelimited)
                    return DecodeStatus::Malformed;
                body = field.bytes;
                isExecution = true;
            } else if (isOneofMember(field.number)) {
                isExecution = false;
            }
        }
        if (reader.failed())
            return DecodeStatus::Malformed;
    }
    if (!isExecution)
        return DecodeStatus::OtherKind;

    // Payload tensors come before the mode on the wire only in hand-made records; collect their
    // bytes first and judge them once the mode is known.
    thread_local std::vector<std::string_view> tensors;
    tensors.clear();
    wire::Reader reader(body);
    Field field;
    auto ids = [&](std::vector<std::int64_t>& to) {
        return wire::forEachVarint(
            field, [&](std::uint64_t v) { to.push_back(static_cast<std::int64_t>(v)); });
    };
    while (reader.next(field)) {
        switch (field.number) {
        case 1:
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            out.opType = field.bytes;
            break;
        case 2:
            if (field.type != WireType::Varint)
                return DecodeStatus::Malformed;
            out.numOutputs = static_cast<std::uint32_t>(field.value);
            break;
        case 3:
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            out.graphId = field.bytes;
            break;
        case 4:
            if (!ids(out.inputIds))
                return DecodeStatus::Malformed;
            break;
        case 5:
            if (!ids(out.outputIds))
                return DecodeStatus::Malformed;
            break;
        case 6:
            if (field.type != WireType::Varint)
                return DecodeStatus::Malformed;
            out.mode = debugModeFromWire(field.value);
            break;
        case 7:
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            tensors.push_back(field.bytes);
            break;
        default:
            break;
        }
    }
    if (reader.failed())
        return DecodeStatus::Malformed;

    out.outputHealth.resize(tensors.size());
    for (std::size_t slot = 0; slot < tensors.size(); ++slot) {
        bool malformed = false;
        bool alerts = false;
        Alert alert;
        tensorHealth(out.mode, tensors[slot], true, out.outputHealth[slot], malformed, alerts,
                     alert);
        out.malformedSummary |= malformed;
        if (alerts) {
            alert.outputSlot = static_cast<std::uint32_t>(slot);
            out.alerts.push_back(alert);
        }
    }
    return DecodeStatus::Ok;
}

} // namespace nanscope::core
