// SPDX-License-Identifier: GPL-3.0-or-later
// The exact traces that fed a trace: per data input, the latest earlier trace of its producer and
// output slot, through pass-through ops that TensorFlow never traces.
#include "logdirbuilder.hpp"
#include "nanscope/core/inputtraces.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

using Inputs = std::vector<InputTrace>;

// Graph g: x, y (Placeholder); xi = Identity(x); Log(xi); split (two outputs); pair =
// IdentityN(y, split:1); Mul(Log, pair:1); Add(y, x).
std::shared_ptr<const Snapshot> inputsLogdir(const test::TempDir& dir)
{
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "loss"));
    set.append("graphs", ev::op("g", "Placeholder", "x", {}, {1}));
    set.append("graphs", ev::op("g", "Placeholder", "y", {}, {2}));
    set.append("graphs", ev::op("g", "Identity", "xi", {"x:0"}, {3}));
    set.append("graphs", ev::op("g", "Log", "Log", {"xi"}, {4}));
    set.append("graphs", ev::op("g", "Split", "split", {}, {5, 6}));
    set.append("graphs", ev::op("g", "IdentityN", "pair", {"y:0", "split:1"}, {7, 8}));
    set.append("graphs", ev::op("g", "Mul", "Mul", {"Log:0", "pair:1"}, {9}));
    set.append("graphs", ev::op("g", "AddV2", "Add", {"y:0", "x:0"}, {10}));
    const std::pair<const char*, int> traces[] = {
        {"x", 0},     // 0
        {"y", 0},     // 1
        {"split", 0}, // 2
        {"split", 1}, // 3
        {"Log", 0},   // 4
        {"Mul", 0},   // 5
        {"x", 0},     // 6
        {"split", 0}, // 7
        {"Log", 0},   // 8
        {"Mul", 0},   // 9
        {"Add", 0},   // 10
        {"xi", 0},    // 11: a pass-through op that was traced after all
        {"Log", 0},   // 12
    };
    for (const auto& [op, slot] : traces)
        set.append("graph_execution_traces",
                   ev::trace(1.0, "g", op, slot, 2, ev::curtHealth(-1, false)));
    LogdirReader reader(dir.path());
    auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == std::size(traces));
    return snapshot;
}

} // namespace

TEST_CASE("input traces: the latest earlier trace of each producer", "[inputtraces]")
{
    test::TempDir dir;
    const auto s = inputsLogdir(dir);

    // Log reads Identity(x); the Identity is not traced, so x's trace fed it.
    CHECK(findInputTraces(*s, 4) == Inputs{{0, 0}});
    CHECK(findInputTraces(*s, 8) == Inputs{{0, 6}}); // the latest, not the first
    // Mul's second input is output 1 of an IdentityN: its second input, split:1. Trace 7 is
    // split's output 0 and does not count.
    CHECK(findInputTraces(*s, 5) == Inputs{{0, 4}, {1, 3}});
    CHECK(findInputTraces(*s, 9) == Inputs{{0, 8}, {1, 3}});
    // Found latest first (x at 6, then y at 1), answered in input order.
    CHECK(findInputTraces(*s, 10) == Inputs{{0, 1}, {1, 6}});
    // A traced pass-through op is the nearer producer.
    CHECK(findInputTraces(*s, 12) == Inputs{{0, 11}});
}

TEST_CASE("input traces: none for ops without inputs, unknown traces or beyond the look-back",
          "[inputtraces]")
{
    test::TempDir dir;
    const auto s = inputsLogdir(dir);

    CHECK(findInputTraces(*s, 0).empty()); // a Placeholder
    CHECK(findInputTraces(*s, 2).empty()); // split has no inputs
    CHECK(findInputTraces(*s, s->traceCount()).empty());
    CHECK(findInputTraces(*s, 1000).empty());
    // The look-back counts the traces before the one asked about.
    CHECK(findInputTraces(*s, 9, 1) == Inputs{{0, 8}});
    CHECK(findInputTraces(*s, 9, 5) == Inputs{{0, 8}});
    CHECK(findInputTraces(*s, 9, 6) == Inputs{{0, 8}, {1, 3}});
    CHECK(findInputTraces(*s, 4, 0).empty());
}
