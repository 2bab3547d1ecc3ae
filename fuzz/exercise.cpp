// SPDX-License-Identifier: GPL-3.0-or-later
#include "exercise.hpp"

#include "jsonreport.hpp"
#include "nanscope/core/report.hpp"

#include <cstdlib>

namespace nanscope::fuzz {

void exercise(const core::Snapshot& s, bool whole)
{
    (void)s.origin();
    (void)s.propagation();
    (void)s.alertsByWallTime();
    (void)s.tensorBoardAlertCount();
    for (std::uint64_t i = 0; i < s.traceCount() && i < 8; ++i) {
        (void)s.readTrace(i);
        (void)s.trace(i);
    }
    for (std::uint64_t i = 0; i < s.executionCount() && i < 8; ++i) {
        (void)s.readExecution(i);
        (void)s.executionInputIds(i);
        (void)s.executionOutputIds(i);
        (void)s.executionOutputHealth(i);
    }
    for (std::size_t i = 0; i < s.code().files().size() && i < 4; ++i)
        (void)s.readSourceLines(i);
    for (const auto& op : s.graphs().ops())
        (void)s.resolveStack(op.stackFrameIds);
    if (!whole)
        return;
    const core::Report report = core::buildReport(s);
    if (core::renderText(report).empty())
        std::abort();
    // The document is ours; serialising it is nlohmann's (a fifth of the time per input when
    // this dumped it), which the smoke tests and nanscope-report's tests run.
    if (!toJson(report).is_object())
        std::abort();
}

} // namespace nanscope::fuzz
