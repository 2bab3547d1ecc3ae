// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/graphvizlayout.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <mutex>
#include <string>

namespace nanscope::views {
namespace {

// Graphviz keeps error state and its plugin registry in globals.
std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::string& lastError()
{
    static std::string error;
    return error;
}

int collectError(char* message)
{
    lastError() += message;
    return 0;
}

// Graphviz 2.x takes char* for names it only reads.
char* text(const char* value)
{
    return const_cast<char*>(value);
}

std::string inches(double pixels)
{
    // One scene pixel is one Graphviz point (1/72 inch).
    return std::to_string(pixels / 72.0);
}

// One context for the process, made on first use under graphvizMutex() and kept until exit:
// Graphviz 2.43 leaks its plugin configuration (about 3.6 KB) with every context it frees.
GVC_t* sharedContext()
{
    static GVC_t* const context = gvContext();
    return context;
}

} // namespace

GraphvizLayout::Result GraphvizLayout::layout(const Input& input)
{
    Result result;
    if (input.nodeSizes.empty())
        return result;
    const std::lock_guard lock(graphvizMutex());
    lastError().clear();
    agseterr(AGERR);
    agseterrf(collectError);

    GVC_t* const context = sharedContext();
    Agraph_t* graph = agopen(text("g"), Agdirected, nullptr);
    agattr(graph, AGRAPH, text("rankdir"), text("TB"));
    agattr(graph, AGRAPH, text("nodesep"), text("0.25"));
    agattr(graph, AGRAPH, text("ranksep"), text("0.5"));
    agattr(graph, AGRAPH, text("splines"), text(input.straightEdges ? "line" : "spline"));
    if (input.nodeSizes.size() > 1500) {
        // Fewer crossing-minimisation and network-simplex passes (ranking and placement): a
        // slightly less tidy picture, about four times sooner (5000 layered ops: 17 s → 4 s).
        agattr(graph, AGRAPH, text("mclimit"), text("0.3"));
        agattr(graph, AGRAPH, text("nslimit"), text("0.2"));
        agattr(graph, AGRAPH, text("nslimit1"), text("0.2"));
    }
    agattr(graph, AGNODE, text("shape"), text("box"));
    agattr(graph, AGNODE, text("fixedsize"), text("true"));
    agattr(graph, AGNODE, text("label"), text(""));
    Agsym_t* width = agattr(graph, AGNODE, text("width"), text("1"));
    Agsym_t* height = agattr(graph, AGNODE, text("height"), text("0.5"));

    std::vector<Agnode_t*> nodes(input.nodeSizes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(graph, text(name.c_str()), 1);
        agxset(nodes[i], width, text(inches(input.nodeSizes[i].width()).c_str()));
        agxset(nodes[i], height, text(inches(input.nodeSizes[i].height()).c_str()));
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(input.edges.size());
    for (std::size_t i = 0; i < input.edges.size(); ++i) {
        const Edge& edge = input.edges[i];
        const auto count = static_cast<int>(nodes.size());
        if (edge.from < 0 || edge.from >= count || edge.to < 0 || edge.to >= count) {
            edges.push_back(nullptr);
            continue;
        }
        const std::string name = "e" + std::to_string(i); // distinct: parallel edges stay
        edges.push_back(agedge(graph, nodes[edge.from], nodes[edge.to], text(name.c_str()), 1));
    }

    if (gvLayout(context, graph, "dot") != 0) {
        result.error = QStringLiteral("Graphviz could not lay out the graph: ") +
                       QString::fromStdString(lastError()).trimmed();
        agclose(graph);
        return result;
    }

    const boxf box = GD_bb(graph);
    auto toScene = [&](pointf p) {
        return QPointF(p.x - box.LL.x, box.UR.y - p.y);
    };
    result.bounds = QRectF(0, 0, box.UR.x - box.LL.x, box.UR.y - box.LL.y);
    result.centres.reserve(nodes.size());
    for (Agnode_t* node : nodes)
        result.centres.push_back(toScene(ND_coord(node)));
    result.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        LaidEdge laid{input.edges[i].from, input.edges[i].to, {}, {}, false};
        const splines* spline = edges[i] ? ED_spl(edges[i]) : nullptr;
        if (spline && spline->size > 0) {
            // dot routes one piece per edge unless it crosses clusters, which we never make.
            const bezier& piece = spline->list[0];
            laid.points.reserve(static_cast<std::size_t>(piece.size));
            for (int p = 0; p < piece.size; ++p)
                laid.points.push_back(toScene(piece.list[p]));
            if (piece.eflag) {
                laid.hasArrow = true;
                laid.arrowTip = toScene(piece.ep);
            }
        }
        result.edges.push_back(std::move(laid));
    }
    gvFreeLayout(context, graph);
    agclose(graph);
    return result;
}

} // namespace nanscope::views
