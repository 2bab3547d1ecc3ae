// SPDX-License-Identifier: GPL-3.0-or-later
// Circular buffers, write-through timing and many threads recording at once.
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

using namespace nanscope;
using test::readEvents;

namespace {

struct Fixture
{
    test::TempDir dir;
    std::unique_ptr<Recorder> rec;
    OpHandle op;

    explicit Fixture(int buffer,
                     std::chrono::milliseconds interval = std::chrono::milliseconds(100))
    {
        auto r = Recorder::open({.dumpRoot = dir.path(),
                                 .mode = TensorDebugMode::FullTensor,
                                 .circularBufferSize = buffer,
                                 .flushInterval = interval});
        REQUIRE(r.ok());
        rec = std::move(*r);
        auto graph = rec->declareGraph("g");
        op = *rec->declareOp({.graph = *graph, .type = "Counter", .name = "counter"});
    }

    // Traces and executions carry the value i, so that the survivors can be identified.
    void record(std::int32_t i)
    {
        REQUIRE(rec->recordTrace(op, 0, {.data = &i, .dtype = DType::Int32}).ok());
        REQUIRE(rec->recordExecution({.opType = "Step",
                                      .outputIds = {i},
                                      .outputs = {{.data = &i, .dtype = DType::Int32}}})
                    .ok());
    }

    std::vector<std::int32_t> tracedValues()
    {
        std::vector<std::int32_t> values;
        for (const auto& e : readEvents(dir.path(), "graph_execution_traces")) {
            const auto& p = e.graph_execution_trace().tensor_proto();
            REQUIRE(p.int_val_size() + p.tensor_content().size() > 0);
            std::int32_t v = 0;
            std::memcpy(&v, p.tensor_content().data(), 4);
            values.push_back(v);
        }
        return values;
    }

    std::vector<std::int64_t> executedIds()
    {
        std::vector<std::int64_t> ids;
        for (const auto& e : readEvents(dir.path(), "execution"))
            ids.push_back(e.execution().output_tensor_ids(0));
        return ids;
    }
};

std::vector<std::int32_t> range(std::int32_t from, std::int32_t to)
{
    std::vector<std::int32_t> v;
    for (auto i = from; i < to; ++i)
        v.push_back(i);
    return v;
}

} // namespace

TEST_CASE("a circular buffer keeps only the last N events until flush", "[buffering]")
{
    Fixture f(5);
    for (int i = 0; i < 12; ++i)
        f.record(i);
    // Nothing of the execution-type files reaches the disk before a flush, as in TensorFlow;
    // the graphs do, within the flush interval.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(std::filesystem::file_size(test::findFile(f.dir.path(), "graph_execution_traces")) == 0);
    CHECK(std::filesystem::file_size(test::findFile(f.dir.path(), "execution")) == 0);
    CHECK(readEvents(f.dir.path(), "graphs").size() == 3); // graph, op, device

    REQUIRE(f.rec->flush().ok());
    CHECK(f.tracedValues() == range(7, 12));
    CHECK(f.executedIds() == std::vector<std::int64_t>{7, 8, 9, 10, 11});

    // Later flushes append what came since.
    for (int i = 12; i < 15; ++i)
        f.record(i);
    REQUIRE(f.rec->close().ok());
    auto expected = range(7, 15);
    CHECK(f.tracedValues() == expected);
}

TEST_CASE("a full circular buffer's records are rewritten in place, whatever their sizes",
          "[buffering]")
{
    // A full buffer serialises each new event into the storage of the one it pushes out: a
    // short event after a long one must leave nothing of the long one behind.
    Fixture f(3);
    std::vector<std::int32_t> values(3000);
    const auto lengthOf = [](std::int32_t i) {
        return i % 3 == 0 ? 3000 : 1 + i % 5;
    };
    for (std::int32_t i = 0; i < 40; ++i) {
        std::fill(values.begin(), values.end(), i);
        const std::int64_t shape[1] = {lengthOf(i)};
        REQUIRE(f.rec
                    ->recordTrace(f.op, 0,
                                  {.data = values.data(), .dtype = DType::Int32, .shape = shape})
                    .ok());
    }
    REQUIRE(f.rec->close().ok());
    const auto traces = readEvents(f.dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() == 3);
    for (std::size_t k = 0; k < traces.size(); ++k) {
        const auto i = static_cast<std::int32_t>(37 + k);
        const auto& content = traces[k].graph_execution_trace().tensor_proto().tensor_content();
        INFO("event " << i);
        REQUIRE(content.size() == 4 * static_cast<std::size_t>(lengthOf(i)));
        std::vector<std::int32_t> read(content.size() / 4);
        std::memcpy(read.data(), content.data(), content.size());
        CHECK(read == std::vector<std::int32_t>(read.size(), i));
    }
}

TEST_CASE("a circular buffer is written at close", "[buffering]")
{
    Fixture f(1000);
    for (int i = 0; i < 10; ++i)
        f.record(i);
    REQUIRE(f.rec->close().ok());
    CHECK(f.tracedValues() == range(0, 10));
}

TEST_CASE("a circular buffer keeps each trace's own op, payload and time, in every summary mode",
          "[buffering]")
{
    // The buffer keeps these traces unframed until they are written: it takes each payload
    // (whose storage the next record call reuses) and shares its op's frame (whose handle may be
    // gone by then).
    struct Case
    {
        TensorDebugMode mode;
        int sizeAt; // where the summary holds the element count; -1: nowhere
    };
    for (const Case c : {Case{TensorDebugMode::NoTensor, -1}, Case{TensorDebugMode::CurtHealth, -1},
                         Case{TensorDebugMode::ConciseHealth, 1},
                         Case{TensorDebugMode::FullHealth, 4}, Case{TensorDebugMode::Shape, 3}}) {
        INFO("mode " << static_cast<int>(c.mode));
        test::TempDir dir;
        auto opened =
            Recorder::open({.dumpRoot = dir.path(), .mode = c.mode, .circularBufferSize = 6});
        REQUIRE(opened.ok());
        Recorder& rec = **opened;
        auto graph = rec.declareGraph("g");
        const std::vector<float> values(24, 1.0f);
        for (int i = 0; i < 12; ++i) {
            auto op =
                rec.declareOp({.graph = *graph, .type = "Op", .name = "op_" + std::to_string(i)});
            auto twin =
                rec.declareOp({.graph = *graph, .type = "Op", .name = "twin_" + std::to_string(i)});
            REQUIRE((op && twin));
            const std::int64_t shape[1] = {i + 1};
            const std::int64_t twinShape[1] = {2 * (i + 1)};
            const TraceSpec calls[2] = {{*op, 0, {.data = values.data(), .shape = shape}},
                                        {*twin, 0, {.data = values.data(), .shape = twinShape}}};
            REQUIRE(rec.recordTraces(calls).ok());
        } // the op handles die here
        const double recordedAt =
            std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        REQUIRE(rec.close().ok());

        const auto traces = readEvents(dir.path(), "graph_execution_traces");
        REQUIRE(traces.size() == 6);
        for (std::size_t k = 0; k < traces.size(); ++k) {
            const int i = 9 + static_cast<int>(k / 2);
            const bool isTwin = k % 2 == 1;
            const auto& trace = traces[k].graph_execution_trace();
            CHECK(trace.op_name() == (isTwin ? "twin_" : "op_") + std::to_string(i));
            CHECK(traces[k].wall_time() <= recordedAt);
            const auto& payload = trace.tensor_proto();
            if (c.mode == TensorDebugMode::NoTensor) {
                CHECK(payload.tensor_content().empty());
                CHECK(payload.tensor_shape().dim_size() == 1);
                continue;
            }
            std::vector<double> summary(payload.tensor_content().size() / sizeof(double));
            std::memcpy(summary.data(), payload.tensor_content().data(),
                        summary.size() * sizeof(double));
            REQUIRE(summary.size() > 1);
            if (c.sizeAt >= 0)
                CHECK(summary[static_cast<std::size_t>(c.sizeAt)] == (isTwin ? 2 : 1) * (i + 1));
        }
    }
}

TEST_CASE("a circular buffer keeps each execution's own fields and summaries", "[buffering]")
{
    test::TempDir dir;
    auto opened = Recorder::open(
        {.dumpRoot = dir.path(), .mode = TensorDebugMode::FullHealth, .circularBufferSize = 5});
    REQUIRE(opened.ok());
    Recorder& rec = **opened;
    const std::vector<float> values(12, 2.0f);
    for (int i = 0; i < 12; ++i) {
        const std::int64_t shape[1] = {i + 1};
        REQUIRE(rec.recordExecution({.opType = "Op" + std::to_string(i),
                                     .inputIds = {i},
                                     .outputIds = {100 + i},
                                     .outputs = {{.data = values.data(), .shape = shape}}})
                    .ok());
    }
    REQUIRE(rec.close().ok());
    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 5);
    for (std::size_t k = 0; k < executions.size(); ++k) {
        const int i = 7 + static_cast<int>(k);
        const auto& e = executions[k].execution();
        CHECK(e.op_type() == "Op" + std::to_string(i));
        REQUIRE(e.input_tensor_ids_size() == 1);
        CHECK(e.input_tensor_ids(0) == i);
        REQUIRE(e.output_tensor_ids_size() == 1);
        CHECK(e.output_tensor_ids(0) == 100 + i);
        REQUIRE(e.tensor_protos_size() == 1);
        const std::string& content = e.tensor_protos(0).tensor_content();
        REQUIRE(content.size() == 11 * sizeof(double));
        double size = 0;
        std::memcpy(&size, content.data() + 4 * sizeof(double), sizeof size); // element count
        CHECK(size == i + 1);
    }
}

TEST_CASE("FULL_TENSOR values in a circular buffer are those of the call, whatever the program "
          "does with its memory afterwards",
          "[buffering]")
{
    // A FULL_TENSOR payload only borrows the caller's values, so such records are framed at once.
    test::TempDir dir;
    auto opened = Recorder::open(
        {.dumpRoot = dir.path(), .mode = TensorDebugMode::FullTensor, .circularBufferSize = 4});
    REQUIRE(opened.ok());
    Recorder& rec = **opened;
    auto graph = rec.declareGraph("g");
    auto op = rec.declareOp({.graph = *graph, .type = "Op", .name = "op"});
    std::vector<float> values(8);
    const std::int64_t shape[1] = {8};
    for (int i = 0; i < 6; ++i) {
        std::fill(values.begin(), values.end(), static_cast<float>(i));
        const TensorView tensor{.data = values.data(), .shape = shape};
        REQUIRE(rec.recordTrace(*op, 0, tensor).ok());
        REQUIRE(rec.recordExecution({.opType = "Op", .outputIds = {i}, .outputs = {tensor}}).ok());
    }
    std::fill(values.begin(), values.end(), -1.0f); // the program reuses its buffer
    REQUIRE(rec.close().ok());
    const auto firstValue = [](const tfdbg::TensorProto& p) {
        float v = 0;
        REQUIRE(p.tensor_content().size() == 8 * sizeof(float));
        std::memcpy(&v, p.tensor_content().data(), sizeof v);
        return v;
    };
    const auto traces = readEvents(dir.path(), "graph_execution_traces");
    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(traces.size() == 4);
    REQUIRE(executions.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
        CHECK(firstValue(traces[k].graph_execution_trace().tensor_proto()) == 2.0f + k);
        CHECK(firstValue(executions[k].execution().tensor_protos(0)) == 2.0f + k);
    }
}

TEST_CASE("events keep the time they were recorded at, not the time of the flush", "[buffering]")
{
    Fixture f(10);
    f.record(1);
    const double recordedAt =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    REQUIRE(f.rec->close().ok());
    const auto traces = readEvents(f.dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() == 1);
    CHECK(traces[0].wall_time() <= recordedAt);
    CHECK(traces[0].wall_time() > recordedAt - 1.0);
}

TEST_CASE("write-through events reach the disk within the flush interval, no flush needed",
          "[buffering]")
{
    Fixture f(0, std::chrono::milliseconds(20));
    for (int i = 0; i < 3; ++i)
        f.record(i);
    // Poll rather than sleep a fixed time: the machine may be slow, the bound is what matters.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (f.tracedValues().size() < 3 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(f.tracedValues() == range(0, 3));
    CHECK(f.executedIds().size() == 3);
    // And the graph, op and device they refer to are on disk too.
    CHECK(readEvents(f.dir.path(), "graphs").size() == 3);
}

TEST_CASE("many threads record at once: nothing lost, nothing doubled", "[buffering][threads]")
{
    constexpr int kThreads = 8;
    constexpr int kPerThread = 5000;
    Fixture f(-1, std::chrono::milliseconds(5));
    // Ops declared from several threads too: unique ids, no duplicate names.
    std::vector<OpHandle> ops(kThreads);
    std::vector<std::thread> threads;
    std::atomic<int> failures{0}; // Catch2's assertions are not thread-safe
    auto graph = f.rec->declareGraph("threads");
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto op = f.rec->declareOp(
                {.graph = *graph, .type = "Worker", .name = "worker_" + std::to_string(t)});
            if (!op.ok()) {
                ++failures;
                return;
            }
            ops[t] = *op;
            for (std::int32_t i = 0; i < kPerThread; ++i) {
                const std::int32_t value = t * kPerThread + i;
                if (!f.rec->recordTrace(ops[t], 0, {.data = &value, .dtype = DType::Int32}).ok())
                    ++failures;
            }
        });
    }
    for (auto& t : threads)
        t.join();
    REQUIRE(failures == 0);
    REQUIRE(f.rec->close().ok());

    std::set<std::int32_t> ids;
    for (const auto& op : ops)
        ids.insert(op.outputTensorIds()[0]);
    CHECK(ids.size() == kThreads);

    auto values = f.tracedValues();
    REQUIRE(values.size() == kThreads * kPerThread);
    // Per thread the order is kept; across threads every value appears exactly once.
    std::vector<std::int32_t> lastSeen(kThreads, -1);
    std::set<std::int32_t> unique(values.begin(), values.end());
    CHECK(unique.size() == values.size());
    for (const auto v : values) {
        const int t = v / kPerThread;
        REQUIRE(v > lastSeen[t]);
        lastSeen[t] = v;
    }
    CHECK(f.rec->stats().recordsDropped == 0);
}

TEST_CASE("recorders still open at exit are flushed", "[buffering]")
{
    // A child process records into a circular buffer and returns from main without closing. The
    // buffer's NO_TENSOR traces point at a shared placeholder payload, which must outlive the
    // exit handler.
    const auto mode = GENERATE(TensorDebugMode::FullHealth, TensorDebugMode::NoTensor);
    test::TempDir dir;
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        auto r = Recorder::open({.dumpRoot = dir.path(), .mode = mode});
        if (!r.ok())
            _exit(3);
        auto graph = (*r)->declareGraph("g");
        auto op = (*r)->declareOp({.graph = *graph, .type = "T", .name = "t"});
        const float v = 1.0f;
        (void)(*r)->recordTrace(*op, 0, {.data = &v});
        // Leaked on purpose: only the exit handler can write it out.
        [[maybe_unused]] Recorder* leaked = r.value().release();
#if defined(__SANITIZE_ADDRESS__)
        __lsan_ignore_object(leaked);
#endif
        std::exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    const auto traces = readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() == 1);
    CHECK(traces[0].graph_execution_trace().op_name() == "t");
    CHECK(traces[0].graph_execution_trace().tensor_proto().tensor_shape().dim_size() == 1);
}
