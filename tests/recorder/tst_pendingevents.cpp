// SPDX-License-Identifier: GPL-3.0-or-later
// The recorder's queue of events that wait for device summaries (recorder/src/pendingevents),
// driven with host batches so that it runs on every machine: the order of the calls, the
// payloads the batches fill in, the background thread's writing while calls push, and a failed
// batch. Host batches are ready when pushed, so the background thread may write them at once.
#include "logdirfixture.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "pendingevents.hpp"
#include "wire/messages.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace nanscope;
using namespace nanscope::detail;

namespace {

struct Writer
{
    test::TempDir dir;
    EventWriter writer;

    Writer()
    {
        REQUIRE(writer
                    .open({.dumpRoot = dir.path(),
                           .hostName = "host",
                           .runId = "run",
                           .version = "test",
                           .circularBufferSize = -1})
                    .ok());
    }

    std::vector<std::string> traceNames()
    {
        REQUIRE(writer.flush().ok());
        std::vector<std::string> names;
        for (const auto& e : test::readEvents(dir.path(), "graph_execution_traces"))
            names.push_back(e.graph_execution_trace().op_name());
        return names;
    }
};

std::unique_ptr<wire::DebugEvent> trace(const std::string& name)
{
    auto event = std::make_unique<wire::DebugEvent>();
    event->mutable_graph_execution_trace()->set_op_name(name);
    return event;
}

std::string framed(const std::string& name)
{
    return wire::framedEvent(*trace(name));
}

const std::vector<float> kValues = {1.0f, -2.0f, 0.0f, 4.0f};
const std::vector<std::int64_t> kShape = {2, 2};

// A host batch of kValues that fills `payload` with tensor id `tensorId`, as a device batch
// would; `submit` false leaves it unsubmitted, which the queue sees as a failed device.
DeviceSummaries hostSummaries(wire::TensorProto* payload, double tensorId, bool submit)
{
    DeviceSummaries summaries;
    summaries.mode = TensorDebugMode::ConciseHealth;
    summaries.batch = std::make_unique<gpu::SummaryBatch>(MemorySpace::Host);
    auto index = summaries.batch->add({.data = kValues.data(), .count = kValues.size()},
                                      TensorDebugMode::ConciseHealth);
    REQUIRE(index.ok());
    summaries.slots.push_back(
        {.payload = payload, .index = *index, .shape = SummaryShape(kShape), .tensorId = tensorId});
    if (submit)
        REQUIRE(summaries.batch->submit().ok());
    return summaries;
}

// One event whose payload the batch fills.
Status pushSummarised(PendingEvents& pending, const std::string& name, bool submit = true)
{
    auto event = trace(name);
    auto summaries =
        hostSummaries(event->mutable_graph_execution_trace()->mutable_tensor_proto(), 9.0, submit);
    std::vector<QueuedEvent> events;
    events.push_back({FileKind::GraphExecutionTraces, std::move(event)});
    return pending.push(std::move(events), std::move(summaries));
}

// The same as a framed trace (QueuedTrace): its frame, and a payload that the batch fills.
Status pushSummarisedTrace(PendingEvents& pending, const std::string& name)
{
    auto trace = std::make_unique<QueuedTrace>();
    trace->wallTime = 1.5;
    trace->frame = std::make_shared<const wire::TraceFrame>(
        wire::makeTraceFrame("graph", name, 1, TensorDebugMode::ConciseHealth, "device"));
    auto summaries = hostSummaries(&trace->payload, 7.0, true);
    std::vector<QueuedEvent> events;
    events.push_back({.kind = FileKind::GraphExecutionTraces, .trace = std::move(trace)});
    return pending.push(std::move(events), std::move(summaries));
}

// Waits up to 10 s for the background thread to write everything queued.
bool writtenInTime(const PendingEvents& pending)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!pending.empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return pending.empty();
}

} // namespace

TEST_CASE("queued traces are framed from their frame and the payload the batch filled", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    REQUIRE(pushSummarised(pending, "a").ok());
    REQUIRE(pushSummarisedTrace(pending, "b").ok());
    pending.pushReady(FileKind::GraphExecutionTraces, framed("c"));
    REQUIRE(pending.drain(true).ok());
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b", "c"});
    const auto events = test::readEvents(w.dir.path(), "graph_execution_traces");
    const auto& trace = events[1].graph_execution_trace();
    CHECK(events[1].wall_time() == 1.5);
    CHECK(trace.tfdbg_context_id() == "graph");
    CHECK(trace.output_slot() == 1);
    CHECK(trace.tensor_debug_mode() == tfdbg::TensorDebugMode::CONCISE_HEALTH);
    CHECK(trace.device_name() == "device");
    CHECK(test::doubles(trace.tensor_proto()) == std::vector<double>{7.0, 4.0, 0.0, 0.0, 0.0});
    REQUIRE(pending.close().ok());
}

TEST_CASE("queued events are written in the order of the calls with their summaries", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    CHECK(pending.empty());
    REQUIRE(pushSummarised(pending, "a").ok());
    pending.pushReady(FileKind::GraphExecutionTraces, framed("b"));
    REQUIRE(pushSummarised(pending, "c").ok());
    REQUIRE(pending.drain(true).ok());
    CHECK(pending.empty());
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b", "c"});

    const auto events = test::readEvents(w.dir.path(), "graph_execution_traces");
    const auto summary = test::doubles(events[0].graph_execution_trace().tensor_proto());
    CHECK(summary == std::vector<double>{9.0, 4.0, 0.0, 0.0, 0.0});
    CHECK(events[1].graph_execution_trace().tensor_proto().ByteSizeLong() == 0);
    CHECK(pending.dropped() == 0);
    CHECK(pending.firstError().ok());
    REQUIRE(pending.close().ok());
}

TEST_CASE("queued events reach the files without another call", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    REQUIRE(pushSummarised(pending, "a").ok());
    pending.pushReady(FileKind::GraphExecutionTraces, framed("b"));
    CHECK(writtenInTime(pending));
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b"});
    REQUIRE(pending.close().ok());
}

TEST_CASE("a push after a quiet spell wakes the background thread", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    REQUIRE(pushSummarised(pending, "a").ok());
    REQUIRE(writtenInTime(pending));
    // Longer than the background thread goes on looking (100 ms): it now sleeps until woken.
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    REQUIRE(pushSummarised(pending, "b").ok());
    CHECK(writtenInTime(pending));
    pending.pushReady(FileKind::GraphExecutionTraces, framed("c"));
    CHECK(writtenInTime(pending));
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b", "c"});
    REQUIRE(pending.close().ok());
}

TEST_CASE("the events of a failed batch are dropped and the error is reported once", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    REQUIRE(pushSummarised(pending, "a").ok());
    REQUIRE(pushSummarised(pending, "lost", false).ok());
    pending.pushReady(FileKind::GraphExecutionTraces, framed("b"));
    const Status first = pending.drain(true);
    CHECK_FALSE(first.ok());
    CHECK(pending.drain(true).ok()); // reported once
    CHECK_FALSE(pending.firstError().ok());
    CHECK(pending.dropped() == 1);
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b"});
    REQUIRE(pending.close().ok());
}

TEST_CASE("events pushed while the background thread writes keep the order of the calls",
          "[pending]")
{
    Writer w;
    std::vector<std::string> expected;
    {
        PendingEvents pending(w.writer);
        for (int i = 0; i < 600; ++i) {
            const std::string name = std::to_string(i);
            if (i % 3 == 2)
                pending.pushReady(FileKind::GraphExecutionTraces, framed(name));
            else if (i % 3 == 1)
                REQUIRE(pushSummarisedTrace(pending, name).ok());
            else
                REQUIRE(pushSummarised(pending, name).ok());
            expected.push_back(name);
            if (i % 50 == 0) // let the background thread catch up now and then
                std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        REQUIRE(pending.close().ok());
        CHECK(pending.empty());
        CHECK(pending.dropped() == 0);
    }
    CHECK(w.traceNames() == expected);
}

TEST_CASE("a push after close is written in the call", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    REQUIRE(pending.close().ok());
    REQUIRE(pushSummarised(pending, "a").ok());
    CHECK(pending.empty());
    pending.pushReady(FileKind::GraphExecutionTraces, framed("b"));
    CHECK(pending.empty());
    CHECK(w.traceNames() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("batches are reused", "[pending]")
{
    Writer w;
    PendingEvents pending(w.writer);
    auto batch = pending.takeBatch();
    REQUIRE(batch);
    CHECK(batch->space() == MemorySpace::Device);
    const auto* address = batch.get();
    pending.giveBack(std::move(batch));
    CHECK(pending.takeBatch().get() == address);
    pending.giveBack(nullptr); // nothing to give back is fine
}

TEST_CASE("a device tensor's shape is kept whole, inline or beyond six dimensions", "[pending]")
{
    std::vector<std::int64_t> dims;
    for (std::size_t rank = 0; rank <= 9; ++rank) {
        INFO("rank " << rank);
        const SummaryShape shape(dims);
        const auto kept = shape.dims();
        CHECK(std::vector<std::int64_t>(kept.begin(), kept.end()) == dims);
        const SummaryShape copy = shape; // slots move into the queue
        const auto copied = copy.dims();
        CHECK(std::vector<std::int64_t>(copied.begin(), copied.end()) == dims);
        dims.push_back(static_cast<std::int64_t>(rank * 1000 + 7));
    }
    CHECK(SummaryShape().dims().empty());
}
