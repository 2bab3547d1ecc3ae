// SPDX-License-Identifier: Apache-2.0
#include "nanscope/recorder.hpp"

#include "codelocations.hpp"
#include "devicepayloads.hpp"
#include "dumppolicy.hpp"
#include "eventwriter.hpp"
#include "existingruns.hpp"
#include "exitregistry.hpp"
#include "ids.hpp"
#include "internedstacks.hpp"
#include "nanscope/version.hpp"
#include "opstate.hpp"
#include "pendingevents.hpp"
#include "tensornames.hpp"
#include "tensorpayloads.hpp"
#include "utf8text.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

namespace nanscope {

namespace {

// Why names must be UTF-8: tfdbg2's text fields are protobuf strings.
constexpr std::string_view kUtf8Reason =
    "(tfdbg2 stores it as a protobuf string: libprotobuf and TensorFlow's reader refuse a record "
    "whose string is not UTF-8)";

constexpr std::string_view kDefaultDevice = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr int kMaxOutputs = 1 << 20;

Status closedStatus()
{
    return {ErrorCode::Closed, "the recorder is closed"};
}

// The first non-Ok of two statuses.
Status either(Status first, Status second)
{
    return first.ok() ? std::move(second) : std::move(first);
}

} // namespace

std::string_view recorderVersion()
{
    static const std::string version = std::string("NaNscope ") + NANSCOPE_VERSION;
    return version;
}

bool deviceTensorsSupported()
{
    return detail::deviceTensorSupport().ok();
}

struct Recorder::Impl
{
    RecorderOptions options;
    std::string runId;
    detail::EventWriter writer;
    detail::PendingEvents pending{writer}; // events waiting for device summaries
    std::unique_ptr<detail::CodeLocations> locations;
    detail::InternedStacks stacks; // of interpreters, by StackId
    detail::DumpPolicy policy;

    std::mutex graphMutex;
    // The ops of each declared graph, by name, with their number of outputs.
    std::unordered_map<std::string, std::unordered_map<std::string, int>> opsByGraph;

    std::mutex deviceMutex;
    std::unordered_map<std::string, std::int32_t> deviceIds;

    std::atomic<std::int32_t> nextSymbolicId{1};
    std::atomic<std::int64_t> nextEagerId{1};
    std::atomic<bool> closed{false};
    std::once_flag closeOnce;
    Status closeStatus;
    detail::ExitToken exitToken = 0;

    std::atomic<std::uint64_t> tracesRecorded{0};
    std::atomic<std::uint64_t> tracesSkipped{0};
    std::atomic<std::uint64_t> executionsRecorded{0};

    // Queues a call's events behind its launched summaries, or writes them (queued behind
    // earlier ones, if any wait) when it has none.
    Status emitAll(std::vector<detail::QueuedEvent> events, detail::DeviceSummaries device)
    {
        if (device.empty()) {
            Status status;
            for (const auto& e : events)
                status = either(std::move(status), emit(e.kind, *e.event));
            return status;
        }
        Status status = pending.push(std::move(events), std::move(device));
        return either(std::move(status),
                      either(pending.drain(false), writer.takeUnreportedError()));
    }

    // Writes an event now, or queues it when events recorded earlier wait for device values.
    Status emit(detail::FileKind kind, const detail::wire::DebugEvent& event)
    {
        if (pending.empty())
            return writeEvent(kind, event);
        pending.pushReady(kind, detail::wire::framedEvent(event));
        return either(pending.drain(false), writer.takeUnreportedError());
    }

    // Checks a trace's op and slot; `skip` says the filters exclude it.
    Status checkTrace(const OpHandle& op, int slot, const TensorView& tensor, bool& skip) const
    {
        if (!op.valid())
            return {ErrorCode::InvalidArgument, "recordTrace needs an op from declareOp"};
        const detail::OpState& state = *op.m_state;
        if (slot < 0 || slot >= state.numOutputs)
            return {ErrorCode::InvalidArgument,
                    "op " + state.name + " has no output slot " + std::to_string(slot)};
        skip = !policy.tracesTensor(state.typeSelected, tensor.dtype);
        return {};
    }

    // NaNscope's framework context, only when there is one: TensorFlow-shaped logdirs stay
    // byte for byte what they were.
    Status setContext(detail::wire::Execution& execution, const FrameworkContext& context)
    {
        if (context.empty())
            return {};
        auto* c = execution.mutable_framework_context();
        c->set_module_path(context.modulePath);
        c->set_forward_op_type(context.forwardOpType);
        c->set_forward_module_path(context.forwardModulePath);
        if (context.forwardStackId || !context.forwardStack.empty()) {
            auto frames = context.forwardStackId
                              ? stacks.frameIds(*context.forwardStackId)
                              : stacks.shared(locations->frameIds(std::span(context.forwardStack)));
            if (!frames)
                return frames.status();
            auto* location = c->mutable_forward_code_location();
            location->set_host_name(options.hostName);
            for (const auto& id : **frames)
                location->add_stack_frame_ids(id);
        }
        return {};
    }

    Status writeEvent(detail::FileKind kind, const detail::wire::DebugEvent& event)
    {
        return either(writer.writeFramed(kind, detail::wire::framedEvent(event)),
                      writer.takeUnreportedError());
    }

    Status close()
    {
        std::call_once(closeOnce, [this] {
            closed = true;
            Status drained = pending.close();
            closeStatus = either(std::move(drained), writer.close());
        });
        return closeStatus;
    }
};

Recorder::Recorder(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Recorder::~Recorder()
{
    if (m_impl->exitToken != 0)
        detail::unregisterAtExit(m_impl->exitToken);
    (void)m_impl->close();
}

Result<std::unique_ptr<Recorder>> Recorder::open(RecorderOptions options)
{
    if (Status s = detail::DumpPolicy::checkOptions(options.mode, options.tensorDtypes); !s.ok())
        return s;
    if (options.flushInterval.count() < 0)
        return Status{ErrorCode::InvalidArgument, "the flush interval is negative"};
    options.flushInterval = std::max(options.flushInterval, std::chrono::milliseconds(1));

    auto impl = std::make_unique<Impl>();
    if (Status s = impl->policy.configure(options.mode, options.tensorDtypes, options.opTypeRegex);
        !s.ok())
        return s;
    if (!detail::isValidUtf8(options.runId) || !detail::isValidUtf8(options.hostName))
        return Status{ErrorCode::InvalidArgument,
                      "the run id and the host name must be UTF-8 " + std::string(kUtf8Reason)};
    if (options.hostName.empty())
        options.hostName = detail::validUtf8(detail::localHostName());
    if (options.hostName.find('/') != std::string::npos)
        return Status{ErrorCode::InvalidArgument,
                      "the host name \"" + options.hostName + "\" contains '/'"};
    impl->runId = options.runId.empty() ? detail::makeRunId() : options.runId;
    impl->options = options;
    if (auto other = detail::otherRunIn(options.dumpRoot, impl->runId))
        return Status{ErrorCode::AlreadyExists,
                      "the dump root " + options.dumpRoot.string() + " already holds run \"" +
                          other->runId + "\" (" + other->metadataFile.filename().string() +
                          "); TensorFlow's reader and TensorBoard refuse a directory with two "
                          "runs: record into another directory, remove that run's files, or "
                          "set runId to \"" +
                          other->runId + "\" to add a host to it"};

    detail::EventWriterOptions writerOptions;
    writerOptions.dumpRoot = options.dumpRoot;
    writerOptions.hostName = options.hostName;
    writerOptions.runId = impl->runId;
    writerOptions.version = std::string(recorderVersion());
    writerOptions.circularBufferSize = options.circularBufferSize;
    writerOptions.flushInterval = options.flushInterval;
    writerOptions.flushOnCrash = options.flushOnCrash;
    if (Status s = impl->writer.open(writerOptions); !s.ok())
        return s;
    impl->pending.setPollInterval(options.flushInterval);

    impl->locations = std::make_unique<detail::CodeLocations>(
        impl->writer, detail::CodeLocationOptions{options.hostName, options.captureNativeStacks,
                                                  options.maxSourceFileBytes});
    Impl* raw = impl.get();
    if (options.closeAtExit)
        impl->exitToken = detail::registerAtExit([raw] { (void)raw->close(); });
    return std::unique_ptr<Recorder>(new Recorder(std::move(impl)));
}

const RecorderOptions& Recorder::options() const
{
    return m_impl->options;
}

const std::string& Recorder::runId() const
{
    return m_impl->runId;
}

const std::filesystem::path& Recorder::filePrefix() const
{
    return m_impl->writer.prefix();
}

Result<GraphHandle> Recorder::declareGraph(std::string_view name, const GraphHandle* outer)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    std::lock_guard lock(d.graphMutex);
    if (!detail::isValidUtf8(name))
        return Status{ErrorCode::InvalidArgument,
                      "a graph name must be UTF-8 " + std::string(kUtf8Reason)};
    if (outer && !d.opsByGraph.contains(outer->id))
        return Status{ErrorCode::NotFound,
                      "the outer graph " + outer->id + " was not declared by this recorder"};
    GraphHandle graph{detail::makeUuid4(), std::string(name)};
    detail::wire::DebugEvent event;
    event.set_wall_time(detail::wallTimeSeconds());
    auto* g = event.mutable_debugged_graph();
    g->set_graph_id(graph.id);
    g->set_graph_name(graph.name);
    if (outer)
        g->set_outer_context_id(outer->id);
    if (Status s = d.writeEvent(detail::FileKind::Graphs, event); !s.ok())
        return s;
    d.opsByGraph.try_emplace(graph.id);
    return graph;
}

Result<OpHandle> Recorder::declareOp(const OpSpec& spec, const CodeLocation& where)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (!detail::isValidUtf8(spec.type) || !detail::isValidUtf8(spec.name) ||
        !std::all_of(spec.inputs.begin(), spec.inputs.end(),
                     [](const auto& input) { return detail::isValidUtf8(input); }))
        return Status{ErrorCode::InvalidArgument,
                      "an op's type, name and inputs must be UTF-8 " + std::string(kUtf8Reason)};
    if (spec.type.empty())
        return Status{ErrorCode::InvalidArgument, "op " + spec.name + " needs a type"};
    if (Status s = detail::checkOpName(spec.name); !s.ok())
        return s;
    if (spec.numOutputs < 0 || spec.numOutputs > kMaxOutputs)
        return Status{ErrorCode::InvalidArgument, "op " + spec.name +
                                                      " has an invalid number of outputs (" +
                                                      std::to_string(spec.numOutputs) + ")"};
    std::vector<detail::TensorName> inputs;
    inputs.reserve(spec.inputs.size());
    for (const auto& input : spec.inputs) {
        auto name = detail::parseInputName(input);
        if (!name)
            return Status{ErrorCode::InvalidArgument,
                          "op " + spec.name + ": " + name.status().message()};
        inputs.push_back(std::move(*name));
    }
    {
        std::lock_guard lock(d.graphMutex);
        auto graph = d.opsByGraph.find(spec.graph.id);
        if (graph == d.opsByGraph.end())
            return Status{ErrorCode::NotFound, "op " + spec.name + " names graph \"" +
                                                   spec.graph.id +
                                                   "\", which this recorder did not declare"};
        // TensorFlow creates ops in topological order, and TensorBoard's op view indexes the
        // producer's outputs by the input's slot: every input names an op declared before, in
        // the same graph, and one of its outputs.
        for (const detail::TensorName& name : inputs) {
            const auto producer = graph->second.find(name.op);
            if (producer == graph->second.end())
                return Status{ErrorCode::NotFound,
                              "op " + spec.name + ": input " + name.canonical() + " names op " +
                                  name.op + ", which graph \"" + spec.graph.name +
                                  "\" does not hold yet (declare inputs first)"};
            if (name.slot >= producer->second)
                return Status{ErrorCode::InvalidArgument,
                              "op " + spec.name + ": input " + name.canonical() + " names output " +
                                  std::to_string(name.slot) + " of op " + name.op + ", which has " +
                                  std::to_string(producer->second) + " outputs"};
        }
        if (!graph->second.try_emplace(spec.name, spec.numOutputs).second)
            return Status{ErrorCode::AlreadyExists,
                          "graph \"" + spec.graph.name + "\" already has an op named " + spec.name};
    }
    auto unreserve = [&] {
        std::lock_guard lock(d.graphMutex);
        d.opsByGraph[spec.graph.id].erase(spec.name);
    };

    auto frames = d.locations->frameIds(where);
    if (!frames) {
        unreserve();
        return frames.status();
    }
    auto state = std::make_shared<detail::OpState>();
    state->graphId = spec.graph.id;
    state->name = spec.name;
    state->type = spec.type;
    state->device = spec.device.empty() ? std::string(kDefaultDevice) : spec.device;
    state->numOutputs = spec.numOutputs;
    state->typeSelected = d.policy.selectsOpType(spec.type);
    const std::int32_t first = d.nextSymbolicId.fetch_add(spec.numOutputs);
    for (int i = 0; i < spec.numOutputs; ++i)
        state->outputTensorIds.push_back(first + i);

    detail::wire::DebugEvent event;
    event.set_wall_time(detail::wallTimeSeconds());
    auto* op = event.mutable_graph_op_creation();
    op->set_op_type(spec.type);
    op->set_op_name(spec.name);
    op->set_graph_name(spec.graph.name);
    op->set_graph_id(spec.graph.id);
    for (const auto& input : inputs)
        op->add_input_names(input.canonical());
    op->set_num_outputs(spec.numOutputs);
    auto* location = op->mutable_code_location();
    location->set_host_name(d.options.hostName);
    for (auto& id : *frames)
        location->add_stack_frame_ids(std::move(id));
    for (const std::int32_t id : state->outputTensorIds)
        op->add_output_tensor_ids(id);
    if (Status s = d.writeEvent(detail::FileKind::Graphs, event); !s.ok()) {
        unreserve();
        return s;
    }
    return OpHandle(std::move(state));
}

Status Recorder::recordTrace(const OpHandle& op, int slot, const TensorView& tensor)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (tensor.space == MemorySpace::Device) {
        const TraceSpec spec{op, slot, tensor};
        return recordTraces(std::span(&spec, 1));
    }
    bool skip = false;
    if (Status s = d.checkTrace(op, slot, tensor, skip); !s.ok())
        return s;
    if (skip) {
        ++d.tracesSkipped;
        return {};
    }
    thread_local detail::wire::DebugEvent event;
    event.Clear();
    if (Status s = detail::buildTrace(event, *op.m_state, slot, tensor, d.options.mode, nullptr,
                                      d.pending);
        !s.ok())
        return s;
    ++d.tracesRecorded;
    return d.emit(detail::FileKind::GraphExecutionTraces, event);
}

Status Recorder::recordTraces(std::span<const TraceSpec> traces)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    std::vector<detail::QueuedEvent> events;
    events.reserve(traces.size());
    detail::DeviceSummaries device{.mode = d.options.mode};
    std::uint64_t skipped = 0;
    for (const TraceSpec& t : traces) {
        bool skip = false;
        Status s = d.checkTrace(t.op, t.slot, t.tensor, skip);
        if (s.ok() && skip) {
            ++skipped;
            continue;
        }
        auto event = std::make_unique<detail::wire::DebugEvent>();
        if (s.ok())
            s = detail::buildTrace(*event, *t.op.m_state, t.slot, t.tensor, d.options.mode, &device,
                                   d.pending);
        if (!s.ok()) {
            d.pending.giveBack(std::move(device.batch));
            return s;
        }
        events.push_back({detail::FileKind::GraphExecutionTraces, std::move(event)});
    }
    if (Status s = detail::launchSummaries(device, d.pending); !s.ok())
        return s;
    d.tracesSkipped += skipped;
    d.tracesRecorded += events.size();
    return d.emitAll(std::move(events), std::move(device));
}

Status Recorder::recordExecution(const ExecutionSpec& spec, const CodeLocation& where)
{
    return recordExecution(spec, std::span(&where, 1), true, nullptr);
}

Status Recorder::recordExecution(const ExecutionSpec& spec, std::span<const CodeLocation> stack)
{
    return recordExecution(spec, stack, false, nullptr);
}

Status Recorder::recordExecution(const ExecutionSpec& spec, StackId stack)
{
    return recordExecution(spec, {}, false, &stack);
}

Result<StackId> Recorder::internStack(std::span<const CodeLocation> stack)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    return d.stacks.intern(*d.locations, stack);
}

Status Recorder::recordExecution(const ExecutionSpec& spec, std::span<const CodeLocation> stack,
                                 bool callerOnly, const StackId* interned)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (spec.opType.empty())
        return {ErrorCode::InvalidArgument, "an execution needs an op type"};
    if (!detail::isValidUtf8(spec.opType))
        return {ErrorCode::InvalidArgument,
                "an execution's op type must be UTF-8 " + std::string(kUtf8Reason)};
    if (spec.outputIds.size() != spec.outputs.size())
        return {ErrorCode::InvalidArgument,
                "execution of " + spec.opType + " has " + std::to_string(spec.outputIds.size()) +
                    " output ids for " + std::to_string(spec.outputs.size()) + " outputs"};
    if (spec.graph) {
        std::lock_guard lock(d.graphMutex);
        if (!d.opsByGraph.contains(spec.graph->id))
            return {ErrorCode::NotFound, "execution of " + spec.opType + " names graph \"" +
                                             spec.graph->id + "\", which was not declared"};
    }

    auto owned = std::make_unique<detail::wire::DebugEvent>();
    detail::wire::DebugEvent& event = *owned;
    auto* execution = event.mutable_execution();
    const bool typeSelected = d.policy.executionTypeSelected(spec.opType);
    detail::DeviceSummaries device{.mode = d.options.mode};
    // Gives an unsubmitted batch back on every early return.
    struct BatchGuard
    {
        detail::PendingEvents& pending;
        detail::DeviceSummaries& device;
        ~BatchGuard() { pending.giveBack(std::move(device.batch)); }
    } guard{d.pending, device};
    // Payloads first: a tensor the recorder cannot read must not leave a half-written event.
    if (Status s = detail::buildExecutionPayloads(*execution, spec.outputs, d.policy, typeSelected,
                                                  d.options.mode, device, d.pending);
        !s.ok())
        return s;

    std::int32_t deviceId = 0;
    if (!spec.outputs.empty()) {
        auto id = registerDevice(spec.device.empty() ? kDefaultDevice : spec.device);
        if (!id)
            return id.status();
        deviceId = *id;
    }
    auto frames = interned     ? d.stacks.frameIds(*interned)
                  : callerOnly ? d.stacks.shared(d.locations->frameIds(stack.front()))
                               : d.stacks.shared(d.locations->frameIds(stack));
    if (!frames)
        return frames.status();
    if (Status s = d.setContext(*execution, spec.context); !s.ok())
        return s;

    event.set_wall_time(detail::wallTimeSeconds());
    execution->set_op_type(spec.opType);
    execution->set_num_outputs(static_cast<std::int32_t>(spec.outputs.size()));
    if (spec.graph)
        execution->set_graph_id(spec.graph->id);
    for (const std::int64_t id : spec.inputIds)
        execution->add_input_tensor_ids(id);
    for (const std::int64_t id : spec.outputIds)
        execution->add_output_tensor_ids(id);
    execution->set_tensor_debug_mode(d.options.mode);
    auto* location = execution->mutable_code_location();
    location->set_host_name(d.options.hostName);
    for (const auto& id : **frames)
        location->add_stack_frame_ids(id);
    for (std::size_t i = 0; i < spec.outputs.size(); ++i)
        execution->add_output_tensor_device_ids(deviceId);
    if (Status s = detail::launchSummaries(device, d.pending); !s.ok())
        return s;
    ++d.executionsRecorded;
    if (device.empty())
        return d.emit(detail::FileKind::Execution, event);
    std::vector<detail::QueuedEvent> events;
    events.push_back({detail::FileKind::Execution, std::move(owned)});
    return d.emitAll(std::move(events), std::move(device));
}

std::int64_t Recorder::newTensorId()
{
    return m_impl->nextEagerId.fetch_add(1);
}

Result<std::int32_t> Recorder::registerDevice(std::string_view deviceName)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (deviceName.empty())
        return Status{ErrorCode::InvalidArgument, "a device needs a name"};
    if (!detail::isValidUtf8(deviceName))
        return Status{ErrorCode::InvalidArgument,
                      "a device name must be UTF-8 " + std::string(kUtf8Reason)};
    std::lock_guard lock(d.deviceMutex);
    const std::string name(deviceName);
    if (auto it = d.deviceIds.find(name); it != d.deviceIds.end())
        return it->second;
    const auto id = static_cast<std::int32_t>(d.deviceIds.size() + 1);
    detail::wire::DebugEvent event;
    event.set_wall_time(detail::wallTimeSeconds());
    event.mutable_debugged_device()->set_device_name(name);
    event.mutable_debugged_device()->set_device_id(id);
    if (Status s = d.writeEvent(detail::FileKind::Graphs, event); !s.ok())
        return s;
    d.deviceIds.emplace(name, id);
    return id;
}

Status Recorder::flush()
{
    if (m_impl->closed)
        return closedStatus();
    Status drained = m_impl->pending.drain(true);
    return either(std::move(drained),
                  either(m_impl->writer.flush(), m_impl->writer.takeUnreportedError()));
}

Status Recorder::close()
{
    return m_impl->close();
}

Status Recorder::firstError() const
{
    return either(m_impl->writer.firstError(), m_impl->pending.firstError());
}

Recorder::Stats Recorder::stats() const
{
    Stats s;
    s.tracesRecorded = m_impl->tracesRecorded;
    s.tracesSkipped = m_impl->tracesSkipped;
    s.executionsRecorded = m_impl->executionsRecorded;
    s.bytesWritten = m_impl->writer.bytesWritten();
    s.recordsDropped = m_impl->writer.recordsDropped() + m_impl->pending.dropped();
    return s;
}

} // namespace nanscope
