// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/report.hpp"

#include <future>

namespace nanscope::core {
namespace {

ReportAlert describeAlert(const Snapshot& snapshot, const Alert& alert)
{
    ReportAlert r;
    r.alert = alert;
    if (alert.event.source == EventSource::Graph) {
        const TraceDigest trace = snapshot.trace(alert.event.index);
        const GraphTable& graphs = snapshot.graphs();
        if (trace.op < graphs.ops().size()) {
            const OpInfo& op = graphs.op(trace.op);
            r.opType = op.type;
            r.opName = op.name;
            r.graphId = graphs.graph(op.graph).id;
            r.graphName = graphs.graph(op.graph).name;
        }
    } else {
        const ExecutionDigest execution = snapshot.execution(alert.event.index);
        r.opType = std::string(execution.opType);
        r.graphId = std::string(execution.graphId);
        if (const auto g = snapshot.graphs().findGraph(r.graphId))
            r.graphName = snapshot.graphs().graph(*g).name;
    }
    return r;
}

std::vector<std::string> modeNames(DebugModeSet modes)
{
    std::vector<std::string> names;
    for (unsigned m = 0; m < 16; ++m)
        if (modes & (1u << m))
            names.emplace_back(toString(static_cast<DebugMode>(m)));
    return names;
}

} // namespace

Report buildReport(const Snapshot& snapshot, const ReportOptions& options)
{
    Report r;
    const LogdirLayout& layout = snapshot.layout();
    r.logdir = layout.directory.string();
    r.readable = snapshot.readable();
    r.runId = layout.runId;
    for (std::size_t h = 0; h < layout.fileSets.size(); ++h) {
        const FileSet& set = layout.fileSets[h];
        r.hosts.push_back({set.hostName, set.prefix.filename().string(), set.wallTime,
                           snapshot.hostExecutionCount(h)});
    }
    r.tensorflowVersion = layout.tensorflowVersion;
    r.fileVersion = layout.fileVersion;
    r.tensorDebugModes = modeNames(snapshot.traceModes() | snapshot.executionModes());
    r.counts.executions = snapshot.executionCount();
    r.counts.graphExecutionTraces = snapshot.traceCount();
    r.counts.graphs = snapshot.graphs().declaredGraphCount();
    r.counts.graphOps = snapshot.graphs().declaredOpCount();
    r.counts.stackFrames = snapshot.code().frames().size();
    r.counts.sourceFiles = snapshot.code().files().size();
    r.alertTotal = snapshot.alertCount();
    r.tensorBoardAlertTotal = snapshot.tensorBoardAlertCount();
    r.tensorBoardExecutions = snapshot.tensorBoardExecutionCount();
    r.tensorBoardTraces = snapshot.tensorBoardTraceCount();
    r.tensorBoardStops = snapshot.tensorBoardStops();
    if (const auto first = snapshot.tensorBoardFirstAlert())
        r.firstAlert = describeAlert(snapshot, *first);
    // A logdir with alerts has an origin, whose report needs the propagation: both walk every
    // event up to the first non-finite one or further, each on a core of its own.
    std::future<void> propagationWalk;
    if (snapshot.alertCount() > 0)
        propagationWalk =
            std::async(std::launch::async, [&snapshot] { (void)snapshot.propagation(); });
    if (const auto& origin = snapshot.origin()) {
        ReportOrigin o;
        o.origin = *origin;
        const StackFolding folding(options.frameworkPatterns);
        o.stack = folding.fold(snapshot.resolveStack(origin->stackFrameIds));
        if (!origin->forwardStackFrameIds.empty())
            o.forwardStack = folding.fold(snapshot.resolveStack(origin->forwardStackFrameIds));
        if (o.stack.focusFrame) {
            const ResolvedFrame& frame = o.stack.frames[*o.stack.focusFrame].frame;
            if (frame.fileIndex)
                if (const auto lines = snapshot.readSourceLines(*frame.fileIndex))
                    o.source = excerpt(*lines, frame.filePath, frame.line, options.contextLines);
        }
        const Propagation& propagation = snapshot.propagation();
        o.producers = propagation.producers;
        o.entries = propagation.entries;
        o.propagators = propagation.propagators;
        r.origin = std::move(o);
    }
    r.diagnostics = snapshot.diagnostics();
    return r;
}

} // namespace nanscope::core
