// SPDX-License-Identifier: GPL-3.0-or-later
// What the logdir targets do with each snapshot: everything a snapshot answers, as the app and
// the report ask it.
#pragma once

#include "nanscope/core/snapshot.hpp"

namespace nanscope::fuzz {

// Origin, propagation, alerts, details of the first traces and executions, source lines and
// stacks; with `whole`, the text report and the JSON document too (for a last snapshot).
void exercise(const core::Snapshot& s, bool whole);

} // namespace nanscope::fuzz
