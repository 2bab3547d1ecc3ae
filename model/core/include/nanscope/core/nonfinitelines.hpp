// SPDX-License-Identifier: GPL-3.0-or-later
// The user's source lines that made non-finite values: where the Source panel puts its marks.
#pragma once

#include "nanscope/core/snapshot.hpp"
#include "nanscope/core/stackfolding.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>

namespace nanscope::core {

// 1-based lines by source file (an index into CodeTable::files()).
using SourceLines = std::map<std::size_t, std::set<std::int32_t>>;

// The user's frame (as `folding` finds it) of every op of which some graph execution trace is
// non-finite: a framework line did not make the NaN, so ops without a user frame, or whose frame
// names no file of the logdir, mark nothing. One pass over the digests, then one stack per such
// op; empty when stopped.
SourceLines nonFiniteUserLines(const Snapshot& snapshot, const StackFolding& folding,
                               const std::atomic_bool* stop = nullptr);

} // namespace nanscope::core
