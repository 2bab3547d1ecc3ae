// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsoncompare.hpp"

#include "jsonreport.hpp"

namespace nanscope {
namespace {

using nlohmann::ordered_json;

std::string state(const core::CompareEvent& e)
{
    if (!e.digest.known())
        return "unknown";
    if (!e.digest.nonFinite())
        return "finite";
    return e.setAside ? "set-aside" : "nonfinite";
}

// The record's counts as numbers for a script; null where its mode counts nothing.
ordered_json counts(const core::TensorHealth& h)
{
    using Detail = core::TensorHealth::Detail;
    if (h.detail != Detail::Counts && h.detail != Detail::Full)
        return nullptr;
    ordered_json j;
    j["size"] = h.size;
    j["num_neg_inf"] = h.negativeInfinity;
    j["num_pos_inf"] = h.positiveInfinity;
    j["num_nan"] = h.nan;
    const bool full = h.detail == Detail::Full;
    j["num_negative"] = full ? ordered_json(h.negativeFinite) : ordered_json(nullptr);
    j["num_zero"] = full ? ordered_json(h.zero) : ordered_json(nullptr);
    j["num_positive"] = full ? ordered_json(h.positiveFinite) : ordered_json(nullptr);
    return j;
}

ordered_json event(const core::CompareEvent& e)
{
    ordered_json j;
    j["source"] = std::string(core::toString(e.event.source));
    j["index"] = e.event.index;
    j["op_type"] = orNull(e.opType);
    j["op_name"] = orNull(e.opName);
    j["graph_name"] = orNull(e.graphName);
    j["module_path"] = orNull(e.modulePath);
    j["output_slot"] = e.outputSlot;
    j["step"] = e.step;
    j["wall_time"] = e.wallTime;
    j["state"] = state(e);
    j["state_text"] = core::describeState(e);
    j["health"] = e.health.describe();
    j["counts"] = counts(e.health);
    return j;
}

ordered_json divergence(const core::Divergence& d)
{
    if (d.kind == core::DivergenceKind::None)
        return nullptr;
    ordered_json j;
    j["kind"] = std::string(core::toString(d.kind));
    j["difference"] =
        d.kind == core::DivergenceKind::Magnitude ? ordered_json(d.difference) : nullptr;
    j["a"] = event(d.a);
    j["b"] = event(d.b);
    return j;
}

ordered_json list(const core::SequenceComparison& s)
{
    ordered_json j;
    j["count_a"] = s.countA;
    j["count_b"] = s.countB;
    j["aligned"] = s.aligned;
    j["only_in_a"] = s.onlyInA;
    j["only_in_b"] = s.onlyInB;
    j["fallbacks"] = s.fallbacks;
    j["health_reads"] = s.healthReads;
    j["threshold_cut"] = s.thresholdCut;
    j["divergence"] = s.divergence ? divergence(*s.divergence) : nullptr;
    if (s.firstUnmatched) {
        ordered_json first = event(*s.firstUnmatched);
        first["run"] = *s.firstUnmatchedSide == core::RunSide::A ? "a" : "b";
        j["first_unmatched"] = std::move(first);
    } else {
        j["first_unmatched"] = nullptr;
    }
    return j;
}

} // namespace

ordered_json toJson(const core::RunComparison& c)
{
    ordered_json j;
    j["logdir_a"] = c.logdirA;
    j["logdir_b"] = c.logdirB;
    j["error"] = nullptr;
    j["threshold"] = c.threshold ? ordered_json(*c.threshold) : nullptr;
    j["diverged"] = c.first.kind != core::DivergenceKind::None;
    j["divergence"] = divergence(c.first);
    j["executions"] = list(c.executions);
    j["graph_execution_traces"] = list(c.traces);
    j["stopped"] = c.stopped;
    j["errors_a"] = toJson(c.errorsA);
    j["errors_b"] = toJson(c.errorsB);
    return j;
}

ordered_json compareErrorJson(const std::string& logdirA, const std::string& logdirB,
                              const std::string& error)
{
    ordered_json j;
    j["logdir_a"] = logdirA;
    j["logdir_b"] = logdirB;
    j["error"] = error;
    return j;
}

} // namespace nanscope
