// SPDX-License-Identifier: GPL-3.0-or-later
// One event of a run as the comparison of two runs sees it (runcompare.hpp): its state, its
// record's health, its names.
#pragma once

#include "nanscope/core/origin.hpp"
#include "nanscope/core/runcompare.hpp"

#include <optional>

namespace nanscope::core {

enum class EventState : std::uint8_t { Unknown, Finite, NonFinite };

// From the index's digest alone; values set aside as intended count as finite.
EventState eventState(const Snapshot& snapshot, EventRef event, const Propagation* propagation);

// Whether the event's mode counts elements (CONCISE_HEALTH, FULL_HEALTH, FULL_TENSOR): whether
// reading its record can tell more than its digest.
bool countsRecorded(const Snapshot& snapshot, EventRef event);

// The largest healthDifference (or magnitudeDifference) of the two events' outputs, read from
// their records; nullopt when neither can be told.
std::optional<double> recordDifference(const Snapshot& a, EventRef eventA, const Snapshot& b,
                                       EventRef eventB);

// The event with its names and its record's health (an execution's first non-finite output, or
// its first output).
CompareEvent describeEvent(const Snapshot& snapshot, EventRef event, std::uint64_t step,
                           const Propagation* propagation);

} // namespace nanscope::core
