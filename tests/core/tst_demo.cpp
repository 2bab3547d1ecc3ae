// SPDX-License-Identifier: GPL-3.0-or-later
// The demo program (TensorFlow's debug_mnist_v2 bug, in C++): NaNscope finds the Log of a zero.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <sys/wait.h>

using namespace nanscope;
using namespace nanscope::core;

TEST_CASE("the demo's logdir: the origin is the Log of a zero in graph loss", "[demo]")
{
    test::TempDir dir;
    const std::string command = std::string("'") + NANSCOPE_DEMO_MLP + "' --dump_dir '" +
                                dir.path().string() +
                                "' --dump_tensor_debug_mode FULL_HEALTH > /dev/null 2>&1";
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);

    LogdirReader reader(dir.path());
    const auto s = reader.update();
    INFO(s->diagnostics().size() << " diagnostics");
    REQUIRE(s->traceCount() > 0);
    REQUIRE(s->alertCount() > 0);
    const auto& origin = s->origin();
    REQUIRE(origin);
    CHECK(origin->opType == "Log");
    CHECK(origin->graphName == "loss");
    REQUIRE_FALSE(origin->inputs.empty());
    CHECK_THAT(origin->inputs[0].name, Catch::StartsWith("probs"));
    CHECK(origin->inputs[0].health.zero > 0);
    CHECK_FALSE(origin->inputs[0].health.nonFinite);
    CHECK(origin->hint.rule == "log-of-zero");
}
