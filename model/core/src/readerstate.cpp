// SPDX-License-Identifier: GPL-3.0-or-later
#include "readerstate.hpp"

namespace nanscope::core {

void ReaderState::adoptFileSet(const FileSet& set)
{
    if (layout.fileSets.empty()) {
        sourceFiles.path = set.file(kSourceFilesSuffix);
        stackFrames.path = set.file(kStackFramesSuffix);
        graphs.path = set.file(kGraphsSuffix);
        executions.path = set.file(kExecutionSuffix);
    } else {
        FileState other;
        other.path = set.file(kExecutionSuffix);
        otherExecutionFiles.push_back(std::move(other));
        index.otherHostExecutions.emplace_back();
        if (index.spillArena)
            index.otherHostExecutions.back().spillTo(index.spillArena);
    }
    layout.fileSets.push_back(set);
    FileState traces;
    traces.path = set.file(kTracesSuffix);
    traceFiles.push_back(std::move(traces));
}

} // namespace nanscope::core
