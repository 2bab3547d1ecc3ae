// SPDX-License-Identifier: GPL-3.0-or-later
// A logdir followed while it is written shows, once written, what a reader that opens it then
// shows: the run's metadata, the record problems listed, the order of what records name but
// nothing declares and the counts of what they name before it is written do not depend on when
// the reader looked (the followed_logdir fuzz target
// checks this on any logdir; these are the cases it found).
#include "indexcachetesting.hpp"
#include "indexstate.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/format/record.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

std::size_t countContaining(const std::vector<Diagnostic>& list, const std::string& fragment)
{
    return static_cast<std::size_t>(
        std::count_if(list.begin(), list.end(), [&](const Diagnostic& d) {
            return d.message.find(fragment) != std::string::npos;
        }));
}

// Records whose CRCs check but whose payloads are no DebugEvent, at the end of `kind`'s file: each
// is a record problem of its own.
void appendNonEvents(FileSetWriter& set, const std::string& kind, int n)
{
    std::string bytes;
    for (int i = 0; i < n; ++i)
        format::appendRecord(bytes, "\xff\xff not an event " + std::to_string(i));
    set.appendBytes(kind, bytes);
}

// The followed reader's latest snapshot against a new reader's, in everything a report shows.
void requireAsReadWhole(LogdirReader& followed, const std::filesystem::path& dir)
{
    const auto now = followed.update();
    const auto whole = LogdirReader(dir).update();
    CHECK(now->diagnostics() == whole->diagnostics());
    CHECK(renderText(buildReport(*now)) == renderText(buildReport(*whole)));
}

} // namespace

TEST_CASE("metadata written after the first read is read, as by a reader that opens it then",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set(dir.path());
    set.createAll(); // the metadata file too, still empty
    set.append("graphs", ev::graph("g", "step"));
    set.append("graphs", ev::op("g", "Log", "log", {}, {1}));
    set.append("graph_execution_traces", ev::trace(1.0, "g", "log", 0, 2, ev::curtHealth(1, true)));
    LogdirReader reader(dir.path());
    const auto early = reader.update();
    CHECK(early->layout().runId.empty());
    CHECK(countContaining(early->diagnostics(), "no readable metadata file") == 1);
    CHECK(early->traceCount() == 1);
    (void)early->origin(); // an analysis of what was read without metadata

    set.writeMetadata(100.0, "the-run");
    set.append("graph_execution_traces", ev::trace(2.0, "g", "log", 0, 2, ev::curtHealth(1, true)));
    const auto later = reader.update();
    CHECK(later->layout().runId == "the-run");
    CHECK(later->layout().fileSets.front().hasMetadata);
    CHECK(countContaining(later->diagnostics(), "no readable metadata file") == 0);
    CHECK(later->traceCount() == 2);
    REQUIRE(later->origin());
    CHECK(later->origin()->event.index == 0);
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("record problems are listed alike whether a file was read whole or as it grew",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    // Records whose CRCs check but whose payloads are no DebugEvent: each is listed.
    const auto appendBadRecords = [&set](int n) {
        appendNonEvents(set, "graph_execution_traces", n);
    };
    appendBadRecords(15);
    LogdirReader reader(dir.path());
    CHECK(countContaining(reader.update()->diagnostics(), "not a valid DebugEvent") == 15);
    appendBadRecords(15);
    const auto grown = reader.update();
    CHECK(countContaining(grown->diagnostics(), "not a valid DebugEvent") == 30);
    CHECK(countContaining(grown->diagnostics(), "more problems like the ones above") == 0);
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("which record problems are listed past the cap does not depend on when files grew",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    // More than the cap in all: the traces' problems are read first here, the graphs' later,
    // where a reader of the whole logdir reads the graphs first.
    appendNonEvents(set, "graph_execution_traces", 150);
    LogdirReader reader(dir.path());
    CHECK(countContaining(reader.update()->diagnostics(), "not a valid DebugEvent") == 150);
    appendNonEvents(set, "graphs", 150);
    const auto grown = reader.update();
    const auto listed = countContaining(grown->diagnostics(), "not a valid DebugEvent");
    CHECK(listed == kListedRecordProblems);
    CHECK(countContaining(grown->diagnostics(), "100 more problems like the ones above") == 1);
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("undeclared graphs and ops are listed by id and name, not in the order records named "
          "them",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    // Read whole, the graphs file comes first: graph "b" (named by an op) before "a" and op "z"
    // before "y" (named by traces). Followed, the traces come first.
    set.append("graph_execution_traces", ev::trace(1.0, "a", "z", 0, 2, ev::curtHealth(1, false)));
    LogdirReader reader(dir.path());
    (void)reader.update();
    set.append("graphs", ev::op("b", "Relu", "y", {}, {1}));
    set.append("graph_execution_traces", ev::trace(2.0, "b", "x", 0, 2, ev::curtHealth(1, false)));
    const auto grown = reader.update();
    std::vector<std::string> named;
    for (const auto& d : grown->diagnostics())
        if (d.message.find("no DebuggedGraph declares") != std::string::npos ||
            d.message.find("no GraphOpCreation declares") != std::string::npos)
            named.push_back(d.message.substr(0, d.message.find(", which")));
    CHECK(named ==
          std::vector<std::string>{
              R"(1 traces name op "z" of graph "a")", R"(1 traces name op "x" of graph "b")",
              R"(graph id "a" is used by ops or traces but no DebuggedGraph declares it)",
              R"(graph id "b" is used by ops or traces but no DebuggedGraph declares it)"});
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("executions read before their graph was declared stop counting once it is",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("execution", ev::execution(1.0, "__inference_step_1", {}, {1}, 0, {}, "g"));
    set.append("execution", ev::execution(2.0, "__inference_step_1", {}, {2}, 0, {}, "h"));
    LogdirReader reader(dir.path());
    const auto early = reader.update();
    CHECK(countContaining(
              early->diagnostics(),
              R"(2 executions name a graph that no DebuggedGraph declares (the first: "g"))") == 1);
    set.append("graphs", ev::graph("g", "step"));
    const auto later = reader.update();
    CHECK(countContaining(
              later->diagnostics(),
              R"(1 executions name a graph that no DebuggedGraph declares (the first: "h"))") == 1);
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("a run started later in the same directory is read, as by a reader that opens it then",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter first(dir.path(), "localhost", 1700000000);
    first.createAll();
    first.writeMetadata(100.0, "first-run");
    first.append("graphs", ev::graph("g", "step"));
    first.append("graphs", ev::op("g", "Log", "log", {}, {1}));
    first.append("graph_execution_traces",
                 ev::trace(1.0, "g", "log", 0, 2, ev::curtHealth(1, true)));
    LogdirReader reader(dir.path());
    const auto early = reader.update();
    CHECK(early->layout().runId == "first-run");
    REQUIRE(early->origin());

    FileSetWriter second(dir.path(), "localhost", 1700000500);
    second.createAll();
    second.writeMetadata(600.0, "second-run");
    second.append("graphs", ev::graph("g2", "step"));
    second.append("graphs", ev::op("g2", "Relu", "relu", {}, {1}));
    for (double t : {601.0, 602.0})
        second.append("graph_execution_traces",
                      ev::trace(t, "g2", "relu", 0, 2, ev::curtHealth(1, false)));
    const auto later = reader.update();
    CHECK(later->layout().runId == "second-run");
    CHECK(later->traceCount() == 2);
    CHECK_FALSE(later->origin());
    CHECK(countContaining(later->diagnostics(),
                          R"(reading run "second-run", ignoring "first-run")") == 1);
    requireAsReadWhole(reader, dir.path());
}

namespace {

// Executions that name stack frames "late-a" and "late-b" before any record has them.
test::FileSetWriter executionsBeforeTheirFrames(const std::filesystem::path& dir)
{
    FileSetWriter set = test::emptyRun(dir);
    set.append("source_files", ev::sourceFile("/src/model.py", "localhost", {"x = 1", "y = 2"}));
    set.append("stack_frames", ev::stackFrame("known", 0, 1, "f"));
    const std::vector<std::vector<std::string>> frames{
        {"known", "late-a"}, {"known", "late-a"}, {"known"}, {"late-b", "late-a"}, {"late-b"}};
    double wall = 1.0;
    for (const auto& names : frames)
        set.append("execution", ev::execution(wall += 1, "Relu", {1}, {2}, 3,
                                              {ev::conciseHealth(-1, 1, 0, 0, 0)}, {}, names));
    return set;
}

const char* const kUnknownFrames = "executions name stack frame ids that no StackFrameWithId";

} // namespace

TEST_CASE("executions read before their stack frames were written stop counting once they are",
          "[reader][follow]")
{
    test::TempDir dir;
    FileSetWriter set = executionsBeforeTheirFrames(dir.path());
    LogdirReader reader(dir.path());
    CHECK(countContaining(reader.update()->diagnostics(),
                          R"(4 executions name stack frame ids that no StackFrameWithId record )"
                          R"(has (the first: "late-a"))") == 1);

    set.append("stack_frames", ev::stackFrame("late-a", 0, 2, "g"));
    // The fourth execution's first unknown frame was "late-b" all along; the others are whole.
    CHECK(countContaining(reader.update()->diagnostics(),
                          R"(2 executions name stack frame ids that no StackFrameWithId record )"
                          R"(has (the first: "late-b"))") == 1);
    requireAsReadWhole(reader, dir.path());

    set.append("stack_frames", ev::stackFrame("late-b", 0, 1, "h"));
    CHECK(countContaining(reader.update()->diagnostics(), kUnknownFrames) == 0);
    requireAsReadWhole(reader, dir.path());
}

TEST_CASE("a saved index keeps the executions that await their stack frames",
          "[reader][follow][indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    FileSetWriter set = executionsBeforeTheirFrames(dir.path());
    {
        LogdirReader reader(dir.path(), test::cachedIn(cache.path()));
        CHECK(countContaining(reader.update()->diagnostics(), kUnknownFrames) == 1);
        REQUIRE(reader.saveIndex());
    }
    set.append("stack_frames", ev::stackFrame("late-a", 0, 2, "g"));
    set.append("stack_frames", ev::stackFrame("late-b", 0, 1, "h"));
    test::letChangesAge();

    LogdirReader reopened(dir.path(), test::cachedIn(cache.path()));
    const auto s = reopened.update();
    CHECK(reopened.indexCacheStatus() == "used");
    CHECK(countContaining(s->diagnostics(), kUnknownFrames) == 0);
    CHECK(test::fingerprint(*s) == test::readFresh(dir.path()));
}
