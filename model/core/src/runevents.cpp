// SPDX-License-Identifier: GPL-3.0-or-later
#include "runevents.hpp"

#include <algorithm>
#include <cmath>

namespace nanscope::core {
namespace {

bool setAside(const Propagation* propagation, EventRef event)
{
    return propagation && (propagation->intended(event) || propagation->uninitialised(event));
}

bool modeCounts(DebugMode mode)
{
    return mode == DebugMode::ConciseHealth || mode == DebugMode::FullHealth ||
           mode == DebugMode::FullTensor;
}

void keepLarger(std::optional<double>& largest, std::optional<double> candidate)
{
    if (candidate && (!largest || *candidate > *largest))
        largest = candidate;
}

// The largest finite |x| of a tensor whose every value was kept; nullopt otherwise.
std::optional<double> largestMagnitude(const TensorValue& value)
{
    if (!value.numeric || value.elementCount == 0 || value.values.size() != value.elementCount)
        return std::nullopt;
    double largest = 0;
    for (const double v : value.values)
        if (std::isfinite(v))
            largest = std::max(largest, std::fabs(v));
    return largest;
}

} // namespace

std::optional<double> healthDifference(const TensorHealth& a, const TensorHealth& b)
{
    using Detail = TensorHealth::Detail;
    const auto counts = [](const TensorHealth& h) {
        return (h.detail == Detail::Counts || h.detail == Detail::Full) && h.invalid.empty();
    };
    if (!counts(a) || !counts(b))
        return std::nullopt;
    const auto fraction = [](double n, double size) {
        return size > 0 ? n / size : 0.0;
    };
    double largest = 0;
    const auto compare = [&](double TensorHealth::*member) {
        const double d = std::fabs(fraction(a.*member, a.size) - fraction(b.*member, b.size));
        largest = std::max(largest, d);
    };
    compare(&TensorHealth::negativeInfinity);
    compare(&TensorHealth::positiveInfinity);
    compare(&TensorHealth::nan);
    if (a.detail == Detail::Full && b.detail == Detail::Full) {
        compare(&TensorHealth::negativeFinite);
        compare(&TensorHealth::zero);
        compare(&TensorHealth::positiveFinite);
    }
    return std::min(largest, 1.0); // counts past the size are diagnosed, never believed
}

std::optional<double> magnitudeDifference(const TensorValue& a, const TensorValue& b)
{
    const auto ma = largestMagnitude(a);
    const auto mb = largestMagnitude(b);
    if (!ma || !mb)
        return std::nullopt;
    const double larger = std::max(*ma, *mb);
    return larger > 0 ? std::fabs(*ma - *mb) / larger : 0.0;
}

EventState eventState(const Snapshot& snapshot, EventRef event, const Propagation* propagation)
{
    const HealthDigest health = snapshot.health(event);
    if (!health.known())
        return EventState::Unknown;
    if (!health.nonFinite() || setAside(propagation, event))
        return EventState::Finite;
    return EventState::NonFinite;
}

bool countsRecorded(const Snapshot& snapshot, EventRef event)
{
    const DebugMode mode = event.source == EventSource::Graph
                               ? snapshot.trace(event.index).mode
                               : snapshot.execution(event.index).mode;
    return modeCounts(mode);
}

std::optional<double> recordDifference(const Snapshot& a, EventRef eventA, const Snapshot& b,
                                       EventRef eventB)
{
    std::optional<double> largest;
    if (eventA.source == EventSource::Graph) {
        const auto ta = a.readTrace(eventA.index);
        const auto tb = b.readTrace(eventB.index);
        if (!ta || !tb)
            return std::nullopt;
        keepLarger(largest, healthDifference(ta->health, tb->health));
        if (ta->fullTensor && tb->fullTensor)
            keepLarger(largest, magnitudeDifference(*ta->fullTensor, *tb->fullTensor));
        return largest;
    }
    const auto xa = a.readExecution(eventA.index);
    const auto xb = b.readExecution(eventB.index);
    if (!xa || !xb)
        return std::nullopt;
    const std::size_t outputs = std::min(xa->outputHealth.size(), xb->outputHealth.size());
    for (std::size_t k = 0; k < outputs; ++k)
        keepLarger(largest, healthDifference(xa->outputHealth[k], xb->outputHealth[k]));
    const std::size_t tensors = std::min(xa->fullTensors.size(), xb->fullTensors.size());
    for (std::size_t k = 0; k < tensors; ++k)
        keepLarger(largest, magnitudeDifference(xa->fullTensors[k], xb->fullTensors[k]));
    return largest;
}

CompareEvent describeEvent(const Snapshot& snapshot, EventRef event, std::uint64_t step,
                           const Propagation* propagation)
{
    CompareEvent e;
    e.event = event;
    e.step = step;
    e.setAside = setAside(propagation, event);
    const GraphTable& graphs = snapshot.graphs();
    if (event.source == EventSource::Graph) {
        const TraceDigest trace = snapshot.trace(event.index);
        e.wallTime = trace.wallTime;
        e.outputSlot = trace.outputSlot;
        e.digest = trace.health;
        if (trace.op < graphs.ops().size()) {
            const OpInfo& op = graphs.op(trace.op);
            e.opType = op.type;
            e.opName = op.name;
            if (op.graph < graphs.graphs().size())
                e.graphName = graphs.graph(op.graph).name;
        }
        if (const auto details = snapshot.readTrace(event.index))
            e.health = details->health;
        return e;
    }
    const ExecutionDigest execution = snapshot.execution(event.index);
    e.wallTime = execution.wallTime;
    e.digest = execution.health;
    e.opType = std::string(execution.opType);
    e.modulePath = std::string(execution.modulePath);
    if (const auto graph = graphs.findGraph(execution.graphId))
        e.graphName = graphs.graph(*graph).name;
    if (const auto details = snapshot.readExecution(event.index)) {
        const auto& outputs = details->outputHealth;
        const auto nonFinite = std::find_if(outputs.begin(), outputs.end(),
                                            [](const TensorHealth& h) { return h.nonFinite; });
        const auto shown = nonFinite != outputs.end() ? nonFinite : outputs.begin();
        if (shown != outputs.end()) {
            e.outputSlot = static_cast<std::uint32_t>(shown - outputs.begin());
            e.health = *shown;
        }
    }
    return e;
}

} // namespace nanscope::core
