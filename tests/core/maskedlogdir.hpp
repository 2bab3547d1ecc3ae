// SPDX-License-Identifier: GPL-3.0-or-later
// A PyTorch-shaped logdir whose −∞ is partly made on purpose, for the views of what was set aside
// (core/intent.hpp): aten::masked_fill writes an attention mask's −∞ from finite inputs,
// aten::_softmax turns it into exact zeros (finite), aten::log of those zeros makes the −∞ that
// is the bug, and aten::mean carries it on (and nothing reads the mean). Three alerts: the mask's
// (set aside), the log's (the origin) and the mean's.
#pragma once

#include "logdirbuilder.hpp"

#include <filesystem>

namespace nanscope::test {

// Eager executions in order; their indices.
enum MaskedExecution { MaskedFill, Softmax, Log, Mean };

inline void writeMaskedAttentionLogdir(const std::filesystem::path& dir)
{
    using namespace events;
    const FileSetWriter set = emptyRun(dir);
    constexpr int kFullHealth = 4;
    // fullHealth(id, size, -inf, +inf, nan, negative, zero, positive)
    set.append("execution", execution(2.0, "aten::masked_fill", {1, 2}, {3}, kFullHealth,
                                      {fullHealth(3, 16, 4, 0, 0, 6, 0, 6)}));
    set.append("execution", execution(2.1, "aten::_softmax", {3}, {4}, kFullHealth,
                                      {fullHealth(4, 16, 0, 0, 0, 0, 4, 12)}));
    set.append("execution", execution(2.2, "aten::log", {4}, {5}, kFullHealth,
                                      {fullHealth(5, 16, 4, 0, 0, 12, 0, 0)}));
    set.append("execution", execution(2.3, "aten::mean", {5}, {6}, kFullHealth,
                                      {fullHealth(6, 1, 1, 0, 0, 0, 0, 0)}));
}

} // namespace nanscope::test
