// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/debugmode.hpp"

#include "nanscope/core/diagnostic.hpp"
#include "nanscope/core/digests.hpp"

namespace nanscope::core {

std::string_view toString(DebugMode mode)
{
    switch (mode) {
    case DebugMode::Unspecified:
        return "UNSPECIFIED";
    case DebugMode::NoTensor:
        return "NO_TENSOR";
    case DebugMode::CurtHealth:
        return "CURT_HEALTH";
    case DebugMode::ConciseHealth:
        return "CONCISE_HEALTH";
    case DebugMode::FullHealth:
        return "FULL_HEALTH";
    case DebugMode::Shape:
        return "SHAPE";
    case DebugMode::FullNumerics:
        return "FULL_NUMERICS";
    case DebugMode::FullTensor:
        return "FULL_TENSOR";
    case DebugMode::ReduceInfNanThreeSlots:
        return "REDUCE_INF_NAN_THREE_SLOTS";
    }
    return "UNKNOWN";
}

DebugMode debugModeFromWire(std::uint64_t value)
{
    return value <= 8 ? static_cast<DebugMode>(value) : DebugMode::Unspecified;
}

std::string_view toString(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "unknown";
}

std::string_view toString(EventSource source)
{
    return source == EventSource::Graph ? "graph" : "eager";
}

} // namespace nanscope::core
