// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis behind Snapshot::origin() and Snapshot::propagation() (see origin.hpp).
#pragma once

#include "indexstate.hpp"
#include "intentwalk.hpp"

#include <optional>
#include <vector>

namespace nanscope::core {

struct NonFiniteAnalysis
{
    std::optional<Origin> origin;
    Propagation propagation;
};

// `logBudgetBytes`: the intent walk's log (intentwalk.hpp); 0 makes it walk every event twice.
NonFiniteAnalysis analyseNonFinite(const Snapshot& snapshot,
                                   const std::vector<ExpectedPattern>& patterns,
                                   std::size_t logBudgetBytes = IntentWalk::kDefaultLogBudgetBytes);

} // namespace nanscope::core
