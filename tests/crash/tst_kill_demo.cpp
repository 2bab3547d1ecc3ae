// SPDX-License-Identifier: GPL-3.0-or-later
// Crash consistency: the demo, writing every event as it comes (--dump_circular_buffer_size=-1),
// is killed with SIGKILL at random moments. Whatever moment it dies, its logdir
// - opens without an error diagnostic, and without any warning but those a start cut short
//   explains (files not created yet, an empty metadata file); a torn last record is info;
// - holds every record whose write had completed: each file's whole records, as far as the file
//   reached just before the kill, are all read;
// - is consistent: every trace's op, every op's stack frames, every frame's source file and every
//   execution's graph is there (the recorder writes what records refer to first);
// - is a prefix of a complete run: its ops, traces and executions are the first ones of the
//   same program's uninterrupted logdir, in the same order (the demo is deterministic).
#include "childprocess.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <map>
#include <random>
#include <sys/stat.h>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kTrials = 60;

std::vector<std::string> demoCommand(const fs::path& dir)
{
    return {NANSCOPE_DEMO_MLP, "--dump_dir",
            dir.string(),      "--dump_tensor_debug_mode",
            "FULL_HEALTH",     "--dump_circular_buffer_size=-1",
            "--max_steps",     "4"};
}

// What must match between a cut-short run and the complete one, by kind of record.
struct Sequences
{
    std::vector<std::string> ops;        // graph name / op name / type
    std::vector<std::string> traces;     // graph name / op name / slot / mode / health
    std::vector<std::string> executions; // op type / mode / health / outputs
};

Sequences sequencesOf(const Snapshot& s)
{
    Sequences q;
    const GraphTable& g = s.graphs();
    for (const auto& op : g.ops())
        if (op.declared)
            q.ops.push_back(g.graph(op.graph).name + "/" + op.name + "/" + op.type);
    for (std::uint64_t i = 0; i < s.traceCount(); ++i) {
        const TraceDigest t = s.trace(i);
        const OpInfo& op = g.op(t.op);
        q.traces.push_back(
            g.graph(op.graph).name + "/" + op.name + "/" + std::to_string(t.outputSlot) + "/" +
            std::to_string(static_cast<int>(t.mode)) + "/" + std::to_string(t.health.bits));
    }
    for (std::uint64_t i = 0; i < s.executionCount(); ++i) {
        const ExecutionDigest e = s.execution(i);
        q.executions.push_back(
            std::string(e.opType) + "/" + std::to_string(static_cast<int>(e.mode)) + "/" +
            std::to_string(e.health.bits) + "/" + std::to_string(e.numOutputIds));
    }
    return q;
}

bool isPrefix(const std::vector<std::string>& part, const std::vector<std::string>& whole)
{
    return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

// The files of the logdir by suffix.
std::map<std::string, fs::path> logdirFiles(const fs::path& dir)
{
    std::map<std::string, fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        files[name.substr(name.rfind('.') + 1)] = e.path();
    }
    return files;
}

std::map<std::string, std::uint64_t> fileSizes(const fs::path& dir)
{
    std::map<std::string, std::uint64_t> sizes;
    for (const auto& [suffix, path] : logdirFiles(dir)) {
        struct stat st
        {};
        if (::stat(path.c_str(), &st) == 0)
            sizes[suffix] = static_cast<std::uint64_t>(st.st_size);
    }
    return sizes;
}

// Whole records within the first `size` bytes of `file`.
std::uint64_t wholeRecordsWithin(const fs::path& file, std::uint64_t size)
{
    format::RecordFileReader reader;
    if (!reader.open(file))
        return 0;
    std::string payload;
    std::uint64_t n = 0;
    while (reader.next(payload) == format::RecordStatus::Ok && reader.offset() <= size)
        ++n;
    return n;
}

// Diagnostics that a program killed while it started may leave; anything else is a failure.
bool explainedByEarlyKill(const Diagnostic& d)
{
    if (d.severity == Severity::Info)
        return d.message.find("incomplete record at the end") != std::string::npos;
    if (d.severity == Severity::Warning)
        return d.message == "missing; read as empty" ||
               d.message.find("the metadata file is empty") != std::string::npos ||
               d.message.find("the metadata record is incomplete") != std::string::npos ||
               d.message.find("no readable metadata") != std::string::npos;
    return d.message.find("no such file or directory") != std::string::npos ||
           d.message.find("no tfdbg2 files here") != std::string::npos;
}

struct Reference
{
    Sequences sequences;
    double recordingSeconds = 0; // from the logdir's appearance to the program's end
};

Reference referenceRun(const fs::path& dir)
{
    Reference r;
    const pid_t pid = test::spawnQuiet(demoCommand(dir));
    while (!fs::exists(dir))
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const auto appeared = Clock::now();
    const auto status = test::waitFor(pid);
    r.recordingSeconds = std::chrono::duration<double>(Clock::now() - appeared).count();
    REQUIRE(status.exited);
    REQUIRE(status.code == 0);
    const auto s = LogdirReader(dir).update();
    REQUIRE(s->diagnostics().empty());
    r.sequences = sequencesOf(*s);
    REQUIRE(r.sequences.traces.size() > 100);
    return r;
}

} // namespace

TEST_CASE("the demo killed at random moments leaves a consistent, complete-so-far logdir",
          "[crash][kill]")
{
    test::TempDir scratch;
    const Reference reference = referenceRun(scratch.path() / "reference");
    INFO("recording takes " << reference.recordingSeconds << " s");

    std::mt19937 random(20240611);
    std::uniform_real_distribution<double> moment(0.0, reference.recordingSeconds);
    std::uint64_t tracesSeen = 0;
    int cutShort = 0;
    for (int trial = 0; trial < kTrials; ++trial) {
        const fs::path dir = scratch.path() / ("trial-" + std::to_string(trial));
        const pid_t pid = test::spawnQuiet(demoCommand(dir));
        // Wait for the recording to start (the demo makes its data first), then pick a moment in
        // it; some trials kill after the program ended, when the machine runs it faster.
        const auto spawned = Clock::now();
        while (!fs::exists(dir) && Clock::now() - spawned < std::chrono::seconds(20))
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::this_thread::sleep_for(std::chrono::duration<double>(moment(random)));
        const auto before = fileSizes(dir);
        ::kill(pid, SIGKILL);
        const auto status = test::waitFor(pid);
        cutShort += status.exited ? 0 : 1;

        INFO("trial " << trial << " (" << (status.exited ? "had ended" : "killed") << ")");
        const auto s = LogdirReader(dir).update();
        for (const auto& d : s->diagnostics()) {
            INFO(toString(d.severity) << ": " << d.file << ": " << d.message);
            CHECK(explainedByEarlyKill(d));
        }
        // Everything written before the kill is read.
        const auto files = logdirFiles(dir);
        auto wholeBefore = [&](const std::string& suffix) -> std::uint64_t {
            const auto size = before.find(suffix);
            return size == before.end() ? 0 : wholeRecordsWithin(files.at(suffix), size->second);
        };
        const GraphTable& g = s->graphs();
        CHECK(s->traceCount() >= wholeBefore("graph_execution_traces"));
        CHECK(s->executionCount() >= wholeBefore("execution"));
        CHECK(g.declaredGraphCount() + g.declaredOpCount() + g.devices().size() >=
              wholeBefore("graphs"));
        CHECK(s->code().frames().size() >= wholeBefore("stack_frames"));
        CHECK(s->code().files().size() >= wholeBefore("source_files"));
        // Nothing refers to a record that is not there.
        for (const auto& op : g.ops()) {
            CHECK(op.declared);
            for (const auto& id : op.stackFrameIds) {
                const StackFrameInfo* frame = s->code().findFrame(id);
                CHECK(frame != nullptr);
                if (frame)
                    CHECK(s->code().resolved(*frame));
            }
        }
        for (std::uint64_t i = 0; i < s->executionCount(); ++i) {
            const ExecutionDigest e = s->execution(i);
            if (!e.graphId.empty()) {
                const auto graph = g.findGraph(e.graphId);
                CHECK((graph && g.graph(*graph).declared));
            }
        }
        // The first records of the complete run, in its order.
        const Sequences got = sequencesOf(*s);
        CHECK(isPrefix(got.ops, reference.sequences.ops));
        CHECK(isPrefix(got.traces, reference.sequences.traces));
        CHECK(isPrefix(got.executions, reference.sequences.executions));
        tracesSeen += got.traces.size();
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    WARN(kTrials << " kills (" << cutShort << " cut the program short), " << tracesSeen
                 << " traces checked");
    CHECK(cutShort >= kTrials / 3); // most moments fell inside the recording
}
