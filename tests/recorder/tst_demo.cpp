// SPDX-License-Identifier: GPL-3.0-or-later
// The demo reproduces the tutorial's bug: the first non-finite tensor is the Log of the loss,
// whose probs input holds a zero; with --fix nothing is non-finite and accuracy climbs.
#include "demorun.hpp"
#include "logdirfixture.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sys/wait.h>

using namespace nanscope;
using test::readEvents;

namespace {

using Run = test::DemoRun;

Run runDemo(const std::string& arguments)
{
    return test::runProgram(NANSCOPE_DEMO_MLP, arguments);
}

// FULL_HEALTH slots: 5 -inf, 6 +inf, 7 NaN, 9 zero.
bool nonFinite(const std::vector<double>& v)
{
    return v.size() == 11 && (v[5] + v[6] + v[7]) > 0;
}

struct OpKey
{
    std::string graph, name;
    auto operator<=>(const OpKey&) const = default;
};

} // namespace

TEST_CASE("the demo's first non-finite tensor is Log's -inf, fed a zero by probs", "[demo]")
{
    test::TempDir dir;
    const Run run =
        runDemo("--dump_dir " + dir.path().string() + " --dump_tensor_debug_mode FULL_HEALTH");
    INFO(run.output);
    REQUIRE(run.status == 0);
    REQUIRE(run.accuracy.size() == 10);
    CHECK(run.accuracy[0] > 0.2); // well above chance (0.1); TensorFlow shows 0.216
    for (std::size_t i = 2; i < run.accuracy.size(); ++i)
        CHECK(run.accuracy[i] < 0.2); // stuck near chance once the weights are NaN

    // Names of graphs and ops, from .graphs.
    std::map<std::string, std::string> graphNames;
    std::map<OpKey, tfdbg::GraphOpCreation> ops;
    for (const auto& e : readEvents(dir.path(), "graphs")) {
        if (e.has_debugged_graph())
            graphNames[e.debugged_graph().graph_id()] = e.debugged_graph().graph_name();
        if (e.has_graph_op_creation())
            ops[{e.graph_op_creation().graph_id(), e.graph_op_creation().op_name()}] =
                e.graph_op_creation();
    }
    for (const char* name : {"format_example", "model", "dense_layer", "loss"}) {
        bool found = false;
        for (const auto& [id, graph] : graphNames)
            found = found || graph == name;
        INFO(name);
        CHECK(found);
    }

    const auto traces = readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() > 100);
    std::map<OpKey, std::vector<double>> latest; // the last summary of each op's output 0
    const tfdbg::GraphExecutionTrace* first = nullptr;
    std::vector<double> probsBeforeFirst;
    for (const auto& e : traces) {
        const auto& t = e.graph_execution_trace();
        const auto summary = test::doubles(t.tensor_proto());
        REQUIRE(summary.size() == 11);
        REQUIRE(ops.contains({t.tfdbg_context_id(), t.op_name()}));
        if (nonFinite(summary)) {
            first = &t;
            const auto& log = ops.at({t.tfdbg_context_id(), t.op_name()});
            REQUIRE(log.input_names_size() == 1);
            const std::string input = log.input_names(0).substr(0, log.input_names(0).find(':'));
            probsBeforeFirst = latest.at({t.tfdbg_context_id(), input});
            CHECK(summary[5] >= 1); // -inf
            CHECK(summary[6] == 0);
            CHECK(summary[7] == 0);
            break;
        }
        if (t.output_slot() == 0)
            latest[{t.tfdbg_context_id(), t.op_name()}] = summary;
    }
    REQUIRE(first != nullptr);
    CHECK(first->op_name() == "Log");
    CHECK(graphNames.at(first->tfdbg_context_id()) == "loss");
    CHECK(ops.at({first->tfdbg_context_id(), "Log"}).op_type() == "Log");
    const auto& probs = ops.at({first->tfdbg_context_id(), "probs"});
    CHECK(probs.op_type() == "Placeholder");
    REQUIRE(probsBeforeFirst.size() == 11);
    CHECK(probsBeforeFirst[9] >= 1);                                             // a zero
    CHECK(probsBeforeFirst[5] + probsBeforeFirst[6] + probsBeforeFirst[7] == 0); // all finite
    CHECK(probsBeforeFirst[8] == 0);                                             // nothing negative

    // The executions: function calls of the tutorial and eager accuracy ops.
    std::set<std::string> types;
    for (const auto& e : readEvents(dir.path(), "execution"))
        types.insert(e.execution().op_type());
    CHECK(types.contains("ArgMax"));
    bool calledModel = false;
    for (const auto& t : types)
        calledModel = calledModel || t.starts_with("__inference_model");
    CHECK(calledModel);
}

TEST_CASE("with --fix nothing is non-finite and accuracy climbs", "[demo]")
{
    test::TempDir dir;
    const Run run = runDemo("--fix --dump_dir " + dir.path().string() +
                            " --dump_tensor_debug_mode CONCISE_HEALTH");
    INFO(run.output);
    REQUIRE(run.status == 0);
    REQUIRE(run.accuracy.size() == 10);
    CHECK(run.accuracy.back() > 0.5);
    CHECK(run.accuracy.back() > run.accuracy.front());
    for (const auto& e : readEvents(dir.path(), "graph_execution_traces")) {
        const auto v = test::doubles(e.graph_execution_trace().tensor_proto());
        REQUIRE(v.size() == 5);
        REQUIRE(v[2] + v[3] + v[4] == 0);
    }
}

TEST_CASE("the demo records nothing without --dump_dir and refuses bad flags", "[demo]")
{
    const Run plain = runDemo("--max_steps 2");
    CHECK(plain.status == 0);
    CHECK(plain.accuracy.size() == 2);

    const Run bad = runDemo("--dump_tensor_debug_mode FULL_NUMERICS");
    CHECK(bad.status == 2);
    CHECK_FALSE(bad.output.empty());
    CHECK(runDemo("--no_such_flag").status == 2);
    CHECK(runDemo("--max_steps -3").status == 2);
}

TEST_CASE("a run told to stop at its first NaN stops at Log's -inf once Mul makes NaN of it",
          "[demo]")
{
    test::TempDir dir;
    const Run run =
        runDemo("--stop_at_first_nonfinite --max_steps 20 --dump_dir " + dir.path().string());
    INFO(run.output);
    CHECK(run.status == 3);
    CHECK(run.output.find("Log at ") != std::string::npos);
    CHECK(run.output.find("demo_mlp/mlp.cpp:") != std::string::npos);
    CHECK(run.output.find("made -inf, which Mul (op mul) at ") != std::string::npos);
    CHECK(run.output.find(dir.path().string()) != std::string::npos);
    CHECK(run.accuracy.size() < 20); // it did not train on in NaN
    // The logdir is whole and ends at the NaN: every record reads back, the last trace is the
    // Mul's, and no earlier trace holds a non-finite value but the Log's.
    const auto traces = readEvents(dir.path(), "graph_execution_traces");
    REQUIRE(traces.size() >= 2);
    CHECK(traces.back().graph_execution_trace().op_name() == "mul");
    CHECK(nonFinite(test::doubles(traces.back().graph_execution_trace().tensor_proto())));
    int nonFiniteTraces = 0;
    for (const auto& e : traces)
        nonFiniteTraces += nonFinite(test::doubles(e.graph_execution_trace().tensor_proto()));
    CHECK(nonFiniteTraces == 2);
    CHECK(readEvents(dir.path(), "metadata").size() == 1);

    // With --fix the same run trains to the end.
    test::TempDir fixed;
    const Run clean = runDemo("--fix --stop_at_first_nonfinite --max_steps 3 --dump_dir " +
                              fixed.path().string());
    CHECK(clean.status == 0);
    CHECK(clean.accuracy.size() == 3);

    CHECK(runDemo("--stop_at_first_nonfinite").status == 2); // no --dump_dir
    CHECK(runDemo("--stop_at_first_nonfinite --dump_tensor_debug_mode NO_TENSOR --dump_dir " +
                  dir.path().string() + "/other")
              .status == 2);
}
