// SPDX-License-Identifier: GPL-3.0-or-later
// The alerts counted by the kind of non-finite value they hold, those set aside as intended or
// uninitialised (intent.hpp) apart: what the Alerts panel's header badges say.
#pragma once

#include "nanscope/core/origin.hpp"
#include "nanscope/core/snapshot.hpp"

#include <cstdint>

namespace nanscope::core {

// Whether alert `alert`'s values were set aside as intended or uninitialised.
bool alertSetAside(const Snapshot& snapshot, const Propagation& propagation, std::uint64_t alert);

struct AlertKindCounts
{
    std::uint64_t counted = 0; // not set aside
    std::uint64_t setAside = 0;
    // Of the counted alerts, those whose digest holds each kind (an alert may hold several).
    std::uint64_t nan = 0;
    std::uint64_t negInf = 0;
    std::uint64_t posInf = 0;
    bool kindsKnown = false; // some counted alert's digest told which kinds it held

    friend bool operator==(const AlertKindCounts&, const AlertKindCounts&) = default;
};

// One pass over every alert and its event's digest: for a worker thread.
AlertKindCounts countAlertKinds(const Snapshot& snapshot, const Propagation& propagation);

} // namespace nanscope::core
