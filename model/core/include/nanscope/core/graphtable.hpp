// SPDX-License-Identifier: GPL-3.0-or-later
// The graphs of a logdir and their ops (format §3.6, §3.7, §8.3 step 3): look-up by graph id and
// op name, inputs resolved to producing ops, consumers, devices.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

using GraphIndex = std::uint32_t;
using OpId = std::uint32_t;
inline constexpr OpId kNoOp = UINT32_MAX;
inline constexpr GraphIndex kNoGraph = UINT32_MAX;
// Output slots the index keeps per op: a record may claim two billion outputs or name slot
// 999999999 of an input, and nothing may be allocated per claimed slot. Traces of higher slots
// are shown as this one less one; such counts and input edges are diagnosed.
inline constexpr int kMaxOutputSlots = 65536;

struct OpInput
{
    std::string name;   // as recorded: "op:slot" or "op"
    std::string opName; // the part before ':'
    int slot = 0;       // "op" means slot 0
    OpId op = kNoOp;    // the producing op in the same graph, once it is known
};

struct OpConsumer
{
    OpId op = kNoOp;
    std::uint32_t inputIndex = 0; // which of the consumer's inputs
};

struct OpInfo
{
    GraphIndex graph = kNoGraph;
    std::string type;
    std::string name;
    std::vector<OpInput> inputs;
    std::vector<std::int32_t> outputTensorIds; // symbolic ids, one per output
    int numOutputs = 0;
    std::vector<std::string> stackFrameIds; // creation stack, outermost first
    std::string hostName;
    double wallTime = 0;
    std::uint64_t offset = 0; // of the GraphOpCreation record in the main .graphs file
    // False for an op that traces name but no GraphOpCreation declares (yet): its type is "".
    bool declared = true;
    std::vector<std::vector<OpConsumer>> consumers; // per output slot, data edges only
};

struct GraphInfo
{
    std::string id;
    std::string name;    // may be empty (TensorFlow's unnamed outermost graph)
    std::string outerId; // empty for an outermost graph
    GraphIndex outer = kNoGraph;
    std::vector<GraphIndex> inner;
    std::vector<OpId> ops; // in creation order
    double wallTime = 0;
    std::uint64_t offset = 0;
    bool declared = true; // false: named by ops or traces, but no DebuggedGraph record read (yet)
};

struct StringHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

class GraphTable
{
public:
    const std::vector<GraphInfo>& graphs() const { return m_graphs; }
    const std::vector<OpInfo>& ops() const { return m_ops; }
    const GraphInfo& graph(GraphIndex index) const { return m_graphs[index]; }
    const OpInfo& op(OpId id) const { return m_ops[id]; }

    std::optional<GraphIndex> findGraph(std::string_view graphId) const;
    OpId findOp(GraphIndex graph, std::string_view opName) const; // kNoOp if absent
    OpId findOp(std::string_view graphId, std::string_view opName) const;

    // Ops declared by GraphOpCreation records (TensorFlow's graph_op_digests()).
    std::size_t declaredOpCount() const { return m_declaredOps; }
    std::size_t declaredGraphCount() const { return m_declaredGraphs; }

    // Graph ids from the outermost graph to `graph` (TensorFlow's graph_ids). A cycle of outer
    // context ids ends the walk; `cycle` (optional) tells whether one was met.
    std::vector<GraphIndex> chain(GraphIndex graph, bool* cycle = nullptr) const;

    // Input edges not linked because they name an output slot at or above kMaxOutputSlots.
    std::uint64_t droppedEdges() const { return m_droppedEdges; }
    // About how many bytes the table holds (strings, ops, edges, look-up tables), for the
    // reader's memory limit.
    std::uint64_t approxBytes() const { return m_bytes; }

    // Device names by DebuggedDevice id.
    const std::unordered_map<std::int32_t, std::string>& devices() const { return m_devices; }
    std::string_view deviceName(std::int32_t id) const; // "" if unknown

    // Builders (used by the reader while it loads records).
    GraphIndex addGraph(GraphInfo graph); // the id must be new
    OpId addOp(OpInfo op);                // (graph, name) must be new
    void declareOp(OpId id, OpInfo op);   // fills in a placeholder made by addOp
    void declareGraph(GraphIndex index, GraphInfo graph);
    GraphIndex graphPlaceholder(std::string_view graphId);
    OpId opPlaceholder(GraphIndex graph, std::string_view opName);
    void setDevice(std::int32_t id, std::string name);
    // Resolves inputs that name ops of `graph` not known when their consumer was added.
    void resolvePendingInputs();
    void linkOuterGraphs();

private:
    void connectInputs(OpId id);

    std::vector<GraphInfo> m_graphs;
    std::vector<OpInfo> m_ops;
    StringMap<GraphIndex> m_graphIndex;
    std::vector<StringMap<OpId>> m_opsByName; // per graph
    std::unordered_map<std::int32_t, std::string> m_devices;
    std::size_t m_declaredOps = 0;
    std::size_t m_declaredGraphs = 0;
    bool m_pendingInputs = false;
    std::uint64_t m_droppedEdges = 0;
    std::uint64_t m_bytes = 0;
};

} // namespace nanscope::core
