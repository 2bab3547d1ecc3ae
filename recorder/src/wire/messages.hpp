// SPDX-License-Identifier: Apache-2.0
// The tfdbg2 messages the recorder writes (format/proto), as plain C++ with the
// accessors of protobuf's generated classes that the recorder uses, and serialisation to
// exactly libprotobuf's bytes (wire/encoding.hpp says why they are hand-written). Only the
// fields the recorder sets are here; the reader uses the generated classes.
//
// Repeated messages are held by pointer, so that a pointer to one (a payload that a device
// summary fills in later) stays valid while more are added.
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/tensordebugmode.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace nanscope::detail::wire {

// The optional message field `field`, created empty if absent (protobuf's mutable_…()).
template <typename T>
T* ensure(std::optional<T>& field)
{
    if (!field)
        field.emplace();
    return &*field;
}

// Every message: its size, its bytes appended to `out`, and the two calls the recorder uses.
template <typename Message>
struct Serializable
{
    std::string SerializeAsString() const
    {
        std::string out;
        const auto& self = static_cast<const Message&>(*this);
        out.reserve(self.ByteSizeLong());
        self.appendTo(out);
        return out;
    }
    bool SerializeToString(std::string* out) const
    {
        out->clear();
        const auto& self = static_cast<const Message&>(*this);
        out->reserve(self.ByteSizeLong());
        self.appendTo(*out);
        return true;
    }
};

class TensorShapeProto : public Serializable<TensorShapeProto>
{
public:
    class Dim
    {
    public:
        void set_size(std::int64_t size) { m_size = size; }
        std::int64_t size() const { return m_size; }

    private:
        std::int64_t m_size = 0;
    };

    Dim* add_dim() { return &m_dims.emplace_back(); }
    void Clear() { m_dims.clear(); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::vector<Dim> m_dims;
};

// A payload is reused from call to call (a thread's traces, framed in place), so it is kept small
// and Clear() keeps what it allocated: a summary's content and shape need no allocation once the
// payload has held one. The value fields of FULL_TENSOR's eager form, rarely set, live apart.
class TensorProto : public Serializable<TensorProto>
{
public:
    TensorProto() = default;
    TensorProto(const TensorProto& other);
    TensorProto& operator=(const TensorProto& other);
    TensorProto(TensorProto&&) noexcept = default;
    TensorProto& operator=(TensorProto&&) noexcept = default;
    ~TensorProto() = default;

    // As protobuf's Clear(), keeping the content's storage unless it is large, and the shape's.
    void Clear();
    void set_dtype(DType dtype) { m_dtype = static_cast<int>(dtype); }
    TensorShapeProto* mutable_tensor_shape()
    {
        m_hasShape = true;
        return &m_shape;
    }
    void set_tensor_content(const void* data, std::size_t bytes)
    {
        m_content.assign(static_cast<const char*>(data), bytes);
        m_adopted.clear();
        m_borrowed = {};
        m_source = Content::Copied;
    }
    // The content without a copy: FULL_TENSOR's values, which may be gigabytes. Borrowed bytes
    // must outlive the serialisation, which happens within the record call that set them.
    void borrow_tensor_content(const void* data, std::size_t bytes)
    {
        m_content.clear();
        m_adopted.clear();
        m_borrowed = std::string_view(static_cast<const char*>(data), bytes);
        m_source = Content::Borrowed;
    }
    void adopt_tensor_content(std::vector<unsigned char>&& bytes)
    {
        m_content.clear();
        m_adopted = std::move(bytes);
        m_borrowed = {};
        m_source = Content::Adopted;
    }
    bool borrows_tensor_content() const { return m_source == Content::Borrowed; }
    std::string_view tensor_content() const
    {
        switch (m_source) {
        case Content::Copied:
            return m_content;
        case Content::Adopted:
            return {reinterpret_cast<const char*>(m_adopted.data()), m_adopted.size()};
        case Content::Borrowed:
            return m_borrowed;
        }
        return {};
    }
    void add_float_val(float v) { values().floats.push_back(v); }
    void add_double_val(double v) { values().doubles.push_back(v); }
    void add_int_val(std::int32_t v) { values().ints.push_back(v); }
    void add_scomplex_val(float v) { values().scomplex.push_back(v); }
    void add_int64_val(std::int64_t v) { values().int64s.push_back(v); }
    void add_bool_val(bool v) { values().bools.push_back(v ? 1 : 0); }
    void add_dcomplex_val(double v) { values().dcomplex.push_back(v); }
    void add_half_val(std::int32_t v) { values().halves.push_back(v); }
    void add_uint32_val(std::uint32_t v) { values().uint32s.push_back(v); }
    void add_uint64_val(std::uint64_t v) { values().uint64s.push_back(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    // The repeated value fields, by field number.
    struct Values
    {
        std::vector<float> floats;          // 5
        std::vector<double> doubles;        // 6
        std::vector<std::int32_t> ints;     // 7
        std::vector<float> scomplex;        // 9
        std::vector<std::int64_t> int64s;   // 10
        std::vector<std::uint8_t> bools;    // 11
        std::vector<double> dcomplex;       // 12
        std::vector<std::int32_t> halves;   // 13
        std::vector<std::uint32_t> uint32s; // 16
        std::vector<std::uint64_t> uint64s; // 17
    };
    Values& values()
    {
        if (!m_values)
            m_values = std::make_unique<Values>();
        return *m_values;
    }

    int m_dtype = 0;
    bool m_hasShape = false;
    TensorShapeProto m_shape; // written when m_hasShape
    enum class Content { Copied, Adopted, Borrowed };
    Content m_source = Content::Copied;
    std::string m_content;
    std::vector<unsigned char> m_adopted;
    std::string_view m_borrowed;
    std::unique_ptr<Values> m_values; // null until a value field is set
};

// GraphDebugInfo.FileLineCol: proto2, so a field set to zero is still written.
class FileLineCol
{
public:
    void set_file_index(std::int32_t v) { m_fileIndex = v; }
    void set_line(std::int32_t v) { m_line = v; }
    void set_func(std::string v) { m_func = std::move(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::optional<std::int32_t> m_fileIndex;
    std::optional<std::int32_t> m_line;
    std::optional<std::string> m_func;
};

class CodeLocation
{
public:
    void set_host_name(std::string v) { m_hostName = std::move(v); }
    void add_stack_frame_ids(std::string v) { m_frameIds.push_back(std::move(v)); }
    // All the frame ids at once, shared with the stack they were interned for: an execution per
    // op then copies none of their strings.
    void set_stack_frame_ids(std::shared_ptr<const std::vector<std::string>> ids)
    {
        m_sharedFrameIds = std::move(ids);
    }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    const std::vector<std::string>& frameIds() const
    {
        return m_sharedFrameIds ? *m_sharedFrameIds : m_frameIds;
    }

    std::string m_hostName;
    std::vector<std::string> m_frameIds;
    std::shared_ptr<const std::vector<std::string>> m_sharedFrameIds; // instead of m_frameIds
};

class DebugMetadata
{
public:
    void set_tensorflow_version(std::string v) { m_version = std::move(v); }
    void set_file_version(std::string v) { m_fileVersion = std::move(v); }
    void set_tfdbg_run_id(std::string v) { m_runId = std::move(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_version;
    std::string m_fileVersion;
    std::string m_runId;
};

class SourceFile
{
public:
    void set_file_path(std::string v) { m_path = std::move(v); }
    void set_host_name(std::string v) { m_hostName = std::move(v); }
    void add_lines(std::string v) { m_lines.push_back(std::move(v)); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_path;
    std::string m_hostName;
    std::vector<std::string> m_lines;
};

class StackFrameWithId
{
public:
    void set_id(std::string v) { m_id = std::move(v); }
    FileLineCol* mutable_file_line_col() { return ensure(m_where); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_id;
    std::optional<FileLineCol> m_where;
};

class GraphOpCreation
{
public:
    void set_op_type(std::string v) { m_opType = std::move(v); }
    void set_op_name(std::string v) { m_opName = std::move(v); }
    void set_graph_name(std::string v) { m_graphName = std::move(v); }
    void set_graph_id(std::string v) { m_graphId = std::move(v); }
    void set_device_name(std::string v) { m_deviceName = std::move(v); }
    void add_input_names(std::string v) { m_inputNames.push_back(std::move(v)); }
    void set_num_outputs(std::int32_t v) { m_numOutputs = v; }
    CodeLocation* mutable_code_location() { return ensure(m_location); }
    void add_output_tensor_ids(std::int32_t v) { m_outputIds.push_back(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_opType, m_opName, m_graphName, m_graphId, m_deviceName;
    std::vector<std::string> m_inputNames;
    std::int32_t m_numOutputs = 0;
    std::optional<CodeLocation> m_location;
    std::vector<std::int32_t> m_outputIds;
};

class DebuggedGraph
{
public:
    void set_graph_id(std::string v) { m_graphId = std::move(v); }
    void set_graph_name(std::string v) { m_graphName = std::move(v); }
    void set_outer_context_id(std::string v) { m_outerContextId = std::move(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_graphId, m_graphName, m_outerContextId;
};

class DebuggedDevice
{
public:
    void set_device_name(std::string v) { m_name = std::move(v); }
    void set_device_id(std::int32_t v) { m_id = v; }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_name;
    std::int32_t m_id = 0;
};

class FrameworkContext
{
public:
    void set_module_path(std::string v) { m_modulePath = std::move(v); }
    void set_forward_op_type(std::string v) { m_forwardOpType = std::move(v); }
    void set_forward_module_path(std::string v) { m_forwardModulePath = std::move(v); }
    CodeLocation* mutable_forward_code_location() { return ensure(m_forwardLocation); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_modulePath, m_forwardOpType, m_forwardModulePath;
    std::optional<CodeLocation> m_forwardLocation;
};

class Execution
{
public:
    void set_op_type(std::string v) { m_opType = std::move(v); }
    void set_num_outputs(std::int32_t v) { m_numOutputs = v; }
    void set_graph_id(std::string v) { m_graphId = std::move(v); }
    void add_input_tensor_ids(std::int64_t v) { m_inputIds.push_back(v); }
    void add_output_tensor_ids(std::int64_t v) { m_outputIds.push_back(v); }
    void set_tensor_debug_mode(TensorDebugMode v) { m_mode = static_cast<int>(v); }
    TensorProto* add_tensor_protos()
    {
        return m_tensors.emplace_back(std::make_unique<TensorProto>()).get();
    }
    CodeLocation* mutable_code_location() { return ensure(m_location); }
    void add_output_tensor_device_ids(std::int32_t v) { m_deviceIds.push_back(v); }
    FrameworkContext* mutable_framework_context() { return ensure(m_context); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_opType;
    std::int32_t m_numOutputs = 0;
    std::string m_graphId;
    std::vector<std::int64_t> m_inputIds, m_outputIds;
    int m_mode = 0;
    std::vector<std::unique_ptr<TensorProto>> m_tensors;
    std::optional<CodeLocation> m_location;
    std::vector<std::int32_t> m_deviceIds;
    std::optional<FrameworkContext> m_context;
};

class GraphExecutionTrace
{
public:
    void set_tfdbg_context_id(std::string v) { m_contextId = std::move(v); }
    void set_op_name(std::string v) { m_opName = std::move(v); }
    void set_output_slot(std::int32_t v) { m_slot = v; }
    void set_tensor_debug_mode(TensorDebugMode v) { m_mode = static_cast<int>(v); }
    TensorProto* mutable_tensor_proto() { return ensure(m_tensor); }
    void set_device_name(std::string v) { m_deviceName = std::move(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::string m_contextId, m_opName;
    std::int32_t m_slot = 0;
    int m_mode = 0;
    std::optional<TensorProto> m_tensor;
    std::string m_deviceName;
};

// NaNscope's note in the metadata file of what a recorder lost (field 1000 of DebugEvent).
class RecorderLosses
{
public:
    void set_records_dropped(std::uint64_t v) { m_dropped = v; }
    void add_stopped_files(std::string v) { m_stoppedFiles.push_back(std::move(v)); }
    void set_first_error(std::string v) { m_firstError = std::move(v); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    std::uint64_t m_dropped = 0;
    std::vector<std::string> m_stoppedFiles;
    std::string m_firstError;
};

class DebugEvent : public Serializable<DebugEvent>
{
public:
    void Clear() { *this = DebugEvent(); }
    void set_wall_time(double v) { m_wallTime = v; }
    double wall_time() const { return m_wallTime; }

    DebugMetadata* mutable_debug_metadata() { return what<DebugMetadata>(); }
    SourceFile* mutable_source_file() { return what<SourceFile>(); }
    StackFrameWithId* mutable_stack_frame_with_id() { return what<StackFrameWithId>(); }
    GraphOpCreation* mutable_graph_op_creation() { return what<GraphOpCreation>(); }
    DebuggedGraph* mutable_debugged_graph() { return what<DebuggedGraph>(); }
    Execution* mutable_execution() { return what<Execution>(); }
    GraphExecutionTrace* mutable_graph_execution_trace() { return what<GraphExecutionTrace>(); }
    DebuggedDevice* mutable_debugged_device() { return what<DebuggedDevice>(); }
    RecorderLosses* mutable_nanscope_recorder_losses() { return ensure(m_losses); }

    std::size_t ByteSizeLong() const;
    void appendTo(std::string& out) const;

private:
    // The oneof `what`: at most one of these is set. Pointers rather than a std::variant, whose
    // emplace and visit may throw, so that a destructor that writes a last event cannot.
    using What = std::tuple<std::unique_ptr<DebugMetadata>, std::unique_ptr<SourceFile>,
                            std::unique_ptr<StackFrameWithId>, std::unique_ptr<GraphOpCreation>,
                            std::unique_ptr<DebuggedGraph>, std::unique_ptr<Execution>,
                            std::unique_ptr<GraphExecutionTrace>, std::unique_ptr<DebuggedDevice>>;
    // Their field numbers, in the tuple's order.
    static constexpr int kWhatField[] = {3, 4, 6, 7, 8, 9, 10, 12};

    template <typename T>
    T* what()
    {
        auto& slot = std::get<std::unique_ptr<T>>(m_what);
        if (!slot) {
            std::apply([](auto&... held) { (held.reset(), ...); }, m_what);
            slot = std::make_unique<T>();
        }
        return slot.get();
    }
    // Calls f(field number, message) for the alternative that is set, if any.
    template <std::size_t I = 0, typename F>
    void visitWhat(F&& f) const
    {
        if constexpr (I < std::tuple_size_v<What>) {
            if (const auto& held = std::get<I>(m_what))
                f(kWhatField[I], *held);
            else
                visitWhat<I + 1>(std::forward<F>(f));
        }
    }

    double m_wallTime = 0.0;
    What m_what;
    std::optional<RecorderLosses> m_losses;
};

// The bytes of a GraphExecutionTrace around its tensor_proto: the fields before it (context id,
// op name, output slot, debug mode) and after it (device name). They are the same for every
// trace of one op output in one mode, so a trace is framed from them and its payload without
// building a message: a training step's traces cost a copy and a CRC each.
struct TraceFrame
{
    std::string head;
    std::string tail;
};

TraceFrame makeTraceFrame(std::string contextId, std::string opName, std::int32_t slot,
                          TensorDebugMode mode, std::string device);

// The DebugEvent {wall_time, graph_execution_trace: frame around payload} as a framed TFRecord
// into `record` (its storage reused): byte for byte framedEvent of that event.
void frameTrace(double wallTime, const TraceFrame& frame, const TensorProto& payload,
                std::string& record);
// The bytes frameTrace writes for these parts, the record's framing included.
std::size_t framedTraceSize(double wallTime, const TraceFrame& frame, const TensorProto& payload);

// The event as a framed TFRecord, serialised in place: the one copy of its bytes.
std::string framedEvent(const DebugEvent& event);
// The same into `record`, whose storage is reused.
void frameEvent(const DebugEvent& event, std::string& record);

// The run id of a metadata file's first record (DebugEvent.debug_metadata.tfdbg_run_id);
// nullopt when the bytes are no such record.
std::optional<std::string> metadataRunId(std::string_view event);

} // namespace nanscope::detail::wire
