// SPDX-License-Identifier: GPL-3.0-or-later
// Every oddity gets a diagnostic: names of stack frames and graphs that no record declares, and a
// record whose length (its CRC checks) is over the size limit, which is named as such and not as
// a corrupt record.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/crc32c.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;

TEST_CASE("unknown stack frame ids and undeclared graphs are diagnosed", "[oddities]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("source_files", ev::sourceFile("/src/model.py", "localhost", {"x = 1"}));
    set.append("stack_frames", ev::stackFrame("known", 0, 1, "f"));
    set.append("graphs", ev::op("g", "Log", "log", {"r:0"}, {2}, {"known", "gone-1"}));
    set.append("graphs", ev::op("g", "Exp", "exp", {"r:0"}, {3}, {"gone-2"}));
    set.append("execution", ev::execution(1.0, "Relu", {1}, {2}, 3,
                                          {ev::conciseHealth(-1, 1, 0, 0, 0)}, {}, {"gone-3"}));
    set.append("execution", ev::execution(2.0, "__inference_f_1", {1}, {2}, 3,
                                          {ev::conciseHealth(-1, 1, 0, 0, 0)}, "no-such-graph"));

    const auto s = LogdirReader(dir.path()).update();
    const Diagnostic* ops = test::findDiagnostic(
        *s, Severity::Warning,
        "2 ops name stack frame ids that no StackFrameWithId record has (the first: \"gone-1\")");
    REQUIRE(ops != nullptr);
    CHECK_THAT(ops->file, Catch::EndsWith(".graphs"));
    const Diagnostic* executions = test::findDiagnostic(
        *s, Severity::Warning,
        "1 executions name stack frame ids that no StackFrameWithId record has (the first: "
        "\"gone-3\")");
    REQUIRE(executions != nullptr);
    CHECK_THAT(executions->file, Catch::EndsWith(".execution"));
    CHECK(test::findDiagnostic(*s, Severity::Warning,
                               "1 executions name a graph that no DebuggedGraph declares (the "
                               "first: \"no-such-graph\")"));
    CHECK(s->executionCount() == 2); // kept

    // Once the frames arrive, the ops' diagnostic goes.
    set.append("stack_frames", ev::stackFrame("gone-1", 0, 1, "g"));
    set.append("stack_frames", ev::stackFrame("gone-2", 0, 1, "h"));
    LogdirReader reader(dir.path());
    const auto again = reader.update();
    CHECK_FALSE(test::findDiagnostic(*again, Severity::Warning, "ops name stack frame ids"));
}

// Executions repeat their call site and op type step after step, and the reader remembers the
// last answer for each; every execution must still be counted, and a change of call site or of
// name must be seen.
TEST_CASE("repeated and alternating call sites and op types of executions are each counted",
          "[oddities]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("source_files", ev::sourceFile("/src/model.py", "localhost", {"x = 1"}));
    set.append("stack_frames", ev::stackFrame("known", 0, 1, "f"));
    const std::vector<std::pair<std::string, std::vector<std::string>>> calls{
        {"Relu", {"known", "gone-a"}}, {"Relu", {"known", "gone-a"}}, {"Exp", {"known"}},
        {"Relu", {"known", "gone-a"}}, {"Exp", {"gone-b"}},           {"Exp", {"known"}}};
    double wall = 1.0;
    for (const auto& [type, frames] : calls)
        set.append("execution", ev::execution(wall += 1, type, {1}, {2}, 3,
                                              {ev::conciseHealth(-1, 1, 0, 0, 0)}, {}, frames));

    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->executionCount() == calls.size());
    CHECK(test::findDiagnostic(*s, Severity::Warning,
                               "4 executions name stack frame ids that no StackFrameWithId record "
                               "has (the first: \"gone-a\")"));
    for (std::uint64_t i = 0; i < calls.size(); ++i)
        CHECK(s->execution(i).opType == calls[i].first);
}

TEST_CASE("a record whose valid length is over 2 GiB is over the size limit, not corrupt",
          "[oddities][hostile]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    // A length of 3 GiB whose CRC checks, then a few bytes.
    std::string header(12, '\0');
    const std::uint64_t length = std::uint64_t{3} << 30;
    for (int i = 0; i < 8; ++i)
        header[i] = static_cast<char>((length >> (8 * i)) & 0xff);
    const std::uint32_t crc = format::maskCrc(format::crc32c(header.data(), 8));
    for (int i = 0; i < 4; ++i)
        header[8 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
    set.appendBytes("graph_execution_traces", header + "a few bytes");
    const auto s = LogdirReader(dir.path()).update();
    const Diagnostic* d = test::findDiagnostic(*s, Severity::Error, "over the size limit");
    REQUIRE(d != nullptr);
    CHECK_THAT(d->file, Catch::EndsWith(".graph_execution_traces"));
    CHECK_FALSE(test::findDiagnostic(*s, Severity::Error, "corrupt record"));
}
