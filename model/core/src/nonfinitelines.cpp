// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/nonfinitelines.hpp"

#include "nanscope/core/tracequery.hpp"

namespace nanscope::core {

SourceLines nonFiniteUserLines(const Snapshot& snapshot, const StackFolding& folding,
                               const std::atomic_bool* stop)
{
    const auto& ops = snapshot.graphs().ops();
    const std::vector<std::uint8_t> made = opsWithNonFiniteTraces(snapshot, stop);
    if (made.size() != ops.size())
        return {}; // stopped
    SourceLines lines;
    for (std::size_t op = 0; op < ops.size(); ++op) {
        if (!made[op])
            continue;
        const FoldedStack stack = folding.fold(snapshot.resolveStack(ops[op].stackFrameIds));
        if (!stack.userFrame)
            continue;
        const ResolvedFrame& frame = stack.frames[*stack.userFrame].frame;
        if (frame.fileIndex)
            lines[*frame.fileIndex].insert(frame.line);
    }
    return lines;
}

} // namespace nanscope::core
