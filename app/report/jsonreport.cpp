// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonreport.hpp"

namespace nanscope {
namespace {

using nlohmann::ordered_json;

// TensorBoard's typing: floats from summary vectors, integers from full tensors, null without.
ordered_json count(const core::Alert& a, double value)
{
    switch (a.counts) {
    case core::Alert::Counts::None:
        return nullptr;
    case core::Alert::Counts::Float:
        return value;
    case core::Alert::Counts::Integer:
        if (const auto exact = core::exactCount(value))
            return *exact;
        return value; // not a count: as it is, never cast
    }
    return nullptr;
}

ordered_json firstAlert(const core::ReportAlert& r)
{
    const auto& a = r.alert;
    ordered_json j;
    j["source"] = std::string(core::toString(a.event.source));
    j["index"] = a.event.index;
    j["op_type"] = r.opType;
    j["op_name"] = orNull(r.opName);
    j["output_slot"] = a.outputSlot;
    j["graph_id"] = orNull(r.graphId);
    j["graph_name"] = orNull(r.graphName);
    j["size"] = count(a, a.size);
    j["num_neg_inf"] = count(a, a.negativeInfinity);
    j["num_pos_inf"] = count(a, a.positiveInfinity);
    j["num_nan"] = count(a, a.nan);
    // Why the counts cannot be what TensorFlow writes; null when they can be.
    j["invalid_summary"] = orNull(core::invalidSummaryReason(a));
    return j;
}

ordered_json frameJson(const core::FoldedFrame& f)
{
    ordered_json j;
    j["file"] = orNull(f.frame.filePath);
    j["line"] = f.frame.line;
    j["function"] = f.frame.function;
    j["framework"] = f.framework;
    return j;
}

ordered_json origin(const core::ReportOrigin& r)
{
    const auto& o = r.origin;
    ordered_json j;
    j["source"] = std::string(core::toString(o.event.source));
    j["index"] = o.event.index;
    j["op_type"] = o.opType;
    j["op_name"] = orNull(o.opName);
    j["graph_id"] = orNull(o.graphId);
    j["graph_name"] = orNull(o.graphName);
    j["output_slot"] = o.outputSlot;
    j["module_path"] = orNull(o.modulePath);
    j["forward_op_type"] = orNull(o.forwardOpType);
    if (r.forwardStack.focusFrame) {
        ordered_json forward = frameJson(r.forwardStack.frames[*r.forwardStack.focusFrame]);
        forward["index"] = *r.forwardStack.focusFrame;
        j["forward_focus_frame"] = std::move(forward);
    } else {
        j["forward_focus_frame"] = nullptr;
    }
    j["health"] = o.health.describe();
    ordered_json inputs = ordered_json::array();
    for (const auto& in : o.inputs) {
        ordered_json i;
        i["name"] = in.name;
        i["index"] = in.event ? ordered_json(in.event->index) : ordered_json(nullptr);
        i["source"] = in.event ? ordered_json(std::string(core::toString(in.event->source)))
                               : ordered_json(nullptr);
        i["health"] = in.healthText;
        inputs.push_back(std::move(i));
    }
    j["inputs"] = std::move(inputs);
    j["hint"] = o.hint.cause;
    j["fix"] = o.hint.fix;
    j["hint_rule"] = o.hint.rule;
    ordered_json stack = ordered_json::array();
    for (const auto& f : r.stack.frames)
        stack.push_back(frameJson(f));
    j["stack"] = std::move(stack);
    if (r.stack.userFrame) {
        ordered_json user = frameJson(r.stack.frames[*r.stack.userFrame]);
        user.erase("framework");
        user["index"] = *r.stack.userFrame;
        j["user_frame"] = std::move(user);
    } else {
        j["user_frame"] = nullptr;
    }
    // The frame the GUI shows: the user's, or the nearest stand-in when every frame is framework.
    if (r.stack.focusFrame) {
        ordered_json focus = frameJson(r.stack.frames[*r.stack.focusFrame]);
        focus["index"] = *r.stack.focusFrame;
        j["focus_frame"] = std::move(focus);
    } else {
        j["focus_frame"] = nullptr;
    }
    if (r.source) {
        ordered_json s;
        s["file"] = r.source->filePath;
        s["first_line"] = r.source->firstLine;
        s["focus_line"] = r.source->focusLine;
        s["lines"] = r.source->lines;
        j["source_context"] = std::move(s);
    } else {
        j["source_context"] = nullptr;
    }
    j["producers"] = r.producers;
    j["entries"] = r.entries;
    j["propagators"] = r.propagators;
    return j;
}

ordered_json setAside(const core::ReportSetAside& r)
{
    const core::SetAside& g = r.group;
    ordered_json j;
    j["intent"] = std::string(core::toString(g.intent));
    j["op_type"] = g.opType;
    j["op_name"] = orNull(g.opName);
    j["module"] = orNull(g.modulePath);
    j["location"] = orNull(r.location);
    // null when the mode tells that values were non-finite but not which (CURT_HEALTH).
    j["kinds"] = orNull(core::nonFiniteKindsText(g.kinds));
    j["producers"] = g.producers;
    j["carriers"] = g.carriers;
    j["absorbed_by"] = g.absorbedBy;
    j["pattern"] = orNull(g.pattern);
    j["first"] = {{"source", std::string(core::toString(g.first.source))},
                  {"index", g.first.index}};
    return j;
}

} // namespace

ordered_json toJson(const core::Report& r)
{
    ordered_json j;
    j["logdir"] = r.logdir;
    j["readable"] = r.readable;
    j["run_id"] = orNull(r.runId);
    ordered_json hosts = ordered_json::array();
    for (const auto& h : r.hosts)
        hosts.push_back({{"name", h.name},
                         {"file_prefix", h.prefix},
                         {"wall_time", h.wallTime},
                         {"executions", h.executions},
                         {"non_finite_executions", h.nonFiniteExecutions}});
    j["hosts"] = std::move(hosts);
    j["tensorflow_version"] = orNull(r.tensorflowVersion);
    j["file_version"] = orNull(r.fileVersion);
    j["tensor_debug_modes"] = r.tensorDebugModes;
    j["counts"] = {{"executions", r.counts.executions},
                   {"graph_execution_traces", r.counts.graphExecutionTraces},
                   {"graphs", r.counts.graphs},
                   {"graph_ops", r.counts.graphOps},
                   {"stack_frames", r.counts.stackFrames},
                   {"source_files", r.counts.sourceFiles}};
    ordered_json byType = ordered_json::object();
    if (r.alertTotal > 0)
        byType["InfNanAlert"] = r.alertTotal;
    j["alerts"] = {{"total", r.alertTotal},
                   {"by_type", std::move(byType)},
                   {"tensorboard_total", r.tensorBoardAlertTotal},
                   // NaNscope's alone: FULL_TENSOR values TensorBoard does not check (bfloat16 …)
                   {"not_checked_by_tensorboard", r.alertsTensorBoardSkips},
                   {"counted", r.countedAlerts},
                   {"intended", r.intendedAlerts},
                   {"uninitialised", r.uninitialisedAlerts}};
    // TensorBoard's view: the same counts, less what follows a corrupt record.
    ordered_json stops = ordered_json::array();
    for (const auto& stop : r.tensorBoardStops)
        stops.push_back({{"file", stop.file}, {"offset", stop.offset}});
    j["tensorboard"] = {{"executions", r.tensorBoardExecutions},
                        {"graph_execution_traces", r.tensorBoardTraces},
                        {"alerts", r.tensorBoardAlertTotal},
                        {"stops", std::move(stops)}};
    j["first_alert"] = r.firstAlert ? firstAlert(*r.firstAlert) : ordered_json(nullptr);
    j["origin"] = r.origin ? origin(*r.origin) : ordered_json(nullptr);
    // Other hosts' (ranks') origins, each read as the main host, earliest first.
    ordered_json hostOrigins = ordered_json::array();
    for (const auto& h : r.hostOrigins) {
        ordered_json o = origin(h.origin);
        o["host"] = h.host;
        o["counted_alerts"] = h.countedAlerts;
        hostOrigins.push_back(std::move(o));
    }
    j["host_origins"] = std::move(hostOrigins);
    const bool otherFirst =
        !r.hostOrigins.empty() &&
        (!r.origin || r.hostOrigins.front().origin.origin.wallTime < r.origin->origin.wallTime);
    j["earliest_origin_host"] = otherFirst ? ordered_json(r.hostOrigins.front().host)
                                : r.origin && !r.hosts.empty() ? ordered_json(r.hosts.front().name)
                                                               : ordered_json(nullptr);
    ordered_json groups = ordered_json::array();
    for (const auto& g : r.setAside)
        groups.push_back(setAside(g));
    j["set_aside"] = std::move(groups);
    ordered_json patterns = ordered_json::array();
    for (const auto& p : r.expectedPatterns)
        patterns.push_back(p.text);
    j["expected_patterns"] = std::move(patterns);
    j["diagnostics"] = toJson(r.diagnostics);
    return j;
}

ordered_json orNull(const std::string& s)
{
    return s.empty() ? ordered_json(nullptr) : ordered_json(s);
}

ordered_json toJson(const std::vector<core::Diagnostic>& diagnostics)
{
    ordered_json j = ordered_json::array();
    for (const auto& d : diagnostics)
        j.push_back({{"severity", std::string(core::toString(d.severity))},
                     {"file", orNull(d.file)},
                     {"offset", d.offset ? ordered_json(*d.offset) : ordered_json(nullptr)},
                     {"message", d.message}});
    return j;
}

} // namespace nanscope
