// SPDX-License-Identifier: GPL-3.0-or-later
// Lays out a directed graph with Graphviz's "dot" (top to bottom): boxes of given sizes and
// edges in, box centres and edge curves out. Pure computation, safe on any thread (Graphviz's
// global state is guarded: one layout runs at a time).
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <vector>

namespace nanscope::views {

class GraphvizLayout
{
public:
    struct Edge
    {
        int from = 0; // node indices
        int to = 0;
    };

    struct Input
    {
        std::vector<QSizeF> nodeSizes; // pixels; one per node
        std::vector<Edge> edges;
        // Straight edges instead of routed splines: much faster for graphs of thousands of nodes.
        bool straightEdges = false;
    };

    struct LaidEdge
    {
        int from = 0;
        int to = 0;
        // A cubic Bézier chain: p0, (c1, c2, p)…, in scene coordinates (y grows downwards).
        std::vector<QPointF> points;
        // Where the arrowhead's tip goes (the curve stops short of the node to leave it room).
        QPointF arrowTip;
        bool hasArrow = false;
    };

    struct Result
    {
        std::vector<QPointF> centres; // per node
        std::vector<LaidEdge> edges;  // in input order
        QRectF bounds;
        QString error; // non-empty: no layout
        bool ok() const { return error.isEmpty(); }
    };

    static Result layout(const Input& input);
};

} // namespace nanscope::views
