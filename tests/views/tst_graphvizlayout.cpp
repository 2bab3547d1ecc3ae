// SPDX-License-Identifier: GPL-3.0-or-later
// GraphvizLayout: every node placed, edges with curves, inputs above their consumers; big
// chains and wide graphs complete.
#include "nanscope/views/graphvizlayout.hpp"

#include <QElapsedTimer>
#include <QTest>

using nanscope::views::GraphvizLayout;

class TestGraphvizLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallDag();
    void parallelEdgesStayApart();
    void emptyInput();
    void badEdgesAreIgnored();
    void thousandNodeChain();
    void wideGraphWithStraightEdges();
    void layeredNetworkOfFiveThousandOps();
};

namespace {

GraphvizLayout::Input boxes(int count)
{
    GraphvizLayout::Input input;
    input.nodeSizes.assign(static_cast<std::size_t>(count), QSizeF(120, 40));
    return input;
}

} // namespace

void TestGraphvizLayout::smallDag()
{
    // probs -> Log -> mul <- Neg <- labels
    GraphvizLayout::Input input = boxes(5);
    input.nodeSizes[3] = QSizeF(200, 50); // sizes are kept
    enum { Probs, Labels, Neg, Log, Mul };
    input.edges = {{Probs, Log}, {Labels, Neg}, {Neg, Mul}, {Log, Mul}};
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(result.centres.size(), std::size_t(5));
    QCOMPARE(result.edges.size(), std::size_t(4));
    for (const QPointF& centre : result.centres)
        QVERIFY(result.bounds.contains(centre));
    // Top to bottom: inputs above the ops that consume them (scene y grows downwards).
    for (const auto& edge : input.edges)
        QVERIFY(result.centres[edge.from].y() < result.centres[edge.to].y());
    QCOMPARE(result.centres[Probs].y(), result.centres[Labels].y());
    for (std::size_t e = 0; e < result.edges.size(); ++e) {
        const GraphvizLayout::LaidEdge& edge = result.edges[e];
        QCOMPARE(edge.from, input.edges[e].from);
        QCOMPARE(edge.to, input.edges[e].to);
        QVERIFY(edge.points.size() >= 4);
        QCOMPARE((edge.points.size() - 1) % 3, std::size_t(0)); // a cubic Bézier chain
        QVERIFY(edge.hasArrow);
        // The curve leaves the bottom of its source and its arrow ends at the top of its target.
        const QPointF from = result.centres[edge.from];
        const QPointF to = result.centres[edge.to];
        QVERIFY(edge.points.front().y() >= from.y());
        QVERIFY(std::abs(edge.arrowTip.y() - (to.y() - input.nodeSizes[edge.to].height() / 2)) < 2);
    }
    // Nodes do not overlap.
    for (std::size_t a = 0; a < 5; ++a)
        for (std::size_t b = a + 1; b < 5; ++b) {
            const QRectF ra(result.centres[a] - QPointF(input.nodeSizes[a].width() / 2,
                                                        input.nodeSizes[a].height() / 2),
                            input.nodeSizes[a]);
            const QRectF rb(result.centres[b] - QPointF(input.nodeSizes[b].width() / 2,
                                                        input.nodeSizes[b].height() / 2),
                            input.nodeSizes[b]);
            QVERIFY(!ra.intersects(rb));
        }
}

void TestGraphvizLayout::parallelEdgesStayApart()
{
    GraphvizLayout::Input input = boxes(2);
    input.edges = {{0, 1}, {0, 1}}; // mul(x, x)
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    QVERIFY(result.ok());
    QCOMPARE(result.edges.size(), std::size_t(2));
    QVERIFY(result.edges[0].points != result.edges[1].points);
}

void TestGraphvizLayout::emptyInput()
{
    const GraphvizLayout::Result result = GraphvizLayout::layout({});
    QVERIFY(result.ok());
    QVERIFY(result.centres.empty());
}

void TestGraphvizLayout::badEdgesAreIgnored()
{
    GraphvizLayout::Input input = boxes(2);
    input.edges = {{0, 1}, {0, 7}, {-1, 1}};
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    QVERIFY(result.ok());
    QCOMPARE(result.edges.size(), std::size_t(3));
    QVERIFY(!result.edges[0].points.empty());
    QVERIFY(result.edges[1].points.empty());
    QVERIFY(result.edges[2].points.empty());
}

void TestGraphvizLayout::thousandNodeChain()
{
    GraphvizLayout::Input input = boxes(1000);
    for (int i = 0; i + 1 < 1000; ++i)
        input.edges.push_back({i, i + 1});
    QElapsedTimer timer;
    timer.start();
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    qInfo("1000-node chain laid out in %lld ms", timer.elapsed());
    QVERIFY(result.ok());
    for (int i = 0; i + 1 < 1000; ++i)
        QVERIFY(result.centres[i].y() < result.centres[i + 1].y());
}

void TestGraphvizLayout::wideGraphWithStraightEdges()
{
    // 2000 nodes: 40 chains of 50 that all feed one sink.
    GraphvizLayout::Input input = boxes(2001);
    input.straightEdges = true;
    for (int chain = 0; chain < 40; ++chain) {
        for (int i = 0; i + 1 < 50; ++i)
            input.edges.push_back({chain * 50 + i, chain * 50 + i + 1});
        input.edges.push_back({chain * 50 + 49, 2000});
    }
    QElapsedTimer timer;
    timer.start();
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    qInfo("2001 nodes, %zu edges laid out in %lld ms", input.edges.size(), timer.elapsed());
    QVERIFY(result.ok());
    for (const GraphvizLayout::LaidEdge& edge : result.edges)
        QVERIFY(!edge.points.empty());
}

void TestGraphvizLayout::layeredNetworkOfFiveThousandOps()
{
    // The shape of a training graph: 250 layers of 20 ops, each op reading two ops of the layer
    // before (an MLP's forward and backward passes look like this), laid out as the panel does
    // for graphs this big (straight edges).
    constexpr int kLayers = 250, kWidth = 20;
    GraphvizLayout::Input input = boxes(kLayers * kWidth);
    input.straightEdges = true;
    for (int layer = 1; layer < kLayers; ++layer)
        for (int i = 0; i < kWidth; ++i) {
            const int op = layer * kWidth + i;
            input.edges.push_back({(layer - 1) * kWidth + i, op});
            input.edges.push_back({(layer - 1) * kWidth + (i * 7 + 3) % kWidth, op});
        }
    QElapsedTimer timer;
    timer.start();
    const GraphvizLayout::Result result = GraphvizLayout::layout(input);
    qInfo("%zu ops, %zu edges laid out in %lld ms", input.nodeSizes.size(), input.edges.size(),
          timer.elapsed());
    QVERIFY(result.ok());
    QCOMPARE(result.centres.size(), input.nodeSizes.size());
    // The limits on Graphviz's passes keep every input above its consumer.
    for (const auto& edge : input.edges)
        QVERIFY(result.centres[edge.from].y() < result.centres[edge.to].y());
}

QTEST_APPLESS_MAIN(TestGraphvizLayout)
#include "tst_graphvizlayout.moc"
