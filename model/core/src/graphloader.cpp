// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventparse.hpp"
#include "loaders.hpp"
#include "nanscope/core/plaintext.hpp"

#include <algorithm>

namespace nanscope::core {
namespace {

void addDebuggedGraph(const tfdbg::DebugEvent& event, std::uint64_t offset, FileState& file,
                      IndexState& index)
{
    const auto& g = event.debugged_graph();
    GraphInfo graph;
    graph.id = g.graph_id();
    graph.name = g.graph_name();
    graph.outerId = g.outer_context_id();
    graph.wallTime = event.wall_time();
    graph.offset = offset;
    auto& table = index.graphs;
    if (const auto existing = table.findGraph(graph.id)) {
        if (table.graph(*existing).declared) {
            index.recordProblems.add(recordProblem(
                Severity::Warning, file, offset,
                "graph id " + quotedName(graph.id) + " is declared twice; the first one is kept"));
            return;
        }
        table.declareGraph(*existing, std::move(graph));
        return;
    }
    table.addGraph(std::move(graph));
}

void addOpCreation(const tfdbg::DebugEvent& event, std::uint64_t offset, FileState& file,
                   IndexState& index)
{
    const auto& c = event.graph_op_creation();
    auto& table = index.graphs;
    auto graph = table.findGraph(c.graph_id());
    if (!graph)
        graph = table.graphPlaceholder(c.graph_id()); // diagnosed while it stays undeclared
    OpInfo op;
    op.graph = *graph;
    op.type = c.op_type();
    op.name = c.op_name();
    op.numOutputs = c.output_tensor_ids_size() > 0 ? c.output_tensor_ids_size() : c.num_outputs();
    if (op.numOutputs < 0 || op.numOutputs > kMaxOutputSlots) {
        index.recordProblems.add(
            recordProblem(Severity::Warning, file, offset,
                          "op " + quotedName(c.op_name()) + " claims " +
                              std::to_string(op.numOutputs) + " outputs; it is read as having " +
                              std::to_string(std::clamp(op.numOutputs, 0, kMaxOutputSlots))));
        op.numOutputs = std::clamp(op.numOutputs, 0, kMaxOutputSlots);
    }
    op.outputTensorIds.assign(c.output_tensor_ids().begin(), c.output_tensor_ids().end());
    op.hostName = c.code_location().host_name();
    op.stackFrameIds.assign(c.code_location().stack_frame_ids().begin(),
                            c.code_location().stack_frame_ids().end());
    op.wallTime = event.wall_time();
    op.offset = offset;
    for (const auto& name : c.input_names()) {
        OpInput input;
        input.name = name;
        splitTensorName(name, input.opName, input.slot);
        op.inputs.push_back(std::move(input));
    }
    const OpId existing = table.findOp(*graph, op.name);
    if (existing == kNoOp) {
        table.addOp(std::move(op));
    } else if (!table.op(existing).declared) {
        table.declareOp(existing, std::move(op));
    } else {
        const auto& g = table.graph(*graph);
        index.recordProblems.add(
            recordProblem(Severity::Warning, file, offset,
                          "op name " + quotedName(op.name) + " is used twice in graph " +
                              quotedName(g.name.empty() ? g.id : g.name) +
                              "; the first one is kept (TensorFlow's reader stops here)"));
    }
}

} // namespace

void loadGraphs(FileState& file, IndexState& index)
{
    tfdbg::DebugEvent event;
    bool any = false;
    forEachNewRecord(file, index, [&](std::string_view payload, std::uint64_t offset) {
        if (!parseEvent(event, payload)) {
            index.recordProblems.add(
                recordProblem(Severity::Error, file, offset, "not a valid DebugEvent; skipped"));
            return;
        }
        any = true;
        switch (event.what_case()) {
        case tfdbg::DebugEvent::kDebuggedGraph:
            addDebuggedGraph(event, offset, file, index);
            break;
        case tfdbg::DebugEvent::kGraphOpCreation:
            addOpCreation(event, offset, file, index);
            break;
        case tfdbg::DebugEvent::kDebuggedDevice:
            index.graphs.setDevice(event.debugged_device().device_id(),
                                   event.debugged_device().device_name());
            break;
        default:
            index.recordProblems.add(recordProblem(Severity::Warning, file, offset,
                                                   "not a graph, op or device record; skipped"));
            break;
        }
    });
    if (any) {
        index.graphs.linkOuterGraphs();
        index.graphs.resolvePendingInputs();
        index.graphsChanged = true;
    }
}

} // namespace nanscope::core
