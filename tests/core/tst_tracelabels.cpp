// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's live labels of graph traces, kept by op output: one per output, replaced by
// the output's next trace, and the outputs past the dense slots kept by trace.
#include "tracelabels.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace nanscope::core;
using namespace nanscope::core::intentwalk;

namespace {

GraphTable twoOps()
{
    GraphTable graphs;
    GraphInfo graph;
    graph.id = "g";
    const GraphIndex g = graphs.addGraph(graph);
    for (const char* name : {"one", "two"}) {
        OpInfo op;
        op.graph = g;
        op.name = name;
        op.numOutputs = 2;
        graphs.addOp(op);
    }
    return graphs;
}

Label groupLabel(std::uint32_t group)
{
    Label label;
    label.group = group;
    label.known = true;
    return label;
}

std::vector<std::uint32_t> groupsOf(const TraceLabels& labels)
{
    std::vector<std::uint32_t> groups;
    labels.forEach([&](std::uint64_t, const Label& l) { groups.push_back(l.group); });
    std::sort(groups.begin(), groups.end());
    return groups;
}

} // namespace

TEST_CASE("a trace's label lives until the next trace of its output", "[intent][tracelabels]")
{
    const GraphTable graphs = twoOps();
    const LatestTraces latest(graphs);
    TraceLabels labels(latest);
    CHECK(labels.empty());
    labels.put(10, 0, 0, groupLabel(1));
    labels.put(11, 0, 1, groupLabel(2));
    labels.put(12, 1, 0, groupLabel(3));
    CHECK_FALSE(labels.empty());
    REQUIRE(labels.find(10, 0, 0) != nullptr);
    CHECK(labels.find(10, 0, 0)->group == 1);
    CHECK(labels.find(11, 0, 1)->group == 2);
    CHECK(labels.find(12, 1, 0)->group == 3);
    CHECK(labels.find(13, 0, 0) == nullptr); // another trace of a live output

    labels.put(20, 0, 0, groupLabel(4)); // output (0, 0)'s next trace
    CHECK(labels.find(10, 0, 0) == nullptr);
    CHECK(labels.find(20, 0, 0)->group == 4);
    CHECK(groupsOf(labels) == std::vector<std::uint32_t>{2, 3, 4});

    labels.erase(10, 0, 0); // no longer live: nothing changes
    CHECK(labels.find(20, 0, 0) != nullptr);
    labels.erase(20, 0, 0);
    labels.erase(11, 0, 1);
    labels.erase(12, 1, 0);
    CHECK(labels.empty());
    CHECK(groupsOf(labels).empty());
}

TEST_CASE("outputs past the dense slots and unknown ops are kept by trace", "[intent][tracelabels]")
{
    const GraphTable graphs = twoOps();
    const LatestTraces latest(graphs);
    TraceLabels labels(latest);
    const OpId unknown = 7;
    labels.put(30, 1, 500, groupLabel(5)); // a slot the op does not declare
    labels.put(31, unknown, 0, groupLabel(6));
    CHECK_FALSE(labels.empty());
    CHECK(labels.find(30, 1, 500)->group == 5);
    CHECK(labels.find(31, unknown, 0)->group == 6);
    CHECK(labels.find(32, 1, 500) == nullptr);
    labels.put(30, 1, 500, groupLabel(7)); // the same trace again: one label
    CHECK(groupsOf(labels) == std::vector<std::uint32_t>{6, 7});
    labels.erase(30, 1, 500);
    labels.erase(30, 1, 500);
    CHECK_FALSE(labels.empty());
    labels.erase(31, unknown, 0);
    CHECK(labels.empty());
}
