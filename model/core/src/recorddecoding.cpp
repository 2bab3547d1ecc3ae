// SPDX-License-Identifier: GPL-3.0-or-later
#include "recorddecoding.hpp"

#include "healthrules.hpp"
#include "tensorproto.hpp"
#include "wirereader.hpp"

#include <array>
#include <cstring>
#include <limits>

namespace nanscope::core {
namespace {

using wire::Field;
using wire::WireType;

bool isOneofMember(std::uint32_t number)
{
    return number >= 3 && number <= 12 && number != 5;
}

// A FULL_HEALTH vector as TensorFlow writes it (its exact bytes, counts that add up): the bulk of a
// large logdir, read in one step. False for anything else, which the general rules below then
// judge; for these vectors they give the same health and alert (tested).
bool plainFullHealth(std::string_view tensorBytes, TensorHealth& health, bool& alerts, Alert& alert)
{
    const std::string_view content = summaryVectorContent(tensorBytes);
    if (!fullHealthContentIsValid(content))
        return false;
    double v[11];
    std::memcpy(v, content.data(), sizeof v); // little-endian hosts, as everywhere
    constexpr double kIntMax = std::numeric_limits<int>::max();
    health.detail = TensorHealth::Detail::Full;
    health.dtype = static_cast<DType>(v[2] <= kIntMax ? static_cast<int>(v[2]) : 0);
    health.rank = v[3] <= kIntMax ? static_cast<int>(v[3]) : -1;
    health.size = v[4];
    health.negativeInfinity = v[5];
    health.positiveInfinity = v[6];
    health.nan = v[7];
    health.negativeFinite = v[8];
    health.zero = v[9];
    health.positiveFinite = v[10];
    health.nonFinite = v[5] != 0 || v[6] != 0 || v[7] != 0;
    alerts = health.nonFinite;
    if (alerts) {
        alert.counts = Alert::Counts::Float;
        alert.size = v[4];
        alert.negativeInfinity = v[5];
        alert.positiveInfinity = v[6];
        alert.nan = v[7];
    }
    alert.invalidSummary = false;
    return true;
}

// Health and NaNscope's alert for one payload tensor of `mode`. `tensorBoard`: TensorBoard raises
// it too. Only a FULL_TENSOR value that its reader does not check (bfloat16, float8, complex)
// makes an alert of NaNscope's alone.
void tensorHealth(DebugMode mode, std::string_view tensorBytes, bool present, TensorHealth& health,
                  bool& malformed, bool& alerts, bool& tensorBoard, Alert& alert)
{
    health.invalid.clear();
    malformed = false;
    alerts = false;
    tensorBoard = false;
    if (present && mode == DebugMode::FullHealth &&
        plainFullHealth(tensorBytes, health, alerts, alert)) {
        tensorBoard = alerts;
        return;
    }
    health = {};
    if (!present || mode == DebugMode::NoTensor)
        return;
    TensorProtoView view;
    if (!parseTensorProto(tensorBytes, view))
        return;
    if (mode == DebugMode::FullTensor) {
        health = fullTensorHealth(view);
        tensorBoard = fullTensorAlert(health, alert); // float16/32/64 only, as TensorBoard
        alerts = tensorBoard || fullTensorNonFiniteAlert(health, alert);
        return;
    }
    std::array<double, 16> values;
    const std::int64_t n = readDoubles(view, values);
    if (n <= 0)
        return; // TensorFlow's reader: no value (unparseable, or NO_TENSOR's empty tensor)
    const auto used = std::span<const double>(values.data(), n < 16 ? std::size_t(n) : 16);
    health = healthFromSummary(mode, used, view.elementCount, malformed);
    alerts = summaryAlert(mode, used, alert);
    tensorBoard = alerts;
    alert.invalidSummary = !health.invalid.empty();
}

// A length-delimited field's bytes; false (malformed) for any other wire type.
bool takeBytes(const Field& field, std::string_view& to)
{
    if (field.type != WireType::LengthDelimited)
        return false;
    to = field.bytes;
    return true;
}

// The outer DebugEvent, in one pass: its wall time (field 1) and its oneof member, the last one on
// the wire winning as in protobuf; `out` starts zeroed. A decoder names the member it `expected`:
// then a wall time that is not a fixed64, or that member not length-delimited, is Malformed (the
// scan stops there), and another member is OtherKind. With `expected` 0 (peekEvent) such fields
// are skipped and any member is Ok. Inline: it runs for every record, and `expected` is a
// constant at each call.
inline DecodeStatus scanEnvelope(std::string_view payload, std::uint32_t expected, EventKind& out)
{
    wire::Reader reader(payload);
    Field field;
    while (reader.next(field)) {
        if (field.number == 1) {
            if (field.type == WireType::Fixed64)
                out.wallTime = field.asDouble();
            else if (expected != 0)
                return DecodeStatus::Malformed;
        } else if (expected != 0 && field.number == expected) { // tested first: the common case
            if (field.type != WireType::LengthDelimited)
                return DecodeStatus::Malformed;
            out.member = expected;
            out.body = field.bytes;
        } else if (isOneofMember(field.number)) {
            out.member = field.number;
            out.body = field.bytes;
        }
    }
    if (reader.failed())
        return DecodeStatus::Malformed;
    return expected == 0 || out.member == expected ? DecodeStatus::Ok : DecodeStatus::OtherKind;
}

} // namespace

bool peekEvent(std::string_view payload, EventKind& out)
{
    out = {};
    return scanEnvelope(payload, 0, out) == DecodeStatus::Ok;
}

DecodeStatus decodeTrace(std::string_view payload, DecodedTrace& out)
{
    EventKind envelope;
    const DecodeStatus status = scanEnvelope(payload, event::GraphExecutionTrace, envelope);
    out.wallTime = envelope.wallTime;
    if (status != DecodeStatus::Ok)
        return status;

    out.graphId = {};
    out.opName = {};
    out.outputSlot = 0;
    out.mode = DebugMode::Unspecified;
    out.deviceName = {};
    std::string_view tensor;
    bool hasTensor = false;
    wire::Reader reader(envelope.body);
    Field field;
    while (reader.next(field)) {
        switch (field.number) {
        case 1: // tfdbg_context_id
            if (!takeBytes(field, out.graphId))
                return DecodeStatus::Malformed;
            break;
        case 2: // op_name
            if (!takeBytes(field, out.opName))
                return DecodeStatus::Malformed;
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
        case 6: // device_name
            if (!takeBytes(field, out.deviceName))
                return DecodeStatus::Malformed;
            break;
        default:
            break;
        }
    }
    if (reader.failed())
        return DecodeStatus::Malformed;
    tensorHealth(out.mode, tensor, hasTensor, out.health, out.malformedSummary, out.alerts,
                 out.tensorBoardAlert, out.alert);
    out.alert.outputSlot = out.outputSlot;
    return DecodeStatus::Ok;
}

namespace {

// FrameworkContext.module_path (field 1); empty when the message is malformed, which costs the
// execution nothing else.
std::string_view contextModulePath(std::string_view context)
{
    wire::Reader reader(context);
    Field field;
    std::string_view path;
    while (reader.next(field))
        if (field.number == 1 && field.type == WireType::LengthDelimited)
            path = field.bytes;
    return reader.failed() ? std::string_view{} : path;
}

// `out` is reused for every record of a file: its vectors are cleared, not freed, so that their
// capacity carries over to the next record.
void clearExecution(DecodedExecution& out)
{
    out.opType = {};
    out.graphId = {};
    out.numOutputs = 0;
    out.mode = DebugMode::Unspecified;
    out.inputIds.clear();
    out.outputIds.clear();
    out.outputHealth.clear();
    out.alerts.clear();
    out.notTensorBoardAlerts.clear();
    out.malformedSummary = false;
    out.modulePath = {};
    out.codeLocation = {};
}

// A repeated int64 field, packed or not, appended to `to`.
bool appendIds(const Field& field, std::vector<std::int64_t>& to)
{
    return wire::forEachVarint(
        field, [&to](std::uint64_t v) { to.push_back(static_cast<std::int64_t>(v)); });
}

// One field of an Execution message into `out`; a payload tensor's bytes go to `tensors`, to be
// judged once the mode is known. False: the field is malformed.
bool readExecutionField(const Field& field, DecodedExecution& out,
                        std::vector<std::string_view>& tensors)
{
    switch (field.number) {
    case 1:
        return takeBytes(field, out.opType);
    case 2:
        if (field.type != WireType::Varint)
            return false;
        out.numOutputs = static_cast<std::uint32_t>(field.value);
        return true;
    case 3:
        return takeBytes(field, out.graphId);
    case 4:
        return appendIds(field, out.inputIds);
    case 5:
        return appendIds(field, out.outputIds);
    case 6:
        if (field.type != WireType::Varint)
            return false;
        out.mode = debugModeFromWire(field.value);
        return true;
    case 7:
        if (field.type != WireType::LengthDelimited)
            return false;
        tensors.push_back(field.bytes);
        return true;
    case 1000: // framework_context: only its module path is indexed
        if (field.type != WireType::LengthDelimited)
            return false;
        out.modulePath = contextModulePath(field.bytes);
        return true;
    case 8:
        return takeBytes(field, out.codeLocation);
    default:
        return true;
    }
}

// Each payload tensor's health, and an alert for each non-finite one, in slot order.
void judgeOutputs(const std::vector<std::string_view>& tensors, DecodedExecution& out)
{
    out.outputHealth.resize(tensors.size());
    for (std::size_t slot = 0; slot < tensors.size(); ++slot) {
        bool malformed = false;
        bool alerts = false;
        bool tensorBoard = false;
        Alert alert;
        tensorHealth(out.mode, tensors[slot], true, out.outputHealth[slot], malformed, alerts,
                     tensorBoard, alert);
        out.malformedSummary |= malformed;
        if (alerts) {
            alert.outputSlot = static_cast<std::uint32_t>(slot);
            out.alerts.push_back(alert);
            if (!tensorBoard)
                out.notTensorBoardAlerts.push_back(alert.outputSlot);
        }
    }
}

} // namespace

DecodeStatus decodeExecution(std::string_view payload, DecodedExecution& out)
{
    clearExecution(out);
    EventKind envelope;
    const DecodeStatus status = scanEnvelope(payload, event::Execution, envelope);
    out.wallTime = envelope.wallTime;
    if (status != DecodeStatus::Ok)
        return status;

    // Payload tensors come before the mode on the wire only in hand-made records; collect their
    // bytes first and judge them once the mode is known. Kept per thread: no allocation per record.
    thread_local std::vector<std::string_view> tensors;
    tensors.clear();
    wire::Reader reader(envelope.body);
    Field field;
    while (reader.next(field))
        if (!readExecutionField(field, out, tensors))
            return DecodeStatus::Malformed;
    if (reader.failed())
        return DecodeStatus::Malformed;
    judgeOutputs(tensors, out);
    return DecodeStatus::Ok;
}

} // namespace nanscope::core
