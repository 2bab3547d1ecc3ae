// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaders.hpp"
#include "recorddecoding.hpp"
#include "wirereader.hpp"

namespace nanscope::core {
namespace {

// "output 2: its six counts add up to …" for the first output whose summary is invalid.
std::string firstInvalidSummary(const std::vector<TensorHealth>& outputs)
{
    for (std::size_t slot = 0; slot < outputs.size(); ++slot)
        if (!outputs[slot].invalid.empty())
            return "output " + std::to_string(slot) + ": " + outputs[slot].invalid;
    return {};
}

// Whether a CodeLocation names a stack frame id that `code` does not have (the first in `id`).
bool namesUnknownFrame(std::string_view codeLocation, const CodeTable& code, std::string_view& id)
{
    wire::Reader reader(codeLocation);
    wire::Field field;
    while (reader.next(field))
        if (field.number == 2 && field.type == wire::WireType::LengthDelimited &&
            !code.findFrame(field.bytes)) {
            id = field.bytes;
            return true;
        }
    return false;
}

} // namespace

void loadExecutions(FileState& file, IndexState& index)
{
    DecodedExecution e;
    std::string_view unknownFrame;
    auto& x = index.executions;
    forEachNewRecord(file, index, [&](std::string_view payload, std::uint64_t offset) {
        const DecodeStatus status = decodeExecution(payload, e);
        if (status != DecodeStatus::Ok) {
            index.recordProblems.add(recordProblem(
                status == DecodeStatus::Malformed ? Severity::Error : Severity::Warning, file,
                offset,
                status == DecodeStatus::Malformed ? "not a valid DebugEvent; skipped"
                                                  : "not an Execution record; skipped"));
            return;
        }
        if (e.malformedSummary)
            index.recordProblems.add(recordProblem(
                Severity::Warning, file, offset,
                "a summary vector is too short for its tensor debug mode; its health is unknown"));
        else if (const auto invalid = firstInvalidSummary(e.outputHealth); !invalid.empty())
            index.recordProblems.add(recordProblem(Severity::Warning, file, offset,
                                                   "inconsistent summary vector of " + invalid +
                                                       "; shown as an invalid summary"));
        if (!e.graphId.empty()) {
            const auto graph = index.graphs.findGraph(e.graphId);
            if (!graph || !index.graphs.graph(*graph).declared)
                index.executionsOfUndeclaredGraphs.note(e.graphId);
        }
        if (namesUnknownFrame(e.codeLocation, index.code, unknownFrame))
            index.executionsWithUnknownFrames.note(unknownFrame);
        const std::size_t i = x.size();
        HealthDigest all;
        for (const auto& h : e.outputHealth)
            all.bits |= h.digest().bits;
        x.wallTime.push_back(e.wallTime);
        x.offset.push_back(offset);
        x.opType.push_back(index.strings.intern(e.opType));
        x.graphId.push_back(index.strings.intern(e.graphId));
        x.module.push_back(index.strings.intern(e.modulePath));
        x.mode.push_back(static_cast<std::uint8_t>(e.mode));
        x.health.push_back(all.bits);
        x.idsBegin.push_back(x.tensorIds.size());
        x.inputCount.push_back(static_cast<std::uint32_t>(e.inputIds.size()));
        x.outputCount.push_back(static_cast<std::uint32_t>(e.outputIds.size()));
        for (const auto id : e.inputIds)
            x.tensorIds.push_back(id);
        for (const auto id : e.outputIds)
            x.tensorIds.push_back(id);
        x.healthBegin.push_back(x.outputHealth.size());
        x.healthCount.push_back(static_cast<std::uint32_t>(e.outputHealth.size()));
        for (const auto& h : e.outputHealth)
            x.outputHealth.push_back(h.digest().bits);
        for (auto alert : e.alerts) {
            alert.event = {EventSource::Eager, i};
            index.executionAlerts.push_back(alert);
        }
        index.executionModes |= modeBit(e.mode);
    });
}

} // namespace nanscope::core
