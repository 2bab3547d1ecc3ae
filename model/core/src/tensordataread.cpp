// SPDX-License-Identifier: GPL-3.0-or-later
// readTensorData: finds the tensor in its record with the wire reader, as the index's decoders
// do (recorddecoding.cpp: the last tensor_proto on the wire wins), so that the values shown are
// those whose health the index counted; no libprotobuf message, so the record's bytes are held
// once.
#include "indexstate.hpp"
#include "nanscope/core/snapshot.hpp"
#include "nanscope/core/tensordata.hpp"
#include "recorddecoding.hpp"
#include "tensordatabuilder.hpp"
#include "wirereader.hpp"

namespace nanscope::core {
namespace {

using wire::Field;
using wire::WireType;

struct LocatedTensor
{
    DebugMode mode = DebugMode::Unspecified;
    std::string_view bytes;
    bool present = false;
    std::size_t count = 0; // an execution's tensor_protos
};

// GraphExecutionTrace: tensor_debug_mode = 4, tensor_proto = 5. Execution: tensor_debug_mode = 6,
// tensor_protos = 7 (the `slot`th).
bool locateTensor(std::string_view payload, EventSource source, std::uint32_t slot,
                  LocatedTensor& out)
{
    const bool graph = source == EventSource::Graph;
    EventKind kind;
    if (!peekEvent(payload, kind) ||
        kind.member != (graph ? event::GraphExecutionTrace : event::Execution))
        return false;
    const std::uint32_t modeField = graph ? 4 : 6;
    const std::uint32_t tensorField = graph ? 5 : 7;
    wire::Reader reader(kind.body);
    Field field;
    while (reader.next(field)) {
        if (field.number == modeField && field.type == WireType::Varint) {
            out.mode = debugModeFromWire(field.value);
        } else if (field.number == tensorField) {
            if (field.type != WireType::LengthDelimited)
                return false;
            if (graph || out.count == slot) {
                out.bytes = field.bytes;
                out.present = true;
            }
            ++out.count;
        }
    }
    return !reader.failed();
}

std::string eventName(EventRef event)
{
    return (event.source == EventSource::Graph ? "graph trace #" : "execution #") +
           std::to_string(event.index);
}

} // namespace

ReadResult<TensorData> readTensorData(const Snapshot& snapshot, EventRef event, std::uint32_t slot,
                                      const std::atomic_bool* stop)
{
    ReadResult<TensorData> result;
    const Snapshot::Data& data = snapshot.data();
    const bool graph = event.source == EventSource::Graph;
    if (event.index >= (graph ? snapshot.traceCount() : snapshot.executionCount())) {
        result.error = "no " + eventName(event);
        return result;
    }
    auto record =
        graph ? readRecord(*data.files, data.traceFile(snapshot.traceFileIndex(event.index)),
                           snapshot.trace(event.index).offset, data.maxRecordBytes)
              : readRecord(*data.files, data.mainFile(kExecutionSuffix),
                           snapshot.execution(event.index).offset, data.maxRecordBytes);
    if (!record) {
        result.error = record.error;
        return result;
    }
    LocatedTensor tensor;
    if (!locateTensor(*record, event.source, slot, tensor)) {
        result.error = "the record of " + eventName(event) + " is corrupt";
        return result;
    }
    if (tensor.mode != DebugMode::FullTensor) {
        result.error = eventName(event) + " was recorded in " + std::string(toString(tensor.mode)) +
                       " mode: the logdir holds no values of its tensors";
        return result;
    }
    if (!tensor.present) {
        result.error = graph ? eventName(event) + " holds no tensor"
                             : eventName(event) + " has " + std::to_string(tensor.count) +
                                   " output tensors, not an output " + std::to_string(slot);
        return result;
    }
    const auto offset = static_cast<std::size_t>(tensor.bytes.data() - record->data());
    const std::size_t length = tensor.bytes.size();
    auto built = TensorDataBuilder::build(std::move(*record.value), offset, length,
                                          data.maxDecodedBytes, stop);
    if (!built)
        built.error = eventName(event) + ": " + built.error;
    return built;
}

std::uint32_t firstNonFiniteSlot(const Snapshot& snapshot, EventRef event)
{
    if (event.source == EventSource::Graph || event.index >= snapshot.executionCount())
        return 0;
    const std::vector<HealthDigest> outputs = snapshot.executionOutputHealth(event.index);
    for (std::size_t slot = 0; slot < outputs.size(); ++slot)
        if (outputs[slot].nonFinite())
            return static_cast<std::uint32_t>(slot);
    return 0;
}

} // namespace nanscope::core
