// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-report --compare A B: the text's first line, the JSON keys, the threshold, and the
// exit statuses (0 no divergence, 1 diverged, 2 unreadable or bad arguments).
#include "comparelogdirs.hpp"
#include "reportcommand.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace nanscope;
using test::CompareOp;
using test::Counts;
using test::eagerOp;
using test::graphOp;
using test::runReport;
using test::shellQuoted;

namespace {

// Three steps of a graph "train" (MatMul, Log) and one eager call per step; `logFrom` is the
// first step whose Log makes -inf, `zeroAt` a step whose MatMul has a zero; the calls' function
// names end in uids from `uid` on (a changed program shifts them).
std::vector<CompareOp> run(int logFrom, int zeroAt = -1, int uid = 40)
{
    std::vector<CompareOp> ops;
    for (int s = 0; s < 3; ++s) {
        ops.push_back(graphOp("MatMul", "dense/MatMul",
                              s == zeroAt ? Counts{.zero = 1, .positive = 3} : Counts{}));
        ops.push_back(
            graphOp("Log", "dense/Log",
                    s >= logFrom ? Counts{.negInf = 2, .negative = 2, .positive = 0} : Counts{}));
        ops.push_back(eagerOp("__inference_train_step_" + std::to_string(uid + s)));
    }
    return ops;
}

struct Logdirs
{
    test::TempDir a;
    test::TempDir b;
    Logdirs(const std::vector<CompareOp>& opsA, const std::vector<CompareOp>& opsB)
    {
        test::writeCompareRun(a.path(), opsA, "a");
        test::writeCompareRun(b.path(), opsB, "b");
    }
    std::string arguments(const std::string& more = {}) const
    {
        return "--no-index-cache --compare " + shellQuoted(a.path()) + " " + shellQuoted(b.path()) +
               more;
    }
};

} // namespace

TEST_CASE("nanscope-report --compare names where run B diverges, in text", "[report][compare]")
{
    const Logdirs dirs(run(99), run(1, -1, 70));
    const auto r = runReport(dirs.arguments());
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("Run B diverges from run A at Log / op "
                                           "dense/Log (graph train), step 1: finite in A, 2 -inf "
                                           "in B\n"));
    CHECK_THAT(r.output, Catch::Contains("    A: graph execution trace #3, step 1: 4 elements: "
                                         "4 positive\n"));
    CHECK_THAT(r.output, Catch::Contains("    B: graph execution trace #3, step 1: 4 elements: "
                                         "2 -inf, 2 negative\n"));
    CHECK_THAT(r.output, Catch::Contains("Graph execution traces: 6 in A, 6 in B; 6 aligned, 0 "
                                         "only in A, 0 only in B"));
    // The function calls align although their uids differ: they are one function.
    CHECK_THAT(r.output, Catch::Contains("Executions: 3 in A, 3 in B; 3 aligned"));

    const auto same = runReport("--no-index-cache --compare " + shellQuoted(dirs.a.path()) + " " +
                                shellQuoted(dirs.a.path()));
    CHECK(same.status == 0);
    CHECK_THAT(same.output, Catch::StartsWith("No divergence"));
}

TEST_CASE("nanscope-report --compare --json for CI", "[report][compare]")
{
    const Logdirs dirs(run(99), run(2));
    const auto r = runReport(dirs.arguments(" --json"));
    INFO(r.output);
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.output);
    CHECK(j["logdir_a"] == dirs.a.path().string());
    CHECK(j["error"].is_null());
    CHECK(j["threshold"].is_null());
    CHECK(j["diverged"] == true);
    const auto& d = j["divergence"];
    CHECK(d["kind"] == "nonfinite-in-b");
    CHECK(d["difference"].is_null());
    CHECK(d["a"]["source"] == "graph");
    CHECK(d["a"]["index"] == 5); // step 2 of two traces each
    CHECK(d["a"]["state"] == "finite");
    CHECK(d["b"]["op_type"] == "Log");
    CHECK(d["b"]["op_name"] == "dense/Log");
    CHECK(d["b"]["graph_name"] == "train");
    CHECK(d["b"]["module_path"].is_null());
    CHECK(d["b"]["step"] == 2);
    CHECK(d["b"]["state"] == "nonfinite");
    CHECK(d["b"]["state_text"] == "2 -inf");
    CHECK(d["b"]["counts"]["num_neg_inf"] == 2.0);
    CHECK(d["b"]["counts"]["size"] == 4.0);
    const auto& traces = j["graph_execution_traces"];
    CHECK(traces["count_a"] == 6);
    CHECK(traces["aligned"] == 6);
    CHECK(traces["only_in_b"] == 0);
    CHECK(traces["first_unmatched"].is_null());
    CHECK(traces["divergence"]["kind"] == "nonfinite-in-b");
    CHECK(j["executions"]["divergence"].is_null());
    CHECK(j["stopped"] == false);
    CHECK(j["errors_a"].empty());
}

TEST_CASE("nanscope-report --compare-threshold turns a health difference into a divergence",
          "[report][compare]")
{
    const Logdirs dirs(run(99), run(99, 1)); // B's MatMul has a zero in step 1: 0.25 of it
    CHECK(runReport(dirs.arguments()).status == 0);
    CHECK(runReport(dirs.arguments(" --compare-threshold 0.5")).status == 0);
    const auto r = runReport(dirs.arguments(" --compare-threshold 0.1 --json"));
    INFO(r.output);
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.output);
    CHECK(j["threshold"] == 0.1);
    CHECK(j["divergence"]["kind"] == "magnitude");
    CHECK(j["divergence"]["difference"] == Approx(0.25));
    CHECK(j["divergence"]["b"]["op_name"] == "dense/MatMul");
}

TEST_CASE("nanscope-report --compare with an unreadable run exits 2 and says which",
          "[report][compare]")
{
    const Logdirs dirs(run(99), run(99));
    const std::string missing = shellQuoted(dirs.b.path() / "missing");
    const auto r =
        runReport("--no-index-cache --compare " + shellQuoted(dirs.a.path()) + " " + missing);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::StartsWith("nanscope-report: run B could not be read: "));
    CHECK_THAT(r.output, Catch::Contains("missing: no such file or directory"));

    const auto json = runReport("--no-index-cache --json --compare " + missing + " " +
                                shellQuoted(dirs.a.path()));
    CHECK(json.status == 2);
    const auto j = nlohmann::json::parse(json.output);
    CHECK_THAT(j["error"].get<std::string>(), Catch::StartsWith("run A could not be read"));
    CHECK(j["logdir_b"] == dirs.a.path().string());
}

TEST_CASE("nanscope-report --compare's arguments are checked", "[report][compare]")
{
    const Logdirs dirs(run(99), run(99));
    const std::string a = shellQuoted(dirs.a.path());
    CHECK(runReport("--compare " + a).status == 2); // one logdir
    const auto both = runReport(a + " --compare " + a + " " + a);
    CHECK(both.status == 2);
    CHECK_THAT(both.output, Catch::Contains("LOGDIR and --compare exclude each other"));
    const auto alone = runReport(a + " --compare-threshold 0.1");
    CHECK(alone.status == 2);
    CHECK_THAT(alone.output, Catch::Contains("--compare-threshold needs --compare"));
    CHECK(runReport("--compare " + a + " " + a + " --compare-threshold 2").status == 2);
    CHECK(runReport("--compare " + a + " " + a + " --compare-threshold -0.5").status == 2);
    const auto help = runReport("--help");
    CHECK(help.status == 0);
    CHECK_THAT(help.output, Catch::Contains("Exit status: 0 no divergence, 1 a divergence"));
}
