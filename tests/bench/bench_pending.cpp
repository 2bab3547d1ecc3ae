// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_pending.hpp"

#include "eventwriter.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "pendingevents.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace nanscope::bench {

namespace {

using namespace nanscope::detail;

constexpr int kTraces = 22;
const float kValue = 0.5f;
const std::vector<std::int64_t> kShape = {1};

// One record call's events and their batch, as recordTraces and recordExecution queue them.
void queueCall(PendingEvents& pending,
               std::span<const std::shared_ptr<const wire::TraceFrame>> frames)
{
    std::vector<QueuedEvent> events;
    events.reserve(frames.size());
    DeviceSummaries summaries{.mode = TensorDebugMode::FullHealth};
    summaries.batch = std::make_unique<gpu::SummaryBatch>(MemorySpace::Host);
    for (const auto& frame : frames) {
        auto trace = std::make_unique<QueuedTrace>();
        trace->wallTime = 1.0;
        trace->frame = frame;
        auto index =
            summaries.batch->add({.data = &kValue, .count = 1}, TensorDebugMode::FullHealth);
        summaries.slots.push_back({.payload = &trace->payload,
                                   .index = *index,
                                   .shape = SummaryShape(kShape),
                                   .tensorId = 1.0});
        events.push_back({.kind = FileKind::GraphExecutionTraces, .trace = std::move(trace)});
    }
    if (!summaries.batch->submit().ok() ||
        !pending.push(std::move(events), std::move(summaries)).ok()) {
        std::fprintf(stderr, "queueing a step's events failed\n");
        std::exit(2);
    }
}

} // namespace

QueueTimes queuedStepMicroseconds(int steps)
{
    const auto root = std::filesystem::temp_directory_path() /
                      ("nanscope-bench-pending-" + std::to_string(std::random_device{}()));
    EventWriter writer;
    if (!writer.open({.dumpRoot = root, .hostName = "bench", .runId = "bench", .version = "bench"})
             .ok()) {
        std::fprintf(stderr, "cannot open an event writer in %s\n", root.c_str());
        std::exit(2);
    }
    std::vector<std::shared_ptr<const wire::TraceFrame>> frames;
    for (int i = 0; i <= kTraces; ++i)
        frames.push_back(std::make_shared<const wire::TraceFrame>(wire::makeTraceFrame(
            "train_step", "op_" + std::to_string(i), 0, TensorDebugMode::FullHealth, "GPU:0")));
    const std::span<const std::shared_ptr<const wire::TraceFrame>> all(frames);
    std::vector<double> times;
    {
        PendingEvents pending(writer);
        for (int s = 0; s < steps; ++s) {
            const auto start = std::chrono::steady_clock::now();
            queueCall(pending, all.first(kTraces));
            queueCall(pending, all.subspan(kTraces));
            times.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count());
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        (void)pending.close();
    }
    (void)writer.close();
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], times[times.size() * 9 / 10]};
}

} // namespace nanscope::bench
