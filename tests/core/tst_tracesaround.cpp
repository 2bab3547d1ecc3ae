// SPDX-License-Identifier: GPL-3.0-or-later
// What each op computed around a focused trace (one run of the graph, not a mix of steps), the
// ops downstream of an op, and the health class of a box.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/tracesaround.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

constexpr int kFullHealth = 4;

// Graph g: x, y (Placeholder), Log(x), Mul(Log, y). Graph h: a loop, m = Merge(n) and
// n = NextIteration(m), and Relu "z". Traces: three runs of g, the second without its Mul,
// and one more x:
//   0 x, 1 y, 2 Log (-inf), 3 Mul (NaN) | 4 x, 5 y, 6 Log | 7 x, 8 y, 9 Log, 10 Mul | 11 x
std::shared_ptr<const Snapshot> runsLogdir(const test::TempDir& dir)
{
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "loss"));
    set.append("graphs", ev::op("g", "Placeholder", "x", {}, {1}));
    set.append("graphs", ev::op("g", "Placeholder", "y", {}, {2}));
    set.append("graphs", ev::op("g", "Log", "Log", {"x:0"}, {3}));
    set.append("graphs", ev::op("g", "Mul", "Mul", {"Log:0", "y:0"}, {4}));
    set.append("graphs", ev::graph("h", "loop"));
    set.append("graphs", ev::op("h", "Merge", "m", {"n:0"}, {5}));
    set.append("graphs", ev::op("h", "NextIteration", "n", {"m:0"}, {6}));
    set.append("graphs", ev::op("h", "Relu", "z", {}, {7}));
    const auto fine = ev::fullHealth(-1, 4, 0, 0, 0, 0, 1, 3);
    const auto negInf = ev::fullHealth(-1, 4, 1, 0, 0, 0, 1, 2);
    const auto withNaN = ev::fullHealth(-1, 4, 0, 0, 1, 0, 1, 2);
    const std::pair<const char*, tfdbg::TensorProto> traces[] = {
        {"x", fine}, {"y", fine}, {"Log", negInf}, {"Mul", withNaN}, // run 1
        {"x", fine}, {"y", fine}, {"Log", fine},                     // run 2, no Mul
        {"x", fine}, {"y", fine}, {"Log", fine},   {"Mul", fine},    // run 3
        {"x", fine},
    };
    for (const auto& [op, tensor] : traces)
        set.append("graph_execution_traces", ev::trace(1.0, "g", op, 0, kFullHealth, tensor));
    LogdirReader reader(dir.path());
    auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == std::size(traces));
    return snapshot;
}

struct Ops
{
    OpId x, y, log, mul, m, n, z;
};

Ops opsOf(const Snapshot& s)
{
    const GraphTable& g = s.graphs();
    Ops ops{g.findOp("g", "x"), g.findOp("g", "y"), g.findOp("g", "Log"), g.findOp("g", "Mul"),
            g.findOp("h", "m"), g.findOp("h", "n"), g.findOp("h", "z")};
    for (OpId id : {ops.x, ops.y, ops.log, ops.mul, ops.m, ops.n, ops.z})
        REQUIRE(id != kNoOp);
    return ops;
}

// The trace index per entry; -1 for none.
std::vector<std::int64_t> indices(const std::vector<OpTrace>& traces)
{
    std::vector<std::int64_t> out;
    for (const OpTrace& t : traces)
        out.push_back(t.trace ? static_cast<std::int64_t>(*t.trace) : -1);
    return out;
}

using Indices = std::vector<std::int64_t>;

} // namespace

TEST_CASE("node health: NaN wins, a bare non-finite flag reads as NaN", "[tracesaround]")
{
    namespace h = health;
    const auto digest = [](std::uint8_t bits) {
        return HealthDigest{bits};
    };
    CHECK(nodeHealth(digest(0)) == NodeHealth::Unknown);
    CHECK(nodeHealth(digest(h::NonFinite | h::NaN)) == NodeHealth::Unknown); // not Known
    CHECK(nodeHealth(digest(h::Known)) == NodeHealth::Finite);
    CHECK(nodeHealth(digest(h::Known | h::Zero | h::Negative)) == NodeHealth::Finite);
    CHECK(nodeHealth(digest(h::Known | h::NonFinite | h::PosInf)) == NodeHealth::Infinite);
    CHECK(nodeHealth(digest(h::Known | h::NonFinite | h::NegInf)) == NodeHealth::Infinite);
    CHECK(nodeHealth(digest(h::Known | h::NonFinite | h::NaN)) == NodeHealth::NaN);
    CHECK(nodeHealth(digest(h::Known | h::NonFinite | h::NaN | h::PosInf)) == NodeHealth::NaN);
    CHECK(nodeHealth(digest(h::Known | h::NonFinite)) == NodeHealth::NaN); // CURT_HEALTH

    CHECK(toString(NodeHealth::Unknown) == "unknown");
    CHECK(toString(NodeHealth::Finite) == "finite");
    CHECK(toString(NodeHealth::Infinite) == "inf");
    CHECK(toString(NodeHealth::NaN) == "nan");
}

TEST_CASE("downstream: what the focused op's outputs reach in its graph", "[tracesaround]")
{
    test::TempDir dir;
    const auto s = runsLogdir(dir);
    const Ops o = opsOf(*s);
    const GraphTable& g = s->graphs();
    const std::vector<OpId> all{o.x, o.y, o.log, o.mul, o.m, o.n, o.z, kNoOp};

    using Flags = std::vector<bool>;
    CHECK(downstreamOf(g, all, o.x) == Flags{0, 0, 1, 1, 0, 0, 0, 0});
    CHECK(downstreamOf(g, all, o.log) == Flags{0, 0, 0, 1, 0, 0, 0, 0});
    CHECK(downstreamOf(g, all, o.y) == Flags{0, 0, 0, 1, 0, 0, 0, 0});
    CHECK(downstreamOf(g, all, o.mul) == Flags(all.size(), false));
    // Through a loop the op reaches itself, and the walk ends.
    CHECK(downstreamOf(g, all, o.m) == Flags{0, 0, 0, 0, 1, 1, 0, 0});
    CHECK(downstreamOf(g, all, kNoOp) == Flags(all.size(), false));
    CHECK(downstreamOf(g, {}, o.x).empty());
}

TEST_CASE("traces around: the latest of each op without a focus", "[tracesaround]")
{
    test::TempDir dir;
    const auto s = runsLogdir(dir);
    const Ops o = opsOf(*s);
    const std::vector<OpId> ops{o.x, o.log, o.mul, o.y, o.z};

    CHECK(indices(tracesAround(*s, ops, {}, std::nullopt)) == Indices{11, 9, 10, 8, -1});
    // A focus past the end is no focus, downstream ops or not.
    CHECK(indices(tracesAround(*s, ops, downstreamOf(s->graphs(), ops, o.log), 100)) ==
          Indices{11, 9, 10, 8, -1});
    // A repeated op is answered once; unknown ids are not answered.
    CHECK(indices(tracesAround(*s, {o.log, o.log, kNoOp, 1000}, {}, std::nullopt)) ==
          Indices{9, -1, -1, -1});
    CHECK(tracesAround(*s, {}, {}, std::nullopt).empty());
    // Each walk reads at most `budget` digests, from the newest back.
    CHECK(indices(tracesAround(*s, {o.x, o.log}, {}, std::nullopt, 1)) == Indices{11, -1});
    CHECK(indices(tracesAround(*s, {o.x, o.log}, {}, std::nullopt, 3)) == Indices{11, 9});
    // The health comes with the trace.
    const auto first = tracesAround(*s, {o.log, o.mul, o.z}, {}, 3);
    CHECK(indices(first) == Indices{2, 3, -1});
    CHECK(nodeHealth(first[0].health) == NodeHealth::Infinite);
    CHECK(nodeHealth(first[1].health) == NodeHealth::NaN);
    CHECK(nodeHealth(first[2].health) == NodeHealth::Unknown);

    test::TempDir emptyDir;
    test::emptyRun(emptyDir.path());
    LogdirReader reader(emptyDir.path());
    const auto empty = reader.update();
    CHECK(indices(tracesAround(*empty, {0, 1}, {}, std::nullopt)) == Indices{-1, -1});
}

TEST_CASE("traces around a focus: one run of the graph", "[tracesaround]")
{
    test::TempDir dir;
    const auto s = runsLogdir(dir);
    const Ops o = opsOf(*s);
    const std::vector<OpId> ops{o.x, o.log, o.mul, o.y};
    const auto around = [&](std::uint64_t focus, OpId focusedOp) {
        return indices(tracesAround(*s, ops, downstreamOf(s->graphs(), ops, focusedOp), focus));
    };

    // Ops upstream: the latest at or before the focus. Downstream: the next one in the run.
    CHECK(around(2, o.log) == Indices{0, 2, 3, 1});
    CHECK(around(9, o.log) == Indices{7, 9, 10, 8});
    // The second run has no Mul: the search stops where Log is computed again, and the
    // latest Mul before the focus stays the answer.
    CHECK(around(6, o.log) == Indices{4, 6, 3, 5});
    // From x, Log and Mul are both downstream; y is not, and was not traced before.
    CHECK(around(0, o.x) == Indices{0, 2, 3, -1});
    // Without downstream flags (or with the wrong number) only the walk back is made.
    CHECK(indices(tracesAround(*s, ops, {}, 2)) == Indices{0, 2, -1, 1});
    CHECK(indices(tracesAround(*s, ops, {true}, 2)) == Indices{0, 2, -1, 1});
    // The walk forward has its own budget.
    const std::vector<bool> mulDownstream{true};
    CHECK(indices(tracesAround(*s, {o.mul}, mulDownstream, 0, 2)) == Indices{-1});
    CHECK(indices(tracesAround(*s, {o.mul}, mulDownstream, 0, 3)) == Indices{3});
}
