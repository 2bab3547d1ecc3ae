// SPDX-License-Identifier: Apache-2.0
// Sizes and bytes of the recorder's messages. Field numbers are those of
// format/proto/nanscope/tfdbg/*.proto; each message writes its fields in number order.
#include "messages.hpp"

#include "encoding.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/format/wirereader.hpp"

namespace nanscope::detail::wire {
namespace {

template <typename Message>
std::size_t messageFieldSize(int field, const Message& m)
{
    return lengthFieldSize(field, m.ByteSizeLong());
}

template <typename Message>
void putMessageField(std::string& out, int field, const Message& m)
{
    putTag(out, field, WireType::LengthDelimited);
    putVarint(out, m.ByteSizeLong());
    m.appendTo(out);
}

template <typename Message>
std::size_t optionalMessageSize(int field, const std::optional<Message>& m)
{
    return m ? messageFieldSize(field, *m) : 0;
}

template <typename Message>
void putOptionalMessage(std::string& out, int field, const std::optional<Message>& m)
{
    if (m)
        putMessageField(out, field, *m);
}

// A proto2 optional int32 or string: written when set, zero or empty included.
std::size_t presentIntSize(int field, const std::optional<std::int32_t>& v)
{
    return v ? tagSize(field) + varintSize(varintOf(*v)) : 0;
}

void putPresentInt(std::string& out, int field, const std::optional<std::int32_t>& v)
{
    if (!v)
        return;
    putTag(out, field, WireType::Varint);
    putVarint(out, varintOf(*v));
}

} // namespace

// ---- TensorShapeProto { repeated Dim dim = 2; }  Dim { int64 size = 1; } ------------------

std::size_t TensorShapeProto::ByteSizeLong() const
{
    std::size_t n = 0;
    for (const Dim& d : m_dims)
        n += lengthFieldSize(2, varintFieldSize(1, varintOf(d.size())));
    return n;
}

void TensorShapeProto::appendTo(std::string& out) const
{
    for (const Dim& d : m_dims) {
        putTag(out, 2, WireType::LengthDelimited);
        putVarint(out, varintFieldSize(1, varintOf(d.size())));
        putVarintField(out, 1, varintOf(d.size()));
    }
}

// ---- TensorProto ----------------------------------------------------------------------------

namespace {

// Content copied in place beyond this size is freed at Clear(): a payload kept for reuse keeps a
// summary's few bytes, not a full tensor's.
constexpr std::size_t kKeptContentBytes = 4096;

} // namespace

TensorProto::TensorProto(const TensorProto& other)
    : m_dtype(other.m_dtype), m_hasShape(other.m_hasShape), m_shape(other.m_shape),
      m_source(other.m_source), m_content(other.m_content), m_adopted(other.m_adopted),
      m_borrowed(other.m_borrowed),
      m_values(other.m_values ? std::make_unique<Values>(*other.m_values) : nullptr)
{}

TensorProto& TensorProto::operator=(const TensorProto& other)
{
    if (this != &other)
        *this = TensorProto(other);
    return *this;
}

void TensorProto::Clear()
{
    m_dtype = 0;
    m_hasShape = false;
    m_shape.Clear();
    m_source = Content::Copied;
    if (m_content.capacity() > kKeptContentBytes)
        std::string().swap(m_content);
    else
        m_content.clear();
    std::vector<unsigned char>().swap(m_adopted); // a full tensor's copy
    m_borrowed = {};
    m_values.reset();
}

std::size_t TensorProto::ByteSizeLong() const
{
    std::size_t size = varintFieldSize(1, varintOf(m_dtype)) +
                       (m_hasShape ? messageFieldSize(2, m_shape) : 0) +
                       stringFieldSize(4, tensor_content());
    if (m_values) {
        const Values& v = *m_values;
        size += packedFixedSize(5, v.floats) + packedFixedSize(6, v.doubles) +
                packedVarintSize(7, v.ints) + packedFixedSize(9, v.scomplex) +
                packedVarintSize(10, v.int64s) + packedVarintSize(11, v.bools) +
                packedFixedSize(12, v.dcomplex) + packedVarintSize(13, v.halves) +
                packedVarintSize(16, v.uint32s) + packedVarintSize(17, v.uint64s);
    }
    return size;
}

void TensorProto::appendTo(std::string& out) const
{
    putVarintField(out, 1, varintOf(m_dtype));
    if (m_hasShape)
        putMessageField(out, 2, m_shape);
    putStringField(out, 4, tensor_content());
    if (!m_values)
        return;
    const Values& v = *m_values;
    putPackedFixed(out, 5, v.floats);
    putPackedFixed(out, 6, v.doubles);
    putPackedVarint(out, 7, v.ints);
    putPackedFixed(out, 9, v.scomplex);
    putPackedVarint(out, 10, v.int64s);
    putPackedVarint(out, 11, v.bools);
    putPackedFixed(out, 12, v.dcomplex);
    putPackedVarint(out, 13, v.halves);
    putPackedVarint(out, 16, v.uint32s);
    putPackedVarint(out, 17, v.uint64s);
}

// ---- GraphDebugInfo.FileLineCol (proto2) ----------------------------------------------------

std::size_t FileLineCol::ByteSizeLong() const
{
    return presentIntSize(1, m_fileIndex) + presentIntSize(2, m_line) +
           (m_func ? lengthFieldSize(4, m_func->size()) : 0);
}

void FileLineCol::appendTo(std::string& out) const
{
    putPresentInt(out, 1, m_fileIndex);
    putPresentInt(out, 2, m_line);
    if (m_func)
        putLengthField(out, 4, *m_func);
}

// ---- the tfdbg2 messages --------------------------------------------------------------------

std::size_t CodeLocation::ByteSizeLong() const
{
    return stringFieldSize(1, m_hostName) + repeatedStringSize(2, frameIds());
}

void CodeLocation::appendTo(std::string& out) const
{
    putStringField(out, 1, m_hostName);
    putRepeatedString(out, 2, frameIds());
}

std::size_t DebugMetadata::ByteSizeLong() const
{
    return stringFieldSize(1, m_version) + stringFieldSize(2, m_fileVersion) +
           stringFieldSize(3, m_runId);
}

void DebugMetadata::appendTo(std::string& out) const
{
    putStringField(out, 1, m_version);
    putStringField(out, 2, m_fileVersion);
    putStringField(out, 3, m_runId);
}

std::size_t SourceFile::ByteSizeLong() const
{
    return stringFieldSize(1, m_path) + stringFieldSize(2, m_hostName) +
           repeatedStringSize(3, m_lines);
}

void SourceFile::appendTo(std::string& out) const
{
    putStringField(out, 1, m_path);
    putStringField(out, 2, m_hostName);
    putRepeatedString(out, 3, m_lines);
}

std::size_t StackFrameWithId::ByteSizeLong() const
{
    return stringFieldSize(1, m_id) + optionalMessageSize(2, m_where);
}

void StackFrameWithId::appendTo(std::string& out) const
{
    putStringField(out, 1, m_id);
    putOptionalMessage(out, 2, m_where);
}

std::size_t GraphOpCreation::ByteSizeLong() const
{
    return stringFieldSize(1, m_opType) + stringFieldSize(2, m_opName) +
           stringFieldSize(3, m_graphName) + stringFieldSize(4, m_graphId) +
           stringFieldSize(5, m_deviceName) + repeatedStringSize(6, m_inputNames) +
           varintFieldSize(7, varintOf(m_numOutputs)) + optionalMessageSize(8, m_location) +
           packedVarintSize(9, m_outputIds);
}

void GraphOpCreation::appendTo(std::string& out) const
{
    putStringField(out, 1, m_opType);
    putStringField(out, 2, m_opName);
    putStringField(out, 3, m_graphName);
    putStringField(out, 4, m_graphId);
    putStringField(out, 5, m_deviceName);
    putRepeatedString(out, 6, m_inputNames);
    putVarintField(out, 7, varintOf(m_numOutputs));
    putOptionalMessage(out, 8, m_location);
    putPackedVarint(out, 9, m_outputIds);
}

std::size_t DebuggedGraph::ByteSizeLong() const
{
    return stringFieldSize(1, m_graphId) + stringFieldSize(2, m_graphName) +
           stringFieldSize(6, m_outerContextId);
}

void DebuggedGraph::appendTo(std::string& out) const
{
    putStringField(out, 1, m_graphId);
    putStringField(out, 2, m_graphName);
    putStringField(out, 6, m_outerContextId);
}

std::size_t DebuggedDevice::ByteSizeLong() const
{
    return stringFieldSize(1, m_name) + varintFieldSize(2, varintOf(m_id));
}

void DebuggedDevice::appendTo(std::string& out) const
{
    putStringField(out, 1, m_name);
    putVarintField(out, 2, varintOf(m_id));
}

std::size_t FrameworkContext::ByteSizeLong() const
{
    return stringFieldSize(1, m_modulePath) + stringFieldSize(2, m_forwardOpType) +
           stringFieldSize(3, m_forwardModulePath) + optionalMessageSize(4, m_forwardLocation);
}

void FrameworkContext::appendTo(std::string& out) const
{
    putStringField(out, 1, m_modulePath);
    putStringField(out, 2, m_forwardOpType);
    putStringField(out, 3, m_forwardModulePath);
    putOptionalMessage(out, 4, m_forwardLocation);
}

std::size_t Execution::ByteSizeLong() const
{
    std::size_t n = stringFieldSize(1, m_opType) + varintFieldSize(2, varintOf(m_numOutputs)) +
                    stringFieldSize(3, m_graphId) + packedVarintSize(4, m_inputIds) +
                    packedVarintSize(5, m_outputIds) + varintFieldSize(6, varintOf(m_mode));
    for (const auto& t : m_tensors)
        n += messageFieldSize(7, *t);
    return n + optionalMessageSize(8, m_location) + packedVarintSize(9, m_deviceIds) +
           optionalMessageSize(1000, m_context);
}

void Execution::appendTo(std::string& out) const
{
    putStringField(out, 1, m_opType);
    putVarintField(out, 2, varintOf(m_numOutputs));
    putStringField(out, 3, m_graphId);
    putPackedVarint(out, 4, m_inputIds);
    putPackedVarint(out, 5, m_outputIds);
    putVarintField(out, 6, varintOf(m_mode));
    for (const auto& t : m_tensors)
        putMessageField(out, 7, *t);
    putOptionalMessage(out, 8, m_location);
    putPackedVarint(out, 9, m_deviceIds);
    putOptionalMessage(out, 1000, m_context);
}

std::size_t GraphExecutionTrace::ByteSizeLong() const
{
    return stringFieldSize(1, m_contextId) + stringFieldSize(2, m_opName) +
           varintFieldSize(3, varintOf(m_slot)) + varintFieldSize(4, varintOf(m_mode)) +
           optionalMessageSize(5, m_tensor) + stringFieldSize(6, m_deviceName);
}

void GraphExecutionTrace::appendTo(std::string& out) const
{
    putStringField(out, 1, m_contextId);
    putStringField(out, 2, m_opName);
    putVarintField(out, 3, varintOf(m_slot));
    putVarintField(out, 4, varintOf(m_mode));
    putOptionalMessage(out, 5, m_tensor);
    putStringField(out, 6, m_deviceName);
}

std::size_t RecorderLosses::ByteSizeLong() const
{
    return varintFieldSize(1, m_dropped) + repeatedStringSize(2, m_stoppedFiles) +
           stringFieldSize(3, m_firstError);
}

void RecorderLosses::appendTo(std::string& out) const
{
    putVarintField(out, 1, m_dropped);
    putRepeatedString(out, 2, m_stoppedFiles);
    putStringField(out, 3, m_firstError);
}

// ---- DebugEvent: wall_time = 1, the oneof `what` (3 … 12), nanscope_recorder_losses = 1000 --

std::size_t DebugEvent::ByteSizeLong() const
{
    std::size_t n = doubleFieldSize(1, m_wallTime);
    visitWhat([&](int field, const auto& what) { n += messageFieldSize(field, what); });
    return n + optionalMessageSize(1000, m_losses);
}

void DebugEvent::appendTo(std::string& out) const
{
    putDoubleField(out, 1, m_wallTime);
    visitWhat([&](int field, const auto& what) { putMessageField(out, field, what); });
    putOptionalMessage(out, 1000, m_losses);
}

TraceFrame makeTraceFrame(std::string contextId, std::string opName, std::int32_t slot,
                          TensorDebugMode mode, std::string device)
{
    GraphExecutionTrace before;
    before.set_tfdbg_context_id(std::move(contextId));
    before.set_op_name(std::move(opName));
    before.set_output_slot(slot);
    before.set_tensor_debug_mode(mode);
    GraphExecutionTrace after;
    after.set_device_name(std::move(device));
    TraceFrame frame;
    before.appendTo(frame.head);
    after.appendTo(frame.tail);
    return frame;
}

namespace {

constexpr int kTraceField = 10;  // DebugEvent.graph_execution_trace
constexpr int kPayloadField = 5; // GraphExecutionTrace.tensor_proto

struct TraceSizes
{
    std::size_t trace; // the GraphExecutionTrace
    std::size_t event; // the DebugEvent around it
};

TraceSizes traceSizes(double wallTime, const TraceFrame& frame, const TensorProto& payload)
{
    const std::size_t trace =
        frame.head.size() + messageFieldSize(kPayloadField, payload) + frame.tail.size();
    return {trace, doubleFieldSize(1, wallTime) + lengthFieldSize(kTraceField, trace)};
}

} // namespace

std::size_t framedTraceSize(double wallTime, const TraceFrame& frame, const TensorProto& payload)
{
    return traceSizes(wallTime, frame, payload).event + format::kRecordOverhead;
}

void frameTrace(double wallTime, const TraceFrame& frame, const TensorProto& payload,
                std::string& record)
{
    const TraceSizes sizes = traceSizes(wallTime, frame, payload);
    record.clear();
    record.reserve(sizes.event + format::kRecordOverhead);
    format::appendRecordHeader(record, sizes.event);
    putDoubleField(record, 1, wallTime);
    putTag(record, kTraceField, WireType::LengthDelimited);
    putVarint(record, sizes.trace);
    record.append(frame.head);
    putMessageField(record, kPayloadField, payload);
    record.append(frame.tail);
    format::appendRecordFooter(record, std::string_view(record).substr(format::kRecordHeaderSize));
}

void frameEvent(const DebugEvent& event, std::string& record)
{
    const std::size_t size = event.ByteSizeLong();
    record.clear();
    record.reserve(size + format::kRecordOverhead);
    format::appendRecordHeader(record, size);
    event.appendTo(record);
    format::appendRecordFooter(record, std::string_view(record).substr(format::kRecordHeaderSize));
}

std::string framedEvent(const DebugEvent& event)
{
    std::string record;
    frameEvent(event, record);
    return record;
}

// ---- reading ----------------------------------------------------------------------------------

std::optional<std::string> metadataRunId(std::string_view event)
{
    // As protobuf parses it: the last value of a field counts, and bytes that are no message
    // are no record.
    using format::wire::Field;
    using format::wire::Reader;
    constexpr auto kLength = format::wire::WireType::LengthDelimited;
    Reader outer(event);
    Field field;
    std::string runId;
    while (outer.next(field)) {
        if (field.number != 3 || field.type != kLength)
            continue;
        Reader metadata(field.bytes);
        Field inner;
        while (metadata.next(inner))
            if (inner.number == 3 && inner.type == kLength)
                runId = std::string(inner.bytes);
        if (metadata.failed())
            return std::nullopt;
    }
    if (outer.failed())
        return std::nullopt;
    return runId;
}

} // namespace nanscope::detail::wire
