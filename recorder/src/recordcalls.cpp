// SPDX-License-Identifier: Apache-2.0
// The record calls: graph execution traces and executions.
#include "ids.hpp"
#include "opstate.hpp"
#include "recorderimpl.hpp"
#include "tensorpayloads.hpp"
#include "tensorproto.hpp"
#include "utf8text.hpp"

#include <algorithm>

namespace nanscope {

using detail::closedStatus;
using detail::kDefaultDevice;
using detail::kUtf8Reason;

namespace {

// What the non-finite watch needs of a trace: the op's creation stack stands for its own.
std::unique_ptr<detail::WatchedEvent> watchedTrace(const detail::OpState& op, int slot)
{
    auto watched = std::make_unique<detail::WatchedEvent>();
    watched->opType = op.type;
    watched->opName = op.name;
    watched->inputs = op.inputKeys;
    watched->outputs = {detail::graphTensorKey(op.graphId, op.name, slot)};
    watched->kinds = {detail::kUnsummarised};
    watched->stack = op.creationStack;
    return watched;
}

std::unique_ptr<detail::WatchedEvent> watchedExecution(const ExecutionSpec& spec,
                                                       std::span<const CodeLocation> stack,
                                                       bool callerOnly, const StackId* interned)
{
    auto watched = std::make_unique<detail::WatchedEvent>();
    watched->opType = spec.opType;
    watched->modulePath = spec.context.modulePath;
    watched->inputs = spec.inputIds;
    watched->outputs = spec.outputIds;
    watched->kinds.assign(spec.outputs.size(), detail::kUnsummarised);
    if (interned)
        watched->internedStack = *interned;
    else if (callerOnly)
        watched->stack.assign(stack.begin(), stack.begin() + 1);
    else
        watched->stack.assign(stack.begin(), stack.end());
    return watched;
}

// The checks of an execution's own fields, before anything of it is read or written.
Status checkExecution(Recorder::Impl& d, const ExecutionSpec& spec)
{
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
    return {};
}

// Gives a call's summary batch back unless it was submitted, on every early return.
class BatchGuard
{
public:
    BatchGuard(detail::PendingEvents& pending, detail::DeviceSummaries& device)
        : m_pending(pending), m_device(device)
    {}
    ~BatchGuard() { m_pending.giveBack(std::move(m_device.batch)); }
    BatchGuard(const BatchGuard&) = delete;
    BatchGuard& operator=(const BatchGuard&) = delete;

private:
    detail::PendingEvents& m_pending;
    detail::DeviceSummaries& m_device;
};

// The device id of an execution's outputs, registering their device the first time; 0 for an
// execution without outputs, which names no device.
Result<std::int32_t> outputDeviceId(Recorder& recorder, const ExecutionSpec& spec)
{
    if (spec.outputs.empty())
        return std::int32_t{0};
    return recorder.registerDevice(spec.device.empty() ? kDefaultDevice : spec.device);
}

// The stack frame ids of an execution: its interned stack's, its caller's alone, or those of the
// whole stack it was given.
Result<detail::InternedStacks::Frames> executionFrames(Recorder::Impl& d,
                                                       std::span<const CodeLocation> stack,
                                                       bool callerOnly, const StackId* interned)
{
    return interned     ? d.stacks.frameIds(*interned)
           : callerOnly ? d.stacks.shared(d.locations->frameIds(stack.front()))
                        : d.stacks.shared(d.locations->frameIds(stack));
}

// The Execution record's fields besides its payloads and framework context.
void setExecution(detail::wire::DebugEvent& event, const ExecutionSpec& spec,
                  const RecorderOptions& options, detail::InternedStacks::Frames frames,
                  std::int32_t deviceId)
{
    event.set_wall_time(detail::wallTimeSeconds());
    auto* execution = event.mutable_execution();
    execution->set_op_type(spec.opType);
    execution->set_num_outputs(static_cast<std::int32_t>(spec.outputs.size()));
    if (spec.graph)
        execution->set_graph_id(spec.graph->id);
    for (const std::int64_t id : spec.inputIds)
        execution->add_input_tensor_ids(id);
    for (const std::int64_t id : spec.outputIds)
        execution->add_output_tensor_ids(id);
    execution->set_tensor_debug_mode(options.mode);
    auto* location = execution->mutable_code_location();
    location->set_host_name(options.hostName);
    location->set_stack_frame_ids(std::move(frames));
    for (std::size_t i = 0; i < spec.outputs.size(); ++i)
        execution->add_output_tensor_device_ids(deviceId);
}

// Writes an execution whose summaries were launched: at once when none of its outputs waits
// for the device, queued behind its summaries otherwise (`device` then moves into the queue).
Status emitExecution(Recorder::Impl& d, std::unique_ptr<detail::wire::DebugEvent> event,
                     std::unique_ptr<detail::WatchedEvent> watched, detail::DeviceSummaries& device)
{
    if (device.empty())
        return d.emit(detail::FileKind::Execution, *event, std::move(watched));
    std::vector<detail::QueuedEvent> events;
    events.push_back({detail::FileKind::Execution, std::move(event), std::move(watched)});
    return d.emitAll(std::move(events), std::move(device));
}

} // namespace

Status Recorder::recordTrace(const OpHandle& op, int slot, const TensorView& tensor)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (d.stopped())
        return d.announceStop();
    const TraceSpec spec{op, slot, tensor};
    return recordTraces(std::span(&spec, 1));
}

namespace {

// What a thread keeps of its reused payloads between calls: payloads up to this size, and this
// many of them (a call with more traces allocates the rest, and gives them back).
constexpr std::size_t kKeptPayloadBytes = 4096;
constexpr std::size_t kKeptPayloads = 256;

} // namespace

// A call whose payloads are all made within it: each trace is framed from its op output's frame
// and its payload, with no message built. Every payload is made before anything is written, so
// that a tensor the recorder cannot read leaves no trace of the call.
Status Recorder::Impl::recordFramedTraces(std::span<const TraceSpec> traces)
{
    thread_local std::vector<detail::wire::TensorProto> payloads;
    thread_local std::vector<std::unique_ptr<detail::WatchedEvent>> watched;
    thread_local std::vector<const TraceSpec*> selected;
    selected.clear();
    watched.clear();
    // NO_TENSOR's payload is the same placeholder for every tensor: made once, and the tensors
    // only checked. A training step's traces then touch no payload memory of their own.
    const bool placeholder = options.mode == TensorDebugMode::NoTensor;
    const std::size_t needed = placeholder ? 0 : traces.size();
    if (payloads.size() < needed)
        payloads.resize(needed);
    // A full tensor's copy (or borrowed bytes) is not kept past the call, nor a large call's
    // payloads.
    const auto release = [&](std::size_t made) {
        for (std::size_t i = 0; i < std::min(made, needed); ++i)
            if (payloads[i].tensor_content().size() > kKeptPayloadBytes)
                payloads[i].Clear();
        if (payloads.size() > kKeptPayloads) {
            payloads.resize(kKeptPayloads);
            payloads.shrink_to_fit();
        }
    };
    const double wallTime = detail::wallTimeSeconds(); // one clock reading for the whole call
    for (const TraceSpec& t : traces) {
        bool skip = false;
        if (Status s = checkTrace(t.op, t.slot, t.tensor, skip); !s.ok()) {
            release(selected.size());
            return s;
        }
        if (skip)
            continue;
        auto& w = watched.emplace_back(watching() ? watchedTrace(*t.op.m_state, t.slot) : nullptr);
        if (Status s = placeholder ? detail::checkUnreadTensor(t.tensor)
                                   : detail::buildTracePayload(
                                         payloads[selected.size()], *t.op.m_state, t.slot, t.tensor,
                                         options.mode, pending, w ? w->kinds.data() : nullptr);
            !s.ok()) {
            release(selected.size() + 1);
            return s;
        }
        selected.push_back(&t);
    }
    tracesSkipped += traces.size() - selected.size();
    tracesRecorded += selected.size();
    Status status;
    for (std::size_t i = 0; i < selected.size(); ++i) {
        const TraceSpec& t = *selected[i];
        detail::TraceParts parts{.wallTime = wallTime,
                                 .frame = {t.op.m_state, &frameOf(t)}}; // shares the op's state
        if (placeholder)
            parts.constantPayload = &detail::noTensorPayload();
        else
            parts.payload = &payloads[i];
        status =
            detail::either(std::move(status), emitTrace(std::move(parts), std::move(watched[i])));
    }
    release(selected.size());
    return finish(std::move(status));
}

Status Recorder::recordTraces(std::span<const TraceSpec> traces)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (d.stopped())
        return d.announceStop();
    if (std::none_of(traces.begin(), traces.end(), [&](const TraceSpec& t) {
            return detail::waitsForDevice(t.tensor, d.options.mode);
        }))
        return d.recordFramedTraces(traces);
    std::vector<detail::QueuedEvent> events;
    events.reserve(traces.size());
    detail::DeviceSummaries device{.mode = d.options.mode};
    std::uint64_t skipped = 0;
    const double wallTime = detail::wallTimeSeconds(); // one clock reading for the whole call
    for (const TraceSpec& t : traces) {
        bool skip = false;
        Status s = d.checkTrace(t.op, t.slot, t.tensor, skip);
        if (s.ok() && skip) {
            ++skipped;
            continue;
        }
        auto watched = s.ok() && d.watching() ? watchedTrace(*t.op.m_state, t.slot) : nullptr;
        auto trace = std::make_unique<detail::QueuedTrace>();
        if (s.ok()) {
            const auto& state = t.op.m_state;
            trace->wallTime = wallTime;
            trace->frame = {state, &Impl::frameOf(t)}; // shares the op state's ownership
            s = detail::buildTracePayload(trace->payload, *state, t.slot, t.tensor, d.options.mode,
                                          d.pending, watched ? watched->kinds.data() : nullptr,
                                          &device);
        }
        if (!s.ok()) {
            d.pending.giveBack(std::move(device.batch));
            return s;
        }
        events.push_back({.kind = detail::FileKind::GraphExecutionTraces,
                          .watched = std::move(watched),
                          .trace = std::move(trace)});
    }
    if (Status s = detail::launchSummaries(device, d.pending); !s.ok())
        return s;
    d.tracesSkipped += skipped;
    d.tracesRecorded += events.size();
    return d.finish(d.emitAll(std::move(events), std::move(device)));
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
    if (d.stopped())
        return d.announceStop();
    return d.stacks.intern(*d.locations, stack);
}

Status Recorder::recordExecution(const ExecutionSpec& spec, std::span<const CodeLocation> stack,
                                 bool callerOnly, const StackId* interned)
{
    auto& d = *m_impl;
    if (d.closed)
        return closedStatus();
    if (d.stopped())
        return d.announceStop();
    if (Status s = checkExecution(d, spec); !s.ok())
        return s;

    auto event = std::make_unique<detail::wire::DebugEvent>();
    auto* execution = event->mutable_execution();
    const bool typeSelected = d.policy.executionTypeSelected(spec.opType);
    detail::DeviceSummaries device{.mode = d.options.mode};
    const BatchGuard guard{d.pending, device};
    auto watched = d.watching() ? watchedExecution(spec, stack, callerOnly, interned) : nullptr;
    // Payloads first: a tensor the recorder cannot read must not leave a half-written event.
    if (Status s = detail::buildExecutionPayloads(
            *execution, spec.outputs, d.policy, typeSelected, d.options.mode, device, d.pending,
            watched ? std::span(watched->kinds) : std::span<std::uint8_t>{});
        !s.ok())
        return s;

    auto deviceId = outputDeviceId(*this, spec);
    if (!deviceId)
        return deviceId.status();
    auto frames = executionFrames(d, stack, callerOnly, interned);
    if (!frames)
        return frames.status();
    if (Status s = d.setContext(*execution, spec.context); !s.ok())
        return s;
    setExecution(*event, spec, d.options, std::move(*frames), *deviceId);
    if (Status s = detail::launchSummaries(device, d.pending); !s.ok())
        return s;
    ++d.executionsRecorded;
    return d.finish(emitExecution(d, std::move(event), std::move(watched), device));
}

} // namespace nanscope
