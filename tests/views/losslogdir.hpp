// SPDX-License-Identifier: GPL-3.0-or-later
// The tutorial's loss graph, written by our recorder for the graph and timeline panel tests:
// graph "loss" with probs -> Log -> mul and labels -> Neg -> mul. Step 0 is healthy; in step 1
// probs holds a 0, so Log gives -inf and mul NaN (-0 * -inf). Each step also records a plain
// eager op, a 1000-element eager Log (with one -inf in step 1) and the function call of "loss".
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QTemporaryDir>

namespace nanscope::test {

class LossLogdir
{
public:
    LossLogdir();

    bool ok() const { return m_snapshot && m_snapshot->readable(); }
    const items::SnapshotPtr& snapshot() const { return m_snapshot; }

    // Trace indices: step * 5 + {probs, labels, Neg, Log, mul}.
    static constexpr int kTracesPerStep = 5;
    static constexpr int kProbs = 0, kLabels = 1, kNeg = 2, kLog = 3, kMul = 4;
    // Execution indices: step * 3 + {Cast, Log (eager), __inference_loss call}.
    static constexpr int kExecutionsPerStep = 3;
    static constexpr int kCast = 0, kEagerLog = 1, kCall = 2;

private:
    QTemporaryDir m_dir;
    items::SnapshotPtr m_snapshot;
};

} // namespace nanscope::test
