// SPDX-License-Identifier: GPL-3.0-or-later
#include "neighbourhoodpicture.hpp"

#include "graphitems.hpp"

#include <algorithm>
#include <map>

namespace nanscope::views {
namespace {

constexpr std::size_t kMaxPerSide = 48; // more than this is a list, not a picture
constexpr qreal kGapX = 28;
constexpr qreal kArrowLength = 8;

QString tensorName(const std::string& opName, int slot)
{
    return QString::fromStdString(opName) + u':' + QString::number(slot);
}

// Neighbours and the tensors that connect them, in first-seen order.
struct Side
{
    struct Entry
    {
        core::OpId op = core::kNoOp;
        QString name;
        QStringList tensors;
    };
    std::vector<Entry> entries;
    std::map<QString, std::size_t> byKey;
    std::size_t leftOut = 0;

    void add(core::OpId op, const QString& name, const QString& tensor)
    {
        const QString key = op != core::kNoOp ? QString::number(op) : u'#' + name;
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            if (entries.size() >= kMaxPerSide) {
                ++leftOut;
                return;
            }
            it = byKey.emplace(key, entries.size()).first;
            entries.push_back({op, name, {}});
        }
        QStringList& tensors = entries[it->second].tensors;
        if (!tensors.contains(tensor))
            tensors.append(tensor);
    }
};

} // namespace

void placeRows(std::vector<PictureNode>& nodes, std::size_t first, std::size_t count, qreal y,
               qreal step)
{
    for (std::size_t row = 0; row * kMaxPerRow < count; ++row) {
        const std::size_t begin = first + row * kMaxPerRow;
        const std::size_t end = first + std::min(count, (row + 1) * kMaxPerRow);
        qreal width = 0;
        for (std::size_t i = begin; i < end; ++i)
            width += nodes[i].size.width() + (i > begin ? kGapX : 0);
        qreal x = -width / 2;
        for (std::size_t i = begin; i < end; ++i) {
            nodes[i].centre = QPointF(x + nodes[i].size.width() / 2, y + row * step);
            x += nodes[i].size.width() + kGapX;
        }
    }
}

qreal rowPitch(const std::vector<PictureNode>& nodes)
{
    qreal tallest = 0;
    for (const PictureNode& node : nodes)
        tallest = std::max(tallest, node.size.height());
    return tallest + kRowGap;
}

qreal threeRowHeight(const QFont& font)
{
    const qreal box = NodeSizer(font).size(QStringLiteral("x"), QStringLiteral("x")).height();
    const QMarginsF overhang = OpNodeItem::overhang(font);
    return 3 * box + 2 * kRowGap + overhang.top() + overhang.bottom() + 2 * kNeighbourhoodMargin;
}

PictureEdge verticalEdge(const PictureNode& from, const PictureNode& to)
{
    PictureEdge edge;
    const QPointF start(from.centre.x(), from.centre.y() + from.size.height() / 2);
    edge.arrowTip = QPointF(to.centre.x(), to.centre.y() - to.size.height() / 2);
    edge.arrowBase = edge.arrowTip - QPointF(0, kArrowLength);
    edge.hasArrow = true;
    const qreal bend = std::max<qreal>(24, (edge.arrowBase.y() - start.y()) / 2);
    edge.path.moveTo(start);
    edge.path.cubicTo(start + QPointF(0, bend), edge.arrowBase - QPointF(0, bend), edge.arrowBase);
    return edge;
}

GraphPicture neighbourhoodPicture(const core::Snapshot& snapshot, core::OpId op,
                                  std::optional<std::uint64_t> focusedTrace, const NodeSizer& sizer)
{
    GraphPicture picture;
    const core::GraphTable& graphs = snapshot.graphs();
    if (op >= graphs.ops().size())
        return picture;
    const core::OpInfo& self = graphs.op(op);
    picture.graph = self.graph;

    Side inputs;
    for (const core::OpInput& input : self.inputs)
        inputs.add(input.op, QString::fromStdString(input.opName),
                   tensorName(input.opName, input.slot));
    Side consumers;
    for (std::size_t slot = 0; slot < self.consumers.size(); ++slot)
        for (const core::OpConsumer& consumer : self.consumers[slot])
            consumers.add(consumer.op, QString::fromStdString(graphs.op(consumer.op).name),
                          tensorName(self.name, static_cast<int>(slot)));

    auto makeNode = [&](core::OpId id, const QString& name) {
        PictureNode node;
        node.op = id;
        node.name = name;
        node.type =
            id != core::kNoOp ? displayType(graphs.op(id)) : QStringLiteral("(not declared)");
        node.size = sizer.size(node.name, node.type);
        return node;
    };
    // Order: the focused op, its inputs, its consumers.
    picture.nodes.push_back(makeNode(op, QString::fromStdString(self.name)));
    picture.nodes.front().focused = true;
    for (const Side::Entry& entry : inputs.entries)
        picture.nodes.push_back(makeNode(entry.op, entry.name));
    for (const Side::Entry& entry : consumers.entries)
        picture.nodes.push_back(makeNode(entry.op, entry.name));

    std::vector<core::OpId> ids;
    for (const PictureNode& node : picture.nodes)
        if (node.op != core::kNoOp && std::find(ids.begin(), ids.end(), node.op) == ids.end())
            ids.push_back(node.op);
    const std::vector<core::OpTrace> latest =
        core::tracesAround(snapshot, ids, core::downstreamOf(graphs, ids, op), focusedTrace);
    for (PictureNode& node : picture.nodes) {
        const auto it = std::find(ids.begin(), ids.end(), node.op);
        if (it != ids.end())
            node.latest = latest[static_cast<std::size_t>(it - ids.begin())];
    }

    layOutStar(
        picture, inputs.entries.size(),
        [&](std::size_t i) { return inputs.entries[i].tensors.join(QStringLiteral(", ")); },
        [&](std::size_t i) { return consumers.entries[i].tensors.join(QStringLiteral(", ")); });

    QStringList notes;
    if (inputs.leftOut > 0)
        notes << QStringLiteral("%1 more inputs not shown").arg(inputs.leftOut);
    if (consumers.leftOut > 0)
        notes << QStringLiteral("%1 more consumers not shown").arg(consumers.leftOut);
    if (self.inputs.empty())
        notes << QStringLiteral("This op has no inputs.");
    if (consumers.entries.empty() && consumers.leftOut == 0)
        notes << QStringLiteral("No op consumes this op's outputs.");
    picture.note = notes.join(QStringLiteral("  ·  "));
    return picture;
}

} // namespace nanscope::views
