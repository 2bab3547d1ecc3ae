// SPDX-License-Identifier: GPL-3.0-or-later
#include "eagerpicture.hpp"

#include "neighbourhoodpicture.hpp"

#include <algorithm>

namespace nanscope::views {
namespace {

QString tensorLabel(std::int64_t id)
{
    return QStringLiteral("tensor %1").arg(id);
}

} // namespace

EagerPictureData eagerPictureData(const core::Snapshot& snapshot, std::uint64_t execution)
{
    EagerPictureData data;
    data.neighbourhood = core::eagerNeighbourhood(snapshot, execution);
    std::vector<std::uint64_t> executions{execution};
    for (const auto* side : {&data.neighbourhood.producers, &data.neighbourhood.consumers})
        for (const core::EagerEdge& edge : *side)
            if (edge.execution)
                executions.push_back(*edge.execution);
    std::sort(executions.begin(), executions.end());
    executions.erase(std::unique(executions.begin(), executions.end()), executions.end());
    for (const std::uint64_t e : executions)
        if (const auto details = snapshot.readExecution(e))
            data.modules.emplace_back(e, details->modulePath);
    return data;
}

QString executionNodeName(const core::Snapshot& snapshot, std::uint64_t execution)
{
    return QStringLiteral("%1 #%2").arg(QString::fromUtf8(snapshot.execution(execution).opType),
                                        QString::number(execution));
}

GraphPicture eagerNeighbourhoodPicture(const core::Snapshot& snapshot, const EagerPictureData& data,
                                       const NodeSizer& sizer)
{
    GraphPicture picture;
    const core::EagerNeighbourhood& n = data.neighbourhood;
    if (n.execution >= snapshot.executionCount())
        return picture;
    auto moduleOf = [&](std::uint64_t e) {
        for (const auto& [execution, module] : data.modules)
            if (execution == e && !module.empty())
                return QString::fromStdString(module);
        return QStringLiteral("eager");
    };
    auto executionNode = [&](std::uint64_t e) {
        PictureNode node;
        node.name = executionNodeName(snapshot, e);
        node.type = moduleOf(e);
        node.execution = e;
        node.latest.health = snapshot.execution(e).health;
        node.size = sizer.size(node.name, node.type);
        return node;
    };
    // One box per producing execution (an execution feeding two inputs is one box with both
    // tensors on its edge), one per unrecorded input tensor, one per consumer.
    struct Neighbour
    {
        PictureNode node;
        QStringList tensors;
    };
    std::vector<Neighbour> above;
    for (const core::EagerEdge& edge : n.producers) {
        const auto same = std::find_if(above.begin(), above.end(), [&](const Neighbour& x) {
            return edge.execution && x.node.execution == edge.execution;
        });
        if (same != above.end()) {
            if (!same->tensors.contains(tensorLabel(edge.tensorId)))
                same->tensors << tensorLabel(edge.tensorId);
            continue;
        }
        Neighbour neighbour;
        if (edge.execution) {
            neighbour.node = executionNode(*edge.execution);
        } else {
            neighbour.node.name = tensorLabel(edge.tensorId);
            neighbour.node.type = QStringLiteral("(not recorded)");
            neighbour.node.size = sizer.size(neighbour.node.name, neighbour.node.type);
        }
        neighbour.tensors << tensorLabel(edge.tensorId);
        above.push_back(std::move(neighbour));
    }

    picture.nodes.push_back(executionNode(n.execution));
    picture.nodes.front().focused = true;
    for (const Neighbour& x : above)
        picture.nodes.push_back(x.node);
    for (const core::EagerEdge& edge : n.consumers)
        picture.nodes.push_back(executionNode(*edge.execution));

    layOutStar(
        picture, above.size(),
        [&](std::size_t i) { return above[i].tensors.join(QStringLiteral(", ")); },
        [&](std::size_t i) { return tensorLabel(n.consumers[i].tensorId); });

    QStringList notes;
    if (n.producers.empty())
        notes << QStringLiteral("This execution has no input tensors.");
    if (n.consumersCut)
        notes << QStringLiteral("More consumers not shown.");
    else if (n.consumers.empty())
        notes << QStringLiteral("No later execution reads its outputs.");
    picture.note = notes.join(QStringLiteral("  ·  "));
    return picture;
}

} // namespace nanscope::views
