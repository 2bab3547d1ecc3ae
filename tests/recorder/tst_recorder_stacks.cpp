// SPDX-License-Identifier: GPL-3.0-or-later
// Interned stacks (Recorder::internStack): what an interpreter's recorder passes per op instead
// of the frames themselves. The records must be those the frames would have made.
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <span>
#include <vector>

using namespace nanscope;
using test::readEvents;

namespace {

std::unique_ptr<Recorder> openRecorder(const std::filesystem::path& root)
{
    auto r = Recorder::open(
        {.dumpRoot = root, .mode = TensorDebugMode::NoTensor, .circularBufferSize = -1});
    INFO(r.status().message());
    REQUIRE(r.ok());
    return std::move(*r);
}

std::vector<std::string> frameIds(const tfdbg::CodeLocation& location)
{
    return {location.stack_frame_ids().begin(), location.stack_frame_ids().end()};
}

const std::vector<CodeLocation> kStack{{"/virtual/train.py", 12, "<module>"},
                                       {"/virtual/model.py", 40, "MLP.forward"},
                                       {"/virtual/train.py", 12, "<module>"}};

} // namespace

TEST_CASE("an interned stack records what its frames would", "[events][stacks]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path());
    auto id = rec->internStack(kStack);
    REQUIRE(id.ok());
    REQUIRE(rec->recordExecution({.opType = "aten::log"}, *id).ok());
    REQUIRE(
        rec->recordExecution({.opType = "aten::exp"}, std::span<const CodeLocation>(kStack)).ok());
    REQUIRE(rec->recordExecution({.opType = "aten::neg"}, *id).ok());
    REQUIRE(rec->close().ok());

    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 3);
    const auto interned = frameIds(executions[0].execution().code_location());
    REQUIRE(interned.size() == 3);
    CHECK(interned == frameIds(executions[1].execution().code_location()));
    CHECK(interned == frameIds(executions[2].execution().code_location()));
    CHECK(interned[0] == interned[2]);
    // Each frame and each file once, whichever way the stack came.
    CHECK(readEvents(dir.path(), "stack_frames").size() == 2);
    CHECK(readEvents(dir.path(), "source_files").size() == 2);
}

TEST_CASE("a backward op names its forward op's interned stack", "[events][stacks]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path());
    auto forward = rec->internStack(std::span(kStack).first(2));
    auto here = rec->internStack(std::span(kStack).first(1));
    REQUIRE((forward.ok() && here.ok()));
    CHECK(forward->index != here->index);
    ExecutionSpec backward{.opType = "aten::mul"};
    backward.context = {.forwardOpType = "aten::log", .forwardStackId = *forward};
    REQUIRE(rec->recordExecution(backward, *here).ok());
    REQUIRE(rec->close().ok());

    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 1);
    const auto& e = executions[0].execution();
    REQUIRE(e.has_framework_context());
    const auto forwardFrames = frameIds(e.framework_context().forward_code_location());
    REQUIRE(forwardFrames.size() == 2);
    REQUIRE(e.code_location().stack_frame_ids_size() == 1);
    CHECK(forwardFrames[0] == e.code_location().stack_frame_ids(0));
}

TEST_CASE("a stack id the recorder never gave is refused, and nothing is written",
          "[events][stacks][errors]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path());
    const Status s = rec->recordExecution({.opType = "aten::log"}, StackId{7});
    CHECK(s.code() == ErrorCode::InvalidArgument);
    ExecutionSpec backward{.opType = "aten::mul"};
    backward.context = {.forwardStackId = StackId{3}};
    CHECK(rec->recordExecution(backward, std::span<const CodeLocation>(kStack)).code() ==
          ErrorCode::InvalidArgument);
    REQUIRE(rec->close().ok());
    CHECK(readEvents(dir.path(), "execution").empty());
    CHECK(rec->internStack(kStack).status().code() == ErrorCode::Closed);
}

TEST_CASE("the interned stacks are bounded; beyond, stacks go by their frames", "[events][stacks]")
{
    test::TempDir dir;
    auto rec = openRecorder(dir.path());
    std::set<std::uint32_t> ids;
    for (std::size_t i = 0; i < Recorder::kMaxInternedStacks; ++i) {
        auto id = rec->internStack(std::span(kStack).first(1));
        REQUIRE(id.ok());
        ids.insert(id->index);
    }
    CHECK(ids.size() == Recorder::kMaxInternedStacks);
    CHECK(rec->internStack(kStack).status().code() == ErrorCode::Unsupported);
    REQUIRE(
        rec->recordExecution({.opType = "aten::log"}, std::span<const CodeLocation>(kStack)).ok());
    REQUIRE(rec->close().ok());
    REQUIRE(readEvents(dir.path(), "execution").size() == 1);
}

TEST_CASE("a relative source path is recorded absolute and normal, and keeps that path when the "
          "program changes directory",
          "[events][stacks]")
{
    test::TempDir dir;
    test::TempDir elsewhere;
    const std::filesystem::path start = std::filesystem::current_path();
    struct BackToStart
    {
        std::filesystem::path path;
        ~BackToStart() { std::filesystem::current_path(path); }
    } backToStart{start};
    auto rec = openRecorder(dir.path());
    const CodeLocation where{"src/../model/train.cpp", 7, "step"};
    REQUIRE(rec->recordExecution({.opType = "A"}, where).ok());
    std::filesystem::current_path(elsewhere.path());
    REQUIRE(rec->recordExecution({.opType = "B"}, where).ok());
    REQUIRE(rec->close().ok());

    const auto files = readEvents(dir.path(), "source_files");
    REQUIRE(files.size() == 1);
    CHECK(files[0].source_file().file_path() ==
          (start / "model" / "train.cpp").lexically_normal().string());
    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 2);
    CHECK(frameIds(executions[0].execution().code_location()) ==
          frameIds(executions[1].execution().code_location()));
}
