// SPDX-License-Identifier: GPL-3.0-or-later
// Where the app's execution times count from: the logdir's first execution, of whichever host
// ran it. One definition, so that the Executions table and the execution details agree.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <algorithm>

namespace nanscope::items {

inline double firstExecutionWallTime(const core::Snapshot& snapshot)
{
    double first = snapshot.executionCount() > 0 ? snapshot.execution(0).wallTime : 0;
    bool any = snapshot.executionCount() > 0;
    for (std::size_t h = 1; h < snapshot.layout().fileSets.size(); ++h)
        if (snapshot.hostExecutionCount(h) > 0) {
            const double t = snapshot.hostExecution(h, 0).wallTime;
            first = any ? std::min(first, t) : t;
            any = true;
        }
    return first;
}

} // namespace nanscope::items
