// SPDX-License-Identifier: GPL-3.0-or-later
// Which alerts an alert list shows: by the kind of non-finite value, the host, the device and a
// piece of the op's name or type. A graph trace's alert is judged by the same TraceMatcher as
// Graph Execution's rows, so that a host, device or text means the same in both lists.
#pragma once

#include "nanscope/core/tracequery.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

struct AlertFilter
{
    std::uint8_t kinds = 0;            // health bits (health::NaN, NegInf, PosInf): any of them
    std::optional<std::uint32_t> host; // a file set (LogdirLayout::fileSets)
    std::optional<std::string> device; // a device name
    std::string text;                  // a piece of the op's name or type, case-insensitive

    bool active() const { return kinds != 0 || host || device || !text.empty(); }
    friend bool operator==(const AlertFilter&, const AlertFilter&) = default;
};

class AlertMatcher
{
public:
    AlertMatcher(const Snapshot& snapshot, AlertFilter filter);

    // An eager execution's device is in its record (the devices of its outputs): judging one
    // reads it, so matching is for worker threads.
    bool matches(const Alert& alert) const;

private:
    const Snapshot& m_snapshot;
    AlertFilter m_filter;
    std::string m_needle; // the text, lower case
    TraceMatcher m_traces;
};

// The alerts among the first `count` that match, ascending. A stop request ends the scan early
// with what was found so far.
std::vector<int> matchingAlerts(const Snapshot& snapshot, const AlertFilter& filter,
                                std::uint64_t count, const std::atomic_bool* stop = nullptr);

// The device names a logdir's events name: the traces', then the eager outputs' (its
// DebuggedDevice records) that no trace names, each once, in that order.
std::vector<std::string> deviceNames(const Snapshot& snapshot);

} // namespace nanscope::core
