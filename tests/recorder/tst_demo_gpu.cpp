// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-demo-mlp-gpu: without a device it refuses to start (status 3); with one it shows
// the CPU demo's symptoms, and its logdir has the CPU demo's shape: the same graphs and ops, the
// same number of traces of each op output, the same executions.
#include "demorun.hpp"
#include "logdirfixture.hpp"
#include "requiredevice.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <vector>

using namespace nanscope;

namespace {

using Run = test::DemoRun;
using test::runProgram;

// A demo's path: where the build put it, unless `variable` names another place (a GPU machine
// runs a build made elsewhere: scripts/gpu-check.sh --run).
std::string demo(const char* variable, const char* built)
{
    const char* moved = std::getenv(variable);
    return moved && *moved ? moved : built;
}

const std::string kDemoMlp = demo("NANSCOPE_DEMO_MLP", NANSCOPE_DEMO_MLP);
const std::string kDemoMlpGpu = demo("NANSCOPE_DEMO_MLP_GPU", NANSCOPE_DEMO_MLP_GPU);

// What a logdir declares and records, without ids, times and values.
struct Shape
{
    std::map<std::tuple<std::string, std::string, std::string>, int> ops; // graph, op, type
    std::map<std::tuple<std::string, std::string, int>, int> traces;      // graph, op, slot
    std::vector<std::string> executions;                                  // op types, in order
    std::vector<int> executionOutputs;                                    // tensor_protos
};

Shape shapeOf(const std::filesystem::path& dir)
{
    Shape shape;
    std::map<std::string, std::string> graphNames;
    for (const auto& e : test::readEvents(dir, "graphs")) {
        if (e.has_debugged_graph())
            graphNames[e.debugged_graph().graph_id()] = e.debugged_graph().graph_name();
        if (e.has_graph_op_creation()) {
            const auto& op = e.graph_op_creation();
            ++shape.ops[{graphNames[op.graph_id()], op.op_name(), op.op_type()}];
        }
    }
    for (const auto& e : test::readEvents(dir, "graph_execution_traces")) {
        const auto& t = e.graph_execution_trace();
        ++shape.traces[{graphNames[t.tfdbg_context_id()], t.op_name(), t.output_slot()}];
    }
    for (const auto& e : test::readEvents(dir, "execution")) {
        std::string type = e.execution().op_type();
        // Function calls end in a uid ("__inference_model_12"), which differ between runs.
        type = std::regex_replace(type, std::regex("_[0-9]+$"), "");
        shape.executions.push_back(type);
        shape.executionOutputs.push_back(e.execution().tensor_protos_size());
    }
    return shape;
}

// FULL_HEALTH slots: 5 -inf, 6 +inf, 7 NaN.
bool nonFinite(const std::vector<double>& v)
{
    return v.size() == 11 && (v[5] + v[6] + v[7]) > 0;
}

} // namespace

TEST_CASE("without a device the GPU demo exits with status 3 and says why", "[nodevice][demo]")
{
    NANSCOPE_REQUIRE_NO_DEVICE();
    test::TempDir dir;
    const Run run = runProgram(kDemoMlpGpu, "--dump_dir " + dir.path().string());
    INFO(run.output);
    CHECK(run.status == 3);
    CHECK(run.output.find("nanscope-demo-mlp-gpu: cannot run: no usable CUDA device") !=
          std::string::npos);
    CHECK(std::filesystem::is_empty(dir.path())); // nothing recorded
    // A bad command line is still a usage error, with or without a device.
    CHECK(runProgram(kDemoMlpGpu, "--no_such_flag").status == 2);
}

TEST_CASE("the GPU demo's first non-finite tensor is Log's -inf, as on the CPU", "[gpu][demo]")
{
    NANSCOPE_REQUIRE_DEVICE();
    test::TempDir dir;
    const Run run = runProgram(kDemoMlpGpu, "--dump_dir " + dir.path().string() +
                                                " --dump_tensor_debug_mode FULL_HEALTH");
    INFO(run.output);
    REQUIRE(run.status == 0);
    REQUIRE(run.accuracy.size() == 10);
    CHECK(run.accuracy[0] > 0.2);
    for (std::size_t i = 2; i < run.accuracy.size(); ++i)
        CHECK(run.accuracy[i] < 0.2);

    std::map<std::string, std::string> graphNames;
    for (const auto& e : test::readEvents(dir.path(), "graphs"))
        if (e.has_debugged_graph())
            graphNames[e.debugged_graph().graph_id()] = e.debugged_graph().graph_name();
    const tfdbg::GraphExecutionTrace* first = nullptr;
    const auto traces = test::readEvents(dir.path(), "graph_execution_traces");
    for (const auto& e : traces) {
        const auto summary = test::doubles(e.graph_execution_trace().tensor_proto());
        REQUIRE(summary.size() == 11);
        if (nonFinite(summary)) {
            first = &e.graph_execution_trace();
            CHECK(summary[5] >= 1);
            CHECK(summary[6] == 0);
            CHECK(summary[7] == 0);
            break;
        }
    }
    REQUIRE(first != nullptr);
    CHECK(first->op_name() == "Log");
    CHECK(graphNames.at(first->tfdbg_context_id()) == "loss");
    CHECK(first->device_name() == "/job:localhost/replica:0/task:0/device:GPU:0");
}

TEST_CASE("the GPU demo's logdir has the CPU demo's shape", "[gpu][demo]")
{
    NANSCOPE_REQUIRE_DEVICE();
    for (const char* arguments : {"--dump_tensor_debug_mode FULL_HEALTH",
                                  "--fix --dump_tensor_debug_mode CONCISE_HEALTH --max_steps 3"}) {
        INFO(arguments);
        test::TempDir cpu;
        test::TempDir gpu;
        const Run onCpu =
            runProgram(kDemoMlp, std::string(arguments) + " --dump_dir " + cpu.path().string());
        const Run onGpu =
            runProgram(kDemoMlpGpu, std::string(arguments) + " --dump_dir " + gpu.path().string());
        INFO(onGpu.output);
        REQUIRE(onCpu.status == 0);
        REQUIRE(onGpu.status == 0);
        CHECK(onGpu.accuracy.size() == onCpu.accuracy.size());
        const Shape a = shapeOf(cpu.path());
        const Shape b = shapeOf(gpu.path());
        CHECK(a.ops == b.ops);
        CHECK(a.traces == b.traces);
        CHECK(a.executions == b.executions);
        CHECK(a.executionOutputs == b.executionOutputs);
    }
}
