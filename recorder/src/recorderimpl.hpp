// SPDX-License-Identifier: Apache-2.0
// The recorder's state (Recorder::Impl), shared by the file that opens a recorder and declares
// graphs and ops (recorder.cpp) and the one of the record calls (recordcalls.cpp).
#pragma once

#include "codelocations.hpp"
#include "dumppolicy.hpp"
#include "eventwriter.hpp"
#include "exitregistry.hpp"
#include "internedstacks.hpp"
#include "nanscope/recorder.hpp"
#include "nonfinitewatch.hpp"
#include "opstate.hpp"
#include "pendingevents.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope {

namespace detail {

// Why names must be UTF-8: tfdbg2's text fields are protobuf strings.
inline constexpr std::string_view kUtf8Reason =
    "(tfdbg2 stores it as a protobuf string: libprotobuf and TensorFlow's reader refuse a record "
    "whose string is not UTF-8)";

inline constexpr std::string_view kDefaultDevice = "/job:localhost/replica:0/task:0/device:CPU:0";
inline constexpr int kMaxOutputs = 1 << 20;

inline Status closedStatus()
{
    return {ErrorCode::Closed, "the recorder is closed"};
}

// The first non-Ok of two statuses.
inline Status either(Status first, Status second)
{
    return first.ok() ? std::move(second) : std::move(first);
}

} // namespace detail

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

    // RecorderOptions::stopAtFirstNonFinite: null when off.
    std::unique_ptr<detail::NonFiniteWatch> watch;
    std::once_flag announceOnce;
    Status stopStatus;

    bool watching() const { return watch != nullptr; }
    bool stopped() const { return watch && watch->stopped(); }

    // Once the watch stopped: writes and syncs everything, calls the program's callback (the
    // first time) and returns the stop's status.
    Status announceStop()
    {
        std::call_once(announceOnce, [this] {
            auto stop = watch->stop();
            (void)pending.drain(true);
            (void)writer.flush();
            stopStatus = {ErrorCode::NonFinite, stop->message};
            if (options.onNonFiniteStop)
                options.onNonFiniteStop(*stop);
        });
        return stopStatus;
    }

    // A record call's status: the stop's once the recording stopped.
    Status finish(Status status)
    {
        if (!stopped())
            return status;
        Status stop = announceStop();
        return status.ok() ? stop : status;
    }

    // Queues a call's events behind its launched summaries, or writes them (queued behind
    // earlier ones, if any wait) when it has none.
    Status emitAll(std::vector<detail::QueuedEvent> events, detail::DeviceSummaries device)
    {
        if (device.empty()) {
            Status status;
            for (auto& e : events)
                status =
                    detail::either(std::move(status),
                                   e.trace ? emitTrace(e.trace->takeParts(), std::move(e.watched))
                                           : emit(e.kind, *e.event, std::move(e.watched)));
            return status;
        }
        // The poller thread writes them once their summaries are back.
        Status status = pending.push(std::move(events), std::move(device));
        // A watching recorder bounds how late a stop can come: it waits for all but the newest
        // stopLagEvents.
        if (watching())
            status = detail::either(
                std::move(status),
                pending.drainKeeping(static_cast<std::size_t>(std::max(options.stopLagEvents, 0))));
        return detail::either(std::move(status), writer.takeUnreportedError());
    }

    // Writes an event now, or queues it when events recorded earlier wait for device values.
    Status emit(detail::FileKind kind, const detail::wire::DebugEvent& event,
                std::unique_ptr<detail::WatchedEvent> watched = nullptr)
    {
        if (pending.empty()) {
            if (watched)
                watch->inspect(*watched);
            return writeEvent(kind, event);
        }
        pending.pushReady(kind, detail::wire::framedEvent(event), std::move(watched));
        return detail::either(pending.takeUnreportedError(), writer.takeUnreportedError());
    }

    // The frame of a checked trace's op output.
    static const detail::wire::TraceFrame& frameOf(const TraceSpec& trace)
    {
        return trace.op.m_state->traceFrames[static_cast<std::size_t>(trace.slot)];
    }

    // recordTraces for a call whose payloads are all made within it (recordcalls.cpp).
    Status recordFramedTraces(std::span<const TraceSpec> traces);

    // Writes a trace framed from its op output's frame and its payload now, or queues it when
    // events recorded earlier wait for device values.
    Status emitTrace(detail::TraceParts trace, std::unique_ptr<detail::WatchedEvent> watched)
    {
        if (pending.empty()) {
            if (watched)
                watch->inspect(*watched);
            return detail::either(writer.writeTrace(std::move(trace)),
                                  writer.takeUnreportedError());
        }
        std::string record;
        detail::wire::frameTrace(trace.wallTime, *trace.frame, trace.payloadToWrite(), record);
        pending.pushReady(detail::FileKind::GraphExecutionTraces, std::move(record),
                          std::move(watched));
        return detail::either(pending.takeUnreportedError(), writer.takeUnreportedError());
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
        return detail::either(writer.writeEvent(kind, event), writer.takeUnreportedError());
    }

    Status close()
    {
        std::call_once(closeOnce, [this] {
            if (stopped())
                (void)announceStop(); // the callback comes before the files close
            closed = true;
            Status drained = pending.close();
            if (stopped())
                (void)announceStop(); // a stop among the last summaries
            closeStatus = detail::either(std::move(drained), writer.close());
        });
        return closeStatus;
    }
};

} // namespace nanscope
