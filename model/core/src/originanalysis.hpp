// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis behind Snapshot::origin() and Snapshot::propagation() (see origin.hpp).
#pragma once

#include "indexstate.hpp"

#include <optional>
#include <vector>

namespace nanscope::core {

struct NonFiniteAnalysis
{
    std::optional<Origin> origin;
    Propagation propagation;
};

NonFiniteAnalysis analyseNonFinite(const Snapshot& snapshot,
                                   const std::vector<ExpectedPattern>& patterns);

} // namespace nanscope::core
