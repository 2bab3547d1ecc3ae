// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdirfixture.hpp"

#include <catch2/catch.hpp>

extern "C" int nanscope_c_client(const char* dumpRoot);

using nanscope::test::readEvents;

TEST_CASE("the C interface records what the C++ one does", "[c-api]")
{
    nanscope::test::TempDir dir;
    REQUIRE(nanscope_c_client(dir.path().c_str()) == 0);

    CHECK(readEvents(dir.path(), "metadata")[0].debug_metadata().tfdbg_run_id() == "c-client");
    const auto traces = readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() == 1);
    CHECK(nanscope::test::doubles(traces[0].graph_execution_trace().tensor_proto()) ==
          std::vector<double>{2, 4, 1, 0, 0});
    const auto executions = readEvents(dir.path(), "execution");
    REQUIRE(executions.size() == 1);
    CHECK(nanscope::test::doubles(executions[0].execution().tensor_protos(0)) ==
          std::vector<double>{-1, 4, 1, 0, 0});

    // The C caller's own locations became the frames.
    std::vector<std::pair<std::string, int>> frames;
    for (const auto& e : readEvents(dir.path(), "stack_frames"))
        frames.emplace_back(e.stack_frame_with_id().file_line_col().func(),
                            e.stack_frame_with_id().file_line_col().line());
    CHECK(frames == std::vector<std::pair<std::string, int>>{{"loss", 42}, {"train_step", 7}});
    const auto sources = readEvents(dir.path(), "source_files");
    REQUIRE(sources.size() == 2);
    CHECK(std::filesystem::path(sources[0].source_file().file_path()).filename() == "loss.c");
    CHECK(sources[0].source_file().lines_size() == 0); // no such file here: no text
}
