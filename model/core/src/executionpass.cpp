// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaders.hpp"
#include "recorddecoding.hpp"
#include "wirereader.hpp"

#include <array>
#include <string>

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

// Executions come from a few call sites, step after step: the same code location bytes and the
// same op type over and over. Remembering the last answer saves hashing a dozen frame ids and
// three strings per record. The copies are owned here: a payload's bytes live only while it is
// handled.
class RepeatCache
{
public:
    // Whether `codeLocation` names a frame `code` lacks (the first in `id`, valid until the next
    // call).
    bool namesUnknownFrame(std::string_view codeLocation, const CodeTable& code,
                           std::string_view& id)
    {
        if (!m_haveLocation || codeLocation != m_location) {
            m_location.assign(codeLocation);
            std::string_view found;
            m_unknown = core::namesUnknownFrame(codeLocation, code, found);
            m_unknownId.assign(found);
            m_haveLocation = true;
        }
        id = m_unknownId;
        return m_unknown;
    }

    std::uint32_t intern(StringPool& strings, std::size_t slot, std::string_view s)
    {
        Interned& last = m_interned[slot];
        if (!last.valid || s != last.text) {
            last.text.assign(s);
            last.id = strings.intern(s);
            last.valid = true;
        }
        return last.id;
    }

private:
    struct Interned
    {
        std::string text;
        std::uint32_t id = 0;
        bool valid = false;
    };

    std::string m_location;
    std::string m_unknownId;
    bool m_unknown = false;
    bool m_haveLocation = false;
    std::array<Interned, 3> m_interned;
};

// `compatible`: the first file set's executions, the ones TensorFlow's reader reads; only they
// raise alerts and are checked against the (first host's) graphs and stack frames.
void readExecutions(FileState& file, IndexState& index, ExecutionColumns& x, bool compatible)
{
    DecodedExecution e;
    std::string_view unknownFrame;
    RepeatCache repeats;
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
        if (compatible && !e.graphId.empty()) {
            const auto graph = index.graphs.findGraph(e.graphId);
            if (!graph || !index.graphs.graph(*graph).declared)
                index.executionsOfUndeclaredGraphs.note(e.graphId);
        }
        if (compatible && repeats.namesUnknownFrame(e.codeLocation, index.code, unknownFrame))
            index.executionsWithUnknownFrames.note(unknownFrame);
        const std::size_t i = x.size();
        HealthDigest all;
        for (const auto& h : e.outputHealth)
            all.bits |= h.digest().bits;
        x.wallTime.push_back(e.wallTime);
        x.offset.push_back(offset);
        x.opType.push_back(repeats.intern(index.strings, 0, e.opType));
        x.graphId.push_back(repeats.intern(index.strings, 1, e.graphId));
        x.module.push_back(repeats.intern(index.strings, 2, e.modulePath));
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
        if (!compatible)
            return;
        for (auto alert : e.alerts) {
            alert.event = {EventSource::Eager, i};
            index.executionAlerts.push_back(alert);
        }
        index.executionModes |= modeBit(e.mode);
    });
}

} // namespace

void loadExecutions(FileState& file, IndexState& index)
{
    readExecutions(file, index, index.executions, true);
}

void loadOtherHostExecutions(FileState& file, IndexState& index, ExecutionColumns& columns)
{
    readExecutions(file, index, columns, false);
}

} // namespace nanscope::core
