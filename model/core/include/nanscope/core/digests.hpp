// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed-size facts the index keeps per graph execution trace and per execution (format §8.4),
// and the alerts derived from them (§9.4).
#pragma once

#include "nanscope/core/debugmode.hpp"
#include "nanscope/core/graphtable.hpp"
#include "nanscope/core/health.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace nanscope::core {

enum class EventSource : std::uint8_t {
    Graph, // a graph execution trace (a tensor computed inside a graph)
    Eager, // an execution (a top-level op or function call)
};

std::string_view toString(EventSource source); // "graph", "eager"

// One trace or one execution, by its index in TensorFlow's lists.
struct EventRef
{
    EventSource source = EventSource::Graph;
    std::uint64_t index = 0;
    friend bool operator==(const EventRef&, const EventRef&) = default;
};

struct TraceDigest
{
    double wallTime = 0;
    std::uint32_t fileIndex = 0; // into LogdirLayout::fileSets (TensorFlow's locator, part 1)
    std::uint64_t offset = 0;    // of the record in that set's .graph_execution_traces (part 2)
    OpId op = kNoOp;             // GraphTable::op(op) has graph, name and type
    std::uint32_t outputSlot = 0;
    DebugMode mode = DebugMode::Unspecified;
    HealthDigest health;
    std::uint16_t device = 0; // into Snapshot::traceDevices(); 0: none recorded
};

// Distinct device names the index tells traces apart by; traces of names beyond them count as
// of no device (a real run has a handful; the bound keeps a hostile file from growing the list).
inline constexpr std::size_t kMaxTraceDevices = 4096;

struct ExecutionDigest
{
    double wallTime = 0;
    std::uint64_t offset = 0; // of the record in its host's .execution file
    std::string_view opType;  // valid as long as the snapshot lives
    std::string_view graphId; // empty for a plain op
    // The module it ran in (PyTorch's framework context), e.g. "MLP.hidden"; empty otherwise.
    std::string_view modulePath;
    DebugMode mode = DebugMode::Unspecified;
    HealthDigest health;               // all outputs together
    std::uint32_t numInputIds = 0;     // input_tensor_ids
    std::uint32_t numOutputIds = 0;    // output_tensor_ids
    std::uint32_t numTensorValues = 0; // tensor_protos (one health per entry)
};

// One InfNanAlert, as TensorBoard's InfNanMonitor makes it.
struct Alert
{
    enum class Counts : std::uint8_t {
        None,    // CURT_HEALTH: TensorBoard leaves size and counts null
        Float,   // from a summary vector: TensorBoard prints them as floats
        Integer, // from a full tensor: integers
    };

    EventRef event;
    std::uint32_t outputSlot = 0;
    Counts counts = Counts::None;
    // The summary vector behind the counts cannot be what TensorFlow writes (see
    // TensorHealth::invalid): its counts are shown as an invalid summary, not as counts.
    bool invalidSummary = false;
    double size = 0;
    double negativeInfinity = 0;
    double positiveInfinity = 0;
    double nan = 0;
};

// Why an alert's counts are an invalid summary ("its -inf, +inf and NaN counts add up to 1000,
// more than its 3 elements"); empty when they are not.
std::string invalidSummaryReason(const Alert& alert);

} // namespace nanscope::core
