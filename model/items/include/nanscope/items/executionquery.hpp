// SPDX-License-Identifier: GPL-3.0-or-later
// Which executions (eager ops, PyTorch's every op) the Executions table shows, finds and in what
// order, answered from the snapshot's digests alone: no record is read, so that a worker thread
// filters or sorts millions of rows in a fraction of a second, with no item model involved.
// Executions of the main host only (core::Snapshot::execution): they are the ones the Navigator
// can focus.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <Qt>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::items {

struct ExecutionFilter
{
    bool nonFiniteOnly = false;
    std::string opType; // exactly this op type (the full one, "aten::mul"); empty: any
    // This module and the modules inside it ("MLP.fc1" takes "MLP.fc1" and "MLP.fc1.act", not
    // "MLP.fc10"); an empty string: only executions outside every module; none: any.
    std::optional<std::string> module;
    std::string text; // a piece of the op type or module path, case-insensitive; empty: any

    bool active() const { return nonFiniteOnly || !opType.empty() || module || !text.empty(); }
    bool matches(const core::ExecutionDigest& execution) const;
    friend bool operator==(const ExecutionFilter&, const ExecutionFilter&) = default;
};

// Whether `path` is `module` or a module inside it.
bool inModule(std::string_view path, std::string_view module);

// The executions in [begin, end) that match, ascending, as view rows. A stop request ends the
// scan early with what was found so far.
std::vector<int> matchingExecutions(const core::Snapshot& snapshot, const ExecutionFilter& filter,
                                    std::uint64_t begin, std::uint64_t end,
                                    const std::atomic_bool* stop = nullptr);

// The first match after `from` (before it when `backward`) among the first `end` executions,
// wrapping around; `from` itself is tried last. nullopt when nothing matches or when stopped.
std::optional<std::uint64_t> findExecution(const core::Snapshot& snapshot,
                                           const ExecutionFilter& filter, std::uint64_t end,
                                           std::optional<std::uint64_t> from, bool backward,
                                           const std::atomic_bool* stop = nullptr);

// "ordinal of total" for a find bar: where `execution` stands among the matches (ordinal 0 when
// it is not one).
struct ExecutionMatch
{
    std::uint64_t ordinal = 0;
    std::uint64_t total = 0;
};
ExecutionMatch executionMatchPosition(const core::Snapshot& snapshot, const ExecutionFilter& filter,
                                      std::uint64_t end, std::uint64_t execution,
                                      const std::atomic_bool* stop = nullptr);

// Health as the sort orders it: unknown, finite, then non-finite (with NaN above the infinities),
// so that a descending sort puts the worst first.
int healthSortKey(core::HealthDigest health);

// Whether ExecutionModel's `column` sorts from the digests (the columns of full records do not).
bool executionColumnSortable(int column);
// `rows` in the order of ExecutionModel's `column`: stable (equal values keep the executions'
// order). Null once `stop` is set, or for a column that does not sort.
std::optional<std::vector<int>> sortExecutions(const core::Snapshot& snapshot,
                                               std::vector<int> rows, int column,
                                               Qt::SortOrder order, const std::atomic_bool& stop);

// What the filters offer: each op type and each module (with the modules above it, so that the
// list reads as a tree), with how many executions ran there and how many were non-finite.
struct ExecutionChoice
{
    std::string name;
    std::uint64_t executions = 0; // a module's count includes its submodules'
    std::uint64_t nonFinite = 0;
};
struct ExecutionChoices
{
    std::vector<ExecutionChoice> opTypes; // by name
    std::vector<ExecutionChoice> modules; // by path: a parent before its children
    std::uint64_t outsideModules = 0;     // executions in no module
    std::uint64_t scanned = 0;            // executions these count (the first `scanned`)
};
// Adds executions [choices.scanned, end) to `choices`. False when stopped (choices unchanged).
bool scanExecutionChoices(const core::Snapshot& snapshot, std::uint64_t end,
                          ExecutionChoices& choices, const std::atomic_bool* stop = nullptr);

} // namespace nanscope::items
