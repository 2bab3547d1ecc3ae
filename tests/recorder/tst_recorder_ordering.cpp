// SPDX-License-Identifier: GPL-3.0-or-later
// The order in which records reach the disk. Records refer to records of other files (a trace to
// its op, an op to its stack frames, a frame to its source file by position), and a reader — or
// a crash — may look at the files at any moment. So whatever is on disk must already hold what it
// refers to, even while several threads record and the background flusher writes.
//
// Checked by reading the files in the opposite order, dependents first: files only grow, so
// everything a record read earlier refers to must be found in the files read after it.
#include "logdirfixture.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

using namespace nanscope;

namespace {

// The logdir as a reader sees it over time: each look reads only what was appended since the
// last one, dependents first.
class DiskView
{
public:
    explicit DiskView(std::filesystem::path prefix) : m_prefix(std::move(prefix)) {}

    // Reads what is new; returns what is missing ("" when consistent).
    std::string look()
    {
        // The bytes first, one file right after the other, and only then the parsing: the less
        // time between reading a trace and reading the ops, the likelier a trace written before
        // its op is caught.
        const auto rawTraces = next(".graph_execution_traces");
        const auto rawExecutions = next(".execution");
        const auto rawGraphs = next(".graphs");
        const auto rawFrames = next(".stack_frames");
        m_sourceCount += next(".source_files").size();
        const auto traces = parsed(rawTraces);
        const auto executions = parsed(rawExecutions);
        const auto graphs = parsed(rawGraphs);
        const auto frames = parsed(rawFrames);
        for (const auto& e : graphs) {
            if (e.has_debugged_graph())
                m_graphIds.insert(e.debugged_graph().graph_id());
            if (e.has_graph_op_creation())
                m_ops.insert(e.graph_op_creation().graph_id() + "/" +
                             e.graph_op_creation().op_name());
        }
        for (const auto& e : frames)
            m_frameIds.insert(e.stack_frame_with_id().id());

        for (const auto& e : traces) {
            const auto& t = e.graph_execution_trace();
            if (!m_ops.contains(t.tfdbg_context_id() + "/" + t.op_name()))
                return "a trace of op " + t.op_name() + " before the op";
        }
        for (const auto& e : executions)
            if (!framesKnown(e.execution().code_location()))
                return "an execution before its stack frame";
        for (const auto& e : graphs) {
            if (!e.has_graph_op_creation())
                continue;
            const auto& op = e.graph_op_creation();
            if (!m_graphIds.contains(op.graph_id()))
                return "op " + op.op_name() + " before its graph";
            if (!framesKnown(op.code_location()))
                return "op " + op.op_name() + " before its stack frame";
        }
        for (const auto& e : frames)
            if (e.stack_frame_with_id().file_line_col().file_index() >=
                static_cast<std::int64_t>(m_sourceCount))
                return "a stack frame before its source file";
        return {};
    }

private:
    std::vector<std::string> next(const char* suffix)
    {
        auto& reader = m_readers[suffix];
        if (!reader.isOpen()) {
            auto path = m_prefix;
            path += suffix;
            reader.open(path);
        }
        std::vector<std::string> payloads;
        std::string payload;
        while (reader.next(payload) == format::RecordStatus::Ok)
            payloads.push_back(payload);
        return payloads;
    }

    static std::vector<tfdbg::DebugEvent> parsed(const std::vector<std::string>& payloads)
    {
        std::vector<tfdbg::DebugEvent> events(payloads.size());
        for (std::size_t i = 0; i < payloads.size(); ++i)
            if (!events[i].ParseFromString(payloads[i]))
                throw std::runtime_error("a record that is not a DebugEvent");
        return events;
    }

    bool framesKnown(const tfdbg::CodeLocation& location) const
    {
        for (const auto& id : location.stack_frame_ids())
            if (!m_frameIds.contains(id))
                return false;
        return true;
    }

    std::filesystem::path m_prefix;
    std::map<std::string, format::RecordFileReader> m_readers;
    std::set<std::string> m_graphIds, m_ops, m_frameIds;
    std::size_t m_sourceCount = 0;
};

} // namespace

TEST_CASE("records reach the disk after what they refer to, whatever the threads do", "[ordering]")
{
    test::TempDir dir;
    auto r = Recorder::open({.dumpRoot = dir.path(),
                             .mode = TensorDebugMode::CurtHealth,
                             .circularBufferSize = -1,
                             .flushInterval = std::chrono::milliseconds(1)});
    REQUIRE(r);
    auto& rec = **r;
    std::atomic<bool> stop{false};
    std::atomic<int> looks{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t) {
        threads.emplace_back([&rec, &stop, &looks, t] {
            auto graph = rec.declareGraph("g" + std::to_string(t));
            const float values[2] = {1, 2};
            const std::int64_t shape[1] = {2};
            for (int i = 0; !stop && graph; ++i) {
                // At most 50 iterations a look, so that the checking thread keeps up however
                // the threads are scheduled (ThreadSanitizer and a busy machine slow it most).
                while (!stop && i >= (looks + 1) * 50)
                    std::this_thread::sleep_for(std::chrono::microseconds(50));
                std::this_thread::sleep_for(std::chrono::microseconds(20));
                const std::string name = std::to_string(t) + "-" + std::to_string(i);
                // A new source file, frame, op and trace each time: every kind of reference.
                auto op = rec.declareOp({.graph = *graph, .type = "Op", .name = "op-" + name},
                                        CodeLocation("/virtual/" + name + ".cpp", 1, "f"));
                if (op)
                    (void)rec.recordTrace(*op, 0, {.data = values, .shape = shape});
                const std::int64_t out = rec.newTensorId();
                (void)rec.recordExecution({.opType = "Exp",
                                           .outputIds = {out},
                                           .outputs = {{.data = values, .shape = shape}}},
                                          CodeLocation("/virtual/e" + name + ".cpp", 2, "g"));
            }
        });
    }
    DiskView disk(rec.filePrefix());
    std::string problem;
    const auto start = std::chrono::steady_clock::now();
    while ((looks < 100 || std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) &&
           problem.empty()) {
        problem = disk.look();
        ++looks;
    }
    stop = true;
    for (auto& t : threads)
        t.join();
    INFO(looks << " looks at the files while they were written");
    CHECK(problem == "");
    CHECK(rec.close().ok());
    CHECK(disk.look() == "");
}
