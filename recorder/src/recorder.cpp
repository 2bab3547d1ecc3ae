// SPDX-License-Identifier: Apache-2.0
#include "nanscope/recorder.hpp"

#include "devicepayloads.hpp"
#include "existingruns.hpp"
#include "ids.hpp"
#include "nanscope/version.hpp"
#include "opstate.hpp"
#include "recorderimpl.hpp"
#include "tensornames.hpp"
#include "utf8text.hpp"

#include <algorithm>

namespace nanscope {

using detail::closedStatus;
using detail::either;
using detail::kDefaultDevice;
using detail::kMaxOutputs;
using detail::kUtf8Reason;

std::string_view recorderVersion()
{
    static const std::string version = std::string("NaNscope ") + NANSCOPE_VERSION;
    return version;
}

bool deviceTensorsSupported()
{
    return detail::deviceTensorSupport().ok();
}

Recorder::Recorder(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Recorder::~Recorder()
{
    if (m_impl->exitToken != 0)
        detail::unregisterAtExit(m_impl->exitToken);
    (void)m_impl->close();
}

namespace {

// Checks the run id and the host name, which the files' names and records carry, and fills in
// this machine's name when none is given. A '/' would put the files in another directory.
Status checkRunAndHostNames(RecorderOptions& options)
{
    if (!detail::isValidUtf8(options.runId) || !detail::isValidUtf8(options.hostName))
        return Status{ErrorCode::InvalidArgument,
                      "the run id and the host name must be UTF-8 " + std::string(kUtf8Reason)};
    if (options.hostName.empty())
        options.hostName = detail::validUtf8(detail::localHostName());
    if (options.hostName.find('/') != std::string::npos)
        return Status{ErrorCode::InvalidArgument,
                      "the host name \"" + options.hostName + "\" contains '/'"};
    return {};
}

// Ok unless the dump root holds the files of another run, which would make it unreadable.
Status checkNoOtherRun(const std::filesystem::path& dumpRoot, const std::string& runId)
{
    const auto other = detail::otherRunIn(dumpRoot, runId);
    if (!other)
        return {};
    return Status{ErrorCode::AlreadyExists,
                  "the dump root " + dumpRoot.string() + " already holds run \"" + other->runId +
                      "\" (" + other->metadataFile.filename().string() +
                      "); TensorFlow's reader and TensorBoard refuse a directory with two "
                      "runs: record into another directory, remove that run's files, or "
                      "set runId to \"" +
                      other->runId + "\" to add a host to it"};
}

detail::EventWriterOptions eventWriterOptions(const RecorderOptions& options,
                                              const std::string& runId)
{
    detail::EventWriterOptions writerOptions;
    writerOptions.dumpRoot = options.dumpRoot;
    writerOptions.hostName = options.hostName;
    writerOptions.runId = runId;
    writerOptions.version = std::string(recorderVersion());
    writerOptions.circularBufferSize = options.circularBufferSize;
    writerOptions.flushInterval = options.flushInterval;
    writerOptions.flushOnCrash = options.flushOnCrash;
    return writerOptions;
}

// RecorderOptions::stopAtFirstNonFinite: every event is inspected just before it is written,
// those that wait for device summaries included, and stacks keep their locations for the
// stop's message.
void startNonFiniteWatch(Recorder::Impl& impl, std::vector<ExpectedPattern> expected)
{
    impl.stacks.keepLocations();
    impl.watch = std::make_unique<detail::NonFiniteWatch>(std::move(expected), impl.stacks,
                                                          impl.writer.prefix().parent_path());
    impl.pending.setInspector(
        [watch = impl.watch.get()](const detail::WatchedEvent& e) { (void)watch->inspect(e); });
}

} // namespace

Result<std::unique_ptr<Recorder>> Recorder::open(RecorderOptions options)
{
    if (Status s = detail::DumpPolicy::checkOptions(options.mode, options.tensorDtypes); !s.ok())
        return s;
    if (options.flushInterval.count() < 0)
        return Status{ErrorCode::InvalidArgument, "the flush interval is negative"};
    auto expected = detail::stopPatterns(options);
    if (!expected)
        return expected.status();
    options.flushInterval = std::max(options.flushInterval, std::chrono::milliseconds(1));

    auto impl = std::make_unique<Impl>();
    if (Status s = impl->policy.configure(options.mode, options.tensorDtypes, options.opTypeRegex);
        !s.ok())
        return s;
    if (Status s = checkRunAndHostNames(options); !s.ok())
        return s;
    impl->runId = options.runId.empty() ? detail::makeRunId() : options.runId;
    impl->options = options;
    if (Status s = checkNoOtherRun(options.dumpRoot, impl->runId); !s.ok())
        return s;
    if (Status s = impl->writer.open(eventWriterOptions(options, impl->runId)); !s.ok())
        return s;

    impl->locations = std::make_unique<detail::CodeLocations>(
        impl->writer, detail::CodeLocationOptions{options.hostName, options.captureNativeStacks,
                                                  options.maxSourceFileBytes});
    if (options.stopAtFirstNonFinite)
        startNonFiniteWatch(*impl, std::move(*expected));
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

namespace {

// The checks of an op's own fields; its inputs are parsed apart.
Status checkOpSpec(const OpSpec& spec)
{
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
    return {};
}

Result<std::vector<detail::TensorName>> parseInputNames(const OpSpec& spec)
{
    std::vector<detail::TensorName> inputs;
    inputs.reserve(spec.inputs.size());
    for (const auto& input : spec.inputs) {
        auto name = detail::parseInputName(input);
        if (!name)
            return Status{ErrorCode::InvalidArgument,
                          "op " + spec.name + ": " + name.status().message()};
        inputs.push_back(std::move(*name));
    }
    return inputs;
}

// TensorFlow creates ops in topological order, and TensorBoard's op view indexes the producer's
// outputs by the input's slot: every input names an op declared before, in the same graph, and
// one of its outputs.
Status checkInputsDeclared(const OpSpec& spec, const std::vector<detail::TensorName>& inputs,
                           const std::unordered_map<std::string, int>& graphOps)
{
    for (const detail::TensorName& name : inputs) {
        const auto producer = graphOps.find(name.op);
        if (producer == graphOps.end())
            return Status{ErrorCode::NotFound, "op " + spec.name + ": input " + name.canonical() +
                                                   " names op " + name.op + ", which graph \"" +
                                                   spec.graph.name +
                                                   "\" does not hold yet (declare inputs first)"};
        if (name.slot >= producer->second)
            return Status{ErrorCode::InvalidArgument,
                          "op " + spec.name + ": input " + name.canonical() + " names output " +
                              std::to_string(name.slot) + " of op " + name.op + ", which has " +
                              std::to_string(producer->second) + " outputs"};
    }
    return {};
}

// Claims the op's name in its graph, once its inputs check out; unreserveOpName gives it back
// when the op cannot be recorded after all.
Status reserveOpName(Recorder::Impl& d, const OpSpec& spec,
                     const std::vector<detail::TensorName>& inputs)
{
    std::lock_guard lock(d.graphMutex);
    auto graph = d.opsByGraph.find(spec.graph.id);
    if (graph == d.opsByGraph.end())
        return Status{ErrorCode::NotFound, "op " + spec.name + " names graph \"" + spec.graph.id +
                                               "\", which this recorder did not declare"};
    if (Status s = checkInputsDeclared(spec, inputs, graph->second); !s.ok())
        return s;
    if (!graph->second.try_emplace(spec.name, spec.numOutputs).second)
        return Status{ErrorCode::AlreadyExists,
                      "graph \"" + spec.graph.name + "\" already has an op named " + spec.name};
    return {};
}

void unreserveOpName(Recorder::Impl& d, const OpSpec& spec)
{
    std::lock_guard lock(d.graphMutex);
    d.opsByGraph[spec.graph.id].erase(spec.name);
}

// What the op's traces need of it; its output tensors take the next symbolic ids.
std::shared_ptr<detail::OpState> makeOpState(Recorder::Impl& d, const OpSpec& spec,
                                             const std::vector<detail::TensorName>& inputs,
                                             const CodeLocation& where)
{
    auto state = std::make_shared<detail::OpState>();
    state->graphId = spec.graph.id;
    state->name = spec.name;
    state->type = spec.type;
    state->device = spec.device.empty() ? std::string(kDefaultDevice) : spec.device;
    state->numOutputs = spec.numOutputs;
    state->typeSelected = d.policy.selectsOpType(spec.type);
    if (d.watching()) {
        for (const detail::TensorName& input : inputs)
            state->inputKeys.push_back(detail::graphTensorKey(spec.graph.id, input.op, input.slot));
        state->creationStack.push_back(where);
    }
    const std::int32_t first = d.nextSymbolicId.fetch_add(spec.numOutputs);
    for (int i = 0; i < spec.numOutputs; ++i) {
        state->outputTensorIds.push_back(first + i);
        state->traceFrames.push_back(detail::wire::makeTraceFrame(state->graphId, state->name, i,
                                                                  d.options.mode, state->device));
    }
    return state;
}

// The op's GraphOpCreation record; the frame ids are moved into it.
void setOpCreation(detail::wire::DebugEvent& event, const OpSpec& spec,
                   const std::vector<detail::TensorName>& inputs, const detail::OpState& state,
                   const std::string& hostName, std::vector<std::string>& frames)
{
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
    location->set_host_name(hostName);
    for (auto& id : frames)
        location->add_stack_frame_ids(std::move(id));
    for (const std::int32_t id : state.outputTensorIds)
        op->add_output_tensor_ids(id);
}

} // namespace

Result<OpHandle> Recorder::declareOp(const OpSpec& spec, const CodeLocation& where)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (Status s = checkOpSpec(spec); !s.ok())
        return s;
    auto inputs = parseInputNames(spec);
    if (!inputs)
        return inputs.status();
    if (Status s = reserveOpName(d, spec, *inputs); !s.ok())
        return s;

    auto frames = d.locations->frameIds(where);
    if (!frames) {
        unreserveOpName(d, spec);
        return frames.status();
    }
    auto state = makeOpState(d, spec, *inputs, where);
    detail::wire::DebugEvent event;
    setOpCreation(event, spec, *inputs, *state, d.options.hostName, *frames);
    if (Status s = d.writeEvent(detail::FileKind::Graphs, event); !s.ok()) {
        unreserveOpName(d, spec);
        return s;
    }
    return OpHandle(std::move(state));
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
    Status flushed = either(std::move(drained),
                            either(m_impl->writer.flush(), m_impl->writer.takeUnreportedError()));
    // A stop among the summaries just waited for is announced here, its callback included;
    // flush() itself succeeded.
    if (m_impl->stopped())
        (void)m_impl->announceStop();
    return flushed;
}

Status Recorder::close()
{
    return m_impl->close();
}

Status Recorder::firstError() const
{
    return either(m_impl->writer.firstError(), m_impl->pending.firstError());
}

std::optional<NonFiniteStop> Recorder::nonFiniteStop() const
{
    if (!m_impl->watch)
        return std::nullopt;
    return m_impl->watch->stop();
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
