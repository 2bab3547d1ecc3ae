// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/graphtable.hpp"

#include "nanscope/core/codetable.hpp"

#include <algorithm>
#include <unordered_set>

namespace nanscope::core {
namespace {

// Heap and bookkeeping bytes of a string held in a table and one hash-map entry keyed by it.
constexpr std::uint64_t kMapEntryBytes = 64;

std::uint64_t heapBytes(const std::string& s)
{
    return sizeof(std::string) + s.size();
}

std::uint64_t opBytes(const OpInfo& op)
{
    std::uint64_t n = sizeof(OpInfo) + op.type.size() + op.name.size() + op.hostName.size() +
                      op.outputTensorIds.size() * sizeof(std::int32_t) + kMapEntryBytes +
                      op.name.size();
    for (const auto& input : op.inputs)
        n += sizeof(OpInput) + input.name.size() + input.opName.size();
    for (const auto& frame : op.stackFrameIds)
        n += heapBytes(frame);
    return n;
}

std::uint64_t graphBytes(const GraphInfo& g)
{
    return sizeof(GraphInfo) + 2 * g.id.size() + g.name.size() + g.outerId.size() + kMapEntryBytes +
           sizeof(StringMap<OpId>);
}

} // namespace

std::optional<GraphIndex> GraphTable::findGraph(std::string_view graphId) const
{
    if (auto it = m_graphIndex.find(graphId); it != m_graphIndex.end())
        return it->second;
    return std::nullopt;
}

OpId GraphTable::findOp(GraphIndex graph, std::string_view opName) const
{
    if (graph >= m_opsByName.size())
        return kNoOp;
    const auto& ops = m_opsByName[graph];
    if (auto it = ops.find(opName); it != ops.end())
        return it->second;
    return kNoOp;
}

OpId GraphTable::findOp(std::string_view graphId, std::string_view opName) const
{
    const auto graph = findGraph(graphId);
    return graph ? findOp(*graph, opName) : kNoOp;
}

std::vector<GraphIndex> GraphTable::chain(GraphIndex graph, bool* cycle) const
{
    std::vector<GraphIndex> ids;
    bool looped = false;
    // Costs the chain's length, never the table's size (chains can be 100 000 deep, and this runs
    // per trace shown): a short chain is searched for repeats, a long one remembered in a set.
    constexpr std::size_t kShortChain = 32;
    std::unordered_set<GraphIndex> seen;
    for (GraphIndex g = graph; g != kNoGraph && g < m_graphs.size(); g = m_graphs[g].outer) {
        bool repeated = false;
        if (ids.size() < kShortChain) {
            repeated = std::find(ids.begin(), ids.end(), g) != ids.end();
        } else {
            if (seen.empty())
                seen.insert(ids.begin(), ids.end());
            repeated = !seen.insert(g).second;
        }
        if (repeated) {
            looped = true;
            break;
        }
        ids.push_back(g);
    }
    if (cycle)
        *cycle = looped;
    std::reverse(ids.begin(), ids.end());
    return ids;
}

void GraphTable::setDevice(std::int32_t id, std::string name)
{
    m_bytes += kMapEntryBytes + name.size();
    m_devices[id] = std::move(name);
}

std::string_view GraphTable::deviceName(std::int32_t id) const
{
    if (auto it = m_devices.find(id); it != m_devices.end())
        return it->second;
    return {};
}

GraphIndex GraphTable::addGraph(GraphInfo graph)
{
    const auto index = static_cast<GraphIndex>(m_graphs.size());
    m_graphIndex.emplace(graph.id, index);
    m_opsByName.emplace_back();
    if (graph.declared)
        ++m_declaredGraphs;
    m_bytes += graphBytes(graph);
    m_graphs.push_back(std::move(graph));
    return index;
}

void GraphTable::declareGraph(GraphIndex index, GraphInfo graph)
{
    GraphInfo& g = m_graphs[index];
    if (!g.declared)
        ++m_declaredGraphs;
    m_bytes += graph.name.size() + graph.outerId.size();
    g.name = std::move(graph.name);
    g.outerId = std::move(graph.outerId);
    g.wallTime = graph.wallTime;
    g.offset = graph.offset;
    g.declared = true;
}

GraphIndex GraphTable::graphPlaceholder(std::string_view graphId)
{
    GraphInfo graph;
    graph.id = std::string(graphId);
    graph.declared = false;
    return addGraph(std::move(graph));
}

OpId GraphTable::addOp(OpInfo op)
{
    const auto id = static_cast<OpId>(m_ops.size());
    m_opsByName[op.graph].emplace(op.name, id);
    m_graphs[op.graph].ops.push_back(id);
    if (op.declared)
        ++m_declaredOps;
    m_bytes += opBytes(op) + sizeof(OpId);
    m_ops.push_back(std::move(op));
    connectInputs(id);
    return id;
}

void GraphTable::declareOp(OpId id, OpInfo op)
{
    OpInfo& slot = m_ops[id];
    auto consumers = std::move(slot.consumers); // made by ops that named this one as input
    op.graph = slot.graph;
    m_bytes += opBytes(op);
    slot = std::move(op);
    if (slot.consumers.size() < consumers.size())
        slot.consumers.resize(consumers.size());
    for (std::size_t s = 0; s < consumers.size(); ++s)
        slot.consumers[s].insert(slot.consumers[s].end(), consumers[s].begin(), consumers[s].end());
    slot.declared = true;
    ++m_declaredOps;
    connectInputs(id);
}

OpId GraphTable::opPlaceholder(GraphIndex graph, std::string_view opName)
{
    OpInfo op;
    op.graph = graph;
    op.name = std::string(opName);
    op.declared = false;
    return addOp(std::move(op));
}

void GraphTable::connectInputs(OpId id)
{
    OpInfo& op = m_ops[id];
    const auto outputs = static_cast<std::size_t>(std::clamp(op.numOutputs, 0, kMaxOutputSlots));
    if (op.consumers.size() < outputs) {
        m_bytes += (outputs - op.consumers.size()) * sizeof(std::vector<OpConsumer>);
        op.consumers.resize(outputs);
    }
    for (std::uint32_t j = 0; j < op.inputs.size(); ++j) {
        OpInput& input = m_ops[id].inputs[j];
        if (input.op != kNoOp)
            continue;
        const OpId producer = findOp(m_ops[id].graph, input.opName);
        if (producer == kNoOp) {
            m_pendingInputs = true;
            continue;
        }
        input.op = producer;
        const auto slot = static_cast<std::size_t>(std::max(input.slot, 0));
        if (slot >= static_cast<std::size_t>(kMaxOutputSlots)) {
            ++m_droppedEdges; // the producer is known; only the consumer list is not extended
            continue;
        }
        auto& consumers = m_ops[producer].consumers;
        if (consumers.size() <= slot) {
            m_bytes += (slot + 1 - consumers.size()) * sizeof(std::vector<OpConsumer>);
            consumers.resize(slot + 1);
        }
        consumers[slot].push_back({id, j});
        m_bytes += sizeof(OpConsumer);
    }
}

void GraphTable::resolvePendingInputs()
{
    if (!m_pendingInputs)
        return;
    m_pendingInputs = false;
    for (OpId id = 0; id < m_ops.size(); ++id)
        connectInputs(id);
}

void GraphTable::linkOuterGraphs()
{
    for (GraphIndex g = 0; g < m_graphs.size(); ++g) {
        GraphInfo& graph = m_graphs[g];
        if (graph.outerId.empty() || graph.outer != kNoGraph)
            continue;
        const auto outer = findGraph(graph.outerId);
        if (!outer)
            continue;
        graph.outer = *outer;
        m_graphs[*outer].inner.push_back(g);
    }
}

// --- CodeTable ---------------------------------------------------------------------------------

namespace {
std::string fileKey(std::string_view host, std::string_view path)
{
    std::string key(host);
    key += '\0';
    key += path;
    return key;
}
} // namespace

const StackFrameInfo* CodeTable::findFrame(std::string_view id) const
{
    if (auto it = m_frameIndex.find(id); it != m_frameIndex.end())
        return &m_frames[it->second];
    return nullptr;
}

std::optional<std::size_t> CodeTable::findFile(std::string_view host, std::string_view path) const
{
    if (auto it = m_fileIndex.find(fileKey(host, path)); it != m_fileIndex.end())
        return it->second;
    return std::nullopt;
}

bool CodeTable::resolved(const StackFrameInfo& frame) const
{
    return frame.fileIndex >= 0 && static_cast<std::size_t>(frame.fileIndex) < m_files.size();
}

ResolvedFrame CodeTable::resolve(std::string_view frameId) const
{
    ResolvedFrame out;
    out.id = std::string(frameId);
    const StackFrameInfo* frame = findFrame(frameId);
    if (!frame)
        return out;
    out.line = frame->line;
    out.function = frame->function;
    if (resolved(*frame)) {
        const auto index = static_cast<std::size_t>(frame->fileIndex);
        out.fileIndex = index;
        out.hostName = m_files[index].hostName;
        out.filePath = m_files[index].filePath;
    }
    return out;
}

std::size_t CodeTable::unresolvedFrameCount() const
{
    return static_cast<std::size_t>(std::count_if(m_frames.begin(), m_frames.end(),
                                                  [this](const auto& f) { return !resolved(f); }));
}

void CodeTable::addFile(SourceFileInfo file)
{
    auto key = fileKey(file.hostName, file.filePath);
    if (auto it = m_fileIndex.find(key); it != m_fileIndex.end()) {
        m_files[it->second].offset = file.offset;
        m_files[it->second].lineCount = file.lineCount;
        return;
    }
    m_bytes += sizeof(SourceFileInfo) + 2 * key.size() + kMapEntryBytes;
    m_fileIndex.emplace(std::move(key), m_files.size());
    m_files.push_back(std::move(file));
}

bool CodeTable::addFrame(StackFrameInfo frame)
{
    if (m_frameIndex.contains(frame.id))
        return false;
    m_bytes +=
        sizeof(StackFrameInfo) + 2 * frame.id.size() + frame.function.size() + kMapEntryBytes;
    m_frameIndex.emplace(frame.id, m_frames.size());
    m_frames.push_back(std::move(frame));
    return true;
}

} // namespace nanscope::core
