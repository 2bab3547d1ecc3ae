// SPDX-License-Identifier: GPL-3.0-or-later
#include "wholegraphpicture.hpp"

#include "nanscope/views/graphvizlayout.hpp"

#include <unordered_map>

namespace nanscope::views {
namespace {

// Above this, routed splines cost more time than they add clarity.
constexpr std::size_t kSplineLimit = 1500;

} // namespace

WholeGraphJob prepareWholeGraph(items::SnapshotPtr snapshot, core::GraphIndex graph,
                                core::OpId focused, std::optional<std::uint64_t> focusedTrace,
                                const NodeSizer& sizer)
{
    WholeGraphJob job;
    job.focusedTrace = focusedTrace;
    job.focusedOp = focused;
    job.picture.graph = graph;
    const core::GraphTable& graphs = snapshot->graphs();
    const std::vector<core::OpId>& ops = graphs.graph(graph).ops;
    std::unordered_map<core::OpId, int> nodeOf;
    nodeOf.reserve(ops.size());
    job.picture.nodes.reserve(ops.size());
    for (const core::OpId id : ops) {
        const core::OpInfo& op = graphs.op(id);
        PictureNode node;
        node.op = id;
        node.name = QString::fromStdString(op.name);
        node.type = displayType(op);
        node.size = sizer.size(node.name, node.type);
        node.focused = id == focused;
        nodeOf.emplace(id, static_cast<int>(job.picture.nodes.size()));
        job.picture.nodes.push_back(std::move(node));
    }
    for (std::size_t to = 0; to < ops.size(); ++to) {
        for (const core::OpInput& input : graphs.op(ops[to]).inputs) {
            const auto from = nodeOf.find(input.op);
            if (from == nodeOf.end())
                continue; // an input from outside this graph, or never declared
            PictureEdge edge;
            edge.from = from->second;
            edge.to = static_cast<int>(to);
            edge.label = QString::fromStdString(input.opName) + u':' + QString::number(input.slot);
            job.picture.edges.push_back(std::move(edge));
        }
    }
    job.snapshot = std::move(snapshot);
    return job;
}

GraphPicture layOutWholeGraph(WholeGraphJob job)
{
    GraphPicture& picture = job.picture;
    GraphvizLayout::Input input;
    input.nodeSizes.reserve(picture.nodes.size());
    for (const PictureNode& node : picture.nodes)
        input.nodeSizes.push_back(node.size);
    input.edges.reserve(picture.edges.size());
    for (const PictureEdge& edge : picture.edges)
        input.edges.push_back({edge.from, edge.to});
    input.straightEdges = picture.nodes.size() > kSplineLimit;

    const GraphvizLayout::Result layout = GraphvizLayout::layout(input);
    if (!layout.ok()) {
        GraphPicture failed;
        failed.graph = picture.graph;
        failed.note = layout.error;
        return failed;
    }
    for (std::size_t i = 0; i < picture.nodes.size(); ++i)
        picture.nodes[i].centre = layout.centres[i];
    for (std::size_t e = 0; e < picture.edges.size(); ++e) {
        const GraphvizLayout::LaidEdge& laid = layout.edges[e];
        PictureEdge& edge = picture.edges[e];
        if (laid.points.empty())
            continue;
        edge.path.moveTo(laid.points.front());
        for (std::size_t p = 1; p + 2 < laid.points.size(); p += 3)
            edge.path.cubicTo(laid.points[p], laid.points[p + 1], laid.points[p + 2]);
        if (laid.hasArrow) {
            edge.hasArrow = true;
            edge.arrowBase = laid.points.back();
            edge.arrowTip = laid.arrowTip;
        }
    }
    const std::vector<core::OpId> ops = pictureOps(picture);
    const std::vector<core::OpTrace> latest = core::tracesAround(
        *job.snapshot, ops, core::downstreamOf(job.snapshot->graphs(), ops, job.focusedOp),
        job.focusedTrace);
    for (std::size_t i = 0; i < picture.nodes.size(); ++i)
        picture.nodes[i].latest = latest[i];
    return std::move(picture);
}

std::vector<core::OpId> pictureOps(const GraphPicture& picture)
{
    std::vector<core::OpId> ops;
    ops.reserve(picture.nodes.size());
    for (const PictureNode& node : picture.nodes)
        ops.push_back(node.op);
    return ops;
}

} // namespace nanscope::views
