// SPDX-License-Identifier: Apache-2.0
#include "instrumentation.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

namespace nanscope::demo {

namespace {

// TensorFlow's dumping callback declares ops of these types but never instruments their
// outputs (op_callbacks_common.py); the demo uses two of them.
bool isInstrumented(std::string_view opType)
{
    // clang-format off
    static constexpr std::array<std::string_view, 18> kSkipped = {
        "Enter", "Exit", "Identity", "If", "LoopCond", "Merge", "NextIteration", "StatelessIf",
        "StatefulPartitionedCall", "Switch", "While", "RemoteCall", "TPUReplicatedInput",
        "TPUReplicateMetadata", "TPUCompilationResult", "TPUReplicatedOutput",
        "ConfigureDistributedTPU", "DestroyResourceOp"};
    // clang-format on
    return std::find(kSkipped.begin(), kSkipped.end(), opType) == kSkipped.end();
}

} // namespace

Instrumentation::Instrumentation(std::unique_ptr<Recorder> recorder, std::string program)
    : m_recorder(std::move(recorder)), m_program(std::move(program))
{}

Instrumentation::~Instrumentation() = default;

bool Instrumentation::check(const Status& status)
{
    if (status.ok())
        return true;
    if (status.code() == ErrorCode::NonFinite)
        throw StoppedAtNonFinite(status.message());
    if (!m_reported) {
        m_reported = true;
        std::fprintf(stderr, "%s: recording failed: %s (training goes on)\n", m_program.c_str(),
                     status.message().c_str());
    }
    return false;
}

std::int64_t Instrumentation::newUid()
{
    return m_recorder ? m_recorder->newTensorId() : ++m_offUids;
}

const GraphHandle* Instrumentation::outermostGraph()
{
    if (!m_recorder || m_outermostFailed)
        return nullptr;
    if (!m_outermost) {
        auto graph = m_recorder->declareGraph("");
        if (!check(graph.status())) {
            m_outermostFailed = true;
            return nullptr;
        }
        m_outermost = std::move(*graph);
    }
    return &*m_outermost;
}

std::vector<std::int64_t> Instrumentation::execute(std::string_view opType,
                                                   const GraphHandle* graph,
                                                   std::vector<std::int64_t> inputIds,
                                                   std::vector<TensorView> outputs,
                                                   std::source_location where)
{
    std::vector<std::int64_t> ids(outputs.size(), 0);
    if (!m_recorder)
        return ids;
    for (auto& id : ids)
        id = m_recorder->newTensorId();
    ExecutionSpec spec;
    spec.opType = std::string(opType);
    spec.graph = graph;
    spec.inputIds = std::move(inputIds);
    spec.outputIds = ids;
    spec.outputs = std::move(outputs);
    if (!m_deviceName.empty())
        spec.device = m_deviceName;
    check(m_recorder->recordExecution(spec, where));
    return ids;
}

std::optional<std::string> Instrumentation::close()
{
    if (!m_recorder)
        return std::nullopt;
    check(m_recorder->close());
    return m_recorder->options().dumpRoot.string();
}

FunctionGraph::FunctionGraph(Instrumentation& instrumentation, std::string name, Kind kind,
                             FunctionGraph* outer)
    : m_instrumentation(instrumentation), m_name(std::move(name)), m_kind(kind), m_outer(outer)
{}

const GraphHandle* FunctionGraph::handle()
{
    if (!m_instrumentation.enabled() || m_graphFailed)
        return nullptr;
    if (!m_graph) {
        // Enclosing graphs first, as TensorFlow writes them.
        const GraphHandle* outer = m_outer ? m_outer->handle() : m_instrumentation.outermostGraph();
        if (!outer) {
            m_graphFailed = true;
            return nullptr;
        }
        const std::string& name = m_kind == Kind::Backward ? callName() : m_name;
        auto graph = m_instrumentation.recorder()->declareGraph(name, outer);
        if (!m_instrumentation.check(graph.status())) {
            m_graphFailed = true;
            return nullptr;
        }
        m_graph = std::move(*graph);
    }
    return &*m_graph;
}

const std::string& FunctionGraph::callName()
{
    if (m_callName.empty()) {
        const char* prefix = m_kind == Kind::Backward ? "__backward_" : "__inference_";
        m_callName = prefix + m_name + "_" + std::to_string(m_instrumentation.newUid());
    }
    return m_callName;
}

void FunctionGraph::declare(const OpDef& def, std::source_location where)
{
    if (!m_instrumentation.enabled() || m_ops.contains(def.name))
        return;
    OpHandle op;
    if (const GraphHandle* graph = handle()) {
        OpSpec spec;
        spec.graph = *graph;
        spec.type = def.type;
        spec.name = def.name;
        spec.inputs = def.inputs;
        spec.numOutputs = def.numOutputs;
        spec.device = m_instrumentation.deviceName();
        auto declared = m_instrumentation.recorder()->declareOp(spec, where);
        if (m_instrumentation.check(declared.status()))
            op = std::move(*declared);
    }
    m_ops.emplace(def.name, std::move(op));
}

void FunctionGraph::trace(const std::string& opName, int slot, const TensorView& value)
{
    if (!m_instrumentation.enabled())
        return;
    const auto it = m_ops.find(opName);
    if (it == m_ops.end() || !it->second.valid() || !isInstrumented(it->second.type()))
        return;
    m_instrumentation.check(m_instrumentation.recorder()->recordTrace(it->second, slot, value));
}

std::vector<std::int64_t> FunctionGraph::call(std::vector<std::int64_t> inputIds,
                                              std::vector<TensorView> outputs,
                                              std::source_location where)
{
    const GraphHandle* graph = handle();
    return m_instrumentation.execute(callName(), graph, std::move(inputIds), std::move(outputs),
                                     where);
}

} // namespace nanscope::demo
