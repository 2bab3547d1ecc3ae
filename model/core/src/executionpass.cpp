// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaders.hpp"
#include "recorddecoding.hpp"

namespace nanscope::core {

void loadExecutions(FileState& file, IndexState& index)
{
    DecodedExecution e;
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
