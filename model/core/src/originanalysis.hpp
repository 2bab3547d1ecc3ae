// SPDX-License-Identifier: GPL-3.0-or-later
// The walks behind Snapshot::origin() and Snapshot::propagation() (see origin.hpp).
#pragma once

#include "indexstate.hpp"

#include <optional>

namespace nanscope::core {

std::optional<Origin> computeOrigin(const Snapshot& snapshot);
Propagation computePropagation(const Snapshot::Data& data);

} // namespace nanscope::core
