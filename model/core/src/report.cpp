// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/report.hpp"

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

// Where a set-aside group's first event ran, as the origin is placed: the focus frame of its
// stack (the user's frame, or its stand-in) as "file:line"; "" when nothing tells.
std::string eventLocation(const Snapshot& snapshot, EventRef event, const StackFolding& folding)
{
    std::vector<std::string> frameIds;
    if (event.source == EventSource::Graph) {
        if (event.index >= snapshot.traceCount())
            return {};
        const OpId op = snapshot.trace(event.index).op;
        if (op >= snapshot.graphs().ops().size())
            return {};
        frameIds = snapshot.graphs().op(op).stackFrameIds;
    } else {
        const auto execution = snapshot.readExecution(event.index);
        if (!execution)
            return {};
        frameIds = execution->stackFrameIds;
    }
    const FoldedStack stack = folding.fold(snapshot.resolveStack(frameIds));
    if (!stack.focusFrame)
        return {};
    const ResolvedFrame& frame = stack.frames[*stack.focusFrame].frame;
    if (frame.filePath.empty())
        return {};
    return frame.filePath + ":" + std::to_string(frame.line);
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
        ReportHost host{set.hostName, set.prefix.filename().string(), set.wallTime,
                        snapshot.hostExecutionCount(h)};
        for (std::uint64_t i = 0; i < host.executions; ++i)
            host.nonFiniteExecutions += snapshot.hostExecution(h, i).health.nonFinite() ? 1 : 0;
        r.hosts.push_back(std::move(host));
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
    for (std::uint64_t k = 0; k < r.alertTotal; ++k)
        r.alertsTensorBoardSkips += snapshot.tensorBoardRaises(snapshot.alert(k)) ? 0 : 1;
    r.tensorBoardExecutions = snapshot.tensorBoardExecutionCount();
    r.tensorBoardTraces = snapshot.tensorBoardTraceCount();
    r.tensorBoardStops = snapshot.tensorBoardStops();
    if (const auto first = snapshot.tensorBoardFirstAlert())
        r.firstAlert = describeAlert(snapshot, *first);
    const StackFolding folding(options.frameworkPatterns);
    if (const auto& origin = snapshot.origin()) {
        ReportOrigin o;
        o.origin = *origin;
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
    // Without an alert nothing is non-finite, so nothing was set aside: the walk is skipped.
    if (snapshot.alertCount() > 0) {
        const Propagation& propagation = snapshot.propagation();
        r.intendedAlerts = propagation.intendedAlerts;
        r.uninitialisedAlerts = propagation.uninitialisedAlerts;
        // Every alert is counted or set aside; the rest is counted, so that an analysis that sets
        // nothing aside leaves every alert counted.
        const std::uint64_t setAside = r.intendedAlerts + r.uninitialisedAlerts;
        r.countedAlerts = r.alertTotal > setAside ? r.alertTotal - setAside : 0;
        for (const SetAside& group : propagation.setAside)
            r.setAside.push_back({group, eventLocation(snapshot, group.first, folding)});
        r.expectedPatterns = propagation.expectedPatterns;
    }
    r.diagnostics = snapshot.diagnostics();
    return r;
}

} // namespace nanscope::core
