// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/executionquery.hpp"

#include "nanscope/items/executionmodel.hpp"

#include <algorithm>
#include <unordered_map>

namespace nanscope::items {
namespace {

// Stops are looked at every this many executions (the first included): often enough to end a
// scan within a millisecond, rarely enough to cost nothing.
constexpr std::uint64_t kStopStride = 1 << 14;

// `n`: 1 for the first execution of a scan.
bool stopped(const std::atomic_bool* stop, std::uint64_t n)
{
    return stop && (n - 1) % kStopStride == 0 && stop->load(std::memory_order_relaxed);
}

bool containsIgnoringCase(std::string_view haystack, std::string_view lowerNeedle)
{
    if (lowerNeedle.empty())
        return true;
    const auto lower = [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    return std::search(haystack.begin(), haystack.end(), lowerNeedle.begin(), lowerNeedle.end(),
                       [&](char a, char b) { return lower(a) == b; }) != haystack.end();
}

std::string lowerCase(std::string_view text)
{
    std::string lower(text);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return lower;
}

// A filter with its find text in lower case, once per scan rather than once per execution.
ExecutionFilter prepared(ExecutionFilter filter)
{
    filter.text = lowerCase(filter.text);
    return filter;
}

// Module paths compare part by part ("MLP.fc1.act" right after "MLP.fc1", before "MLP.fc1_x"),
// so that a sorted list reads as a tree.
bool treeLess(std::string_view a, std::string_view b)
{
    while (!a.empty() && !b.empty()) {
        const std::string_view headA = a.substr(0, a.find('.'));
        const std::string_view headB = b.substr(0, b.find('.'));
        if (headA != headB)
            return headA < headB;
        a.remove_prefix(std::min(a.size(), headA.size() + 1));
        b.remove_prefix(std::min(b.size(), headB.size() + 1));
    }
    return a.empty() && !b.empty();
}

} // namespace

bool inModule(std::string_view path, std::string_view module)
{
    return path.starts_with(module) && (path.size() == module.size() || path[module.size()] == '.');
}

bool ExecutionFilter::matches(const core::ExecutionDigest& e) const
{
    if (nonFiniteOnly && !e.health.nonFinite())
        return false;
    if (!opType.empty() && e.opType != opType)
        return false;
    if (module && (module->empty() ? !e.modulePath.empty() : !inModule(e.modulePath, *module)))
        return false;
    // `text` is lower case here (see prepared()).
    return text.empty() || containsIgnoringCase(e.opType, text) ||
           containsIgnoringCase(e.modulePath, text);
}

std::vector<int> matchingExecutions(const core::Snapshot& snapshot, const ExecutionFilter& filter,
                                    std::uint64_t begin, std::uint64_t end,
                                    const std::atomic_bool* stop)
{
    const ExecutionFilter f = prepared(filter);
    end = std::min(end, snapshot.executionCount());
    std::vector<int> rows;
    for (std::uint64_t i = begin; i < end; ++i) {
        if (stopped(stop, i - begin + 1))
            break;
        if (f.matches(snapshot.execution(i)))
            rows.push_back(static_cast<int>(i));
    }
    return rows;
}

std::optional<std::uint64_t> findExecution(const core::Snapshot& snapshot,
                                           const ExecutionFilter& filter, std::uint64_t end,
                                           std::optional<std::uint64_t> from, bool backward,
                                           const std::atomic_bool* stop)
{
    const ExecutionFilter f = prepared(filter);
    end = std::min(end, snapshot.executionCount());
    if (end == 0)
        return std::nullopt;
    // Start just past `from` (or at an end of the list), walk every execution once, and try
    // `from` last.
    std::uint64_t at = from ? std::min(*from, end - 1) : (backward ? 0 : end - 1);
    for (std::uint64_t step = 1; step <= end; ++step) {
        if (stopped(stop, step))
            return std::nullopt;
        at = backward ? (at + end - 1) % end : (at + 1) % end;
        if (f.matches(snapshot.execution(at)))
            return at;
    }
    return std::nullopt;
}

ExecutionMatch executionMatchPosition(const core::Snapshot& snapshot, const ExecutionFilter& filter,
                                      std::uint64_t end, std::uint64_t execution,
                                      const std::atomic_bool* stop)
{
    const ExecutionFilter f = prepared(filter);
    end = std::min(end, snapshot.executionCount());
    ExecutionMatch match;
    for (std::uint64_t i = 0; i < end; ++i) {
        if (stopped(stop, i + 1))
            return {};
        if (!f.matches(snapshot.execution(i)))
            continue;
        ++match.total;
        if (i == execution)
            match.ordinal = match.total;
    }
    return match;
}

int healthSortKey(core::HealthDigest h)
{
    namespace b = core::health;
    return (h.nonFinite() ? 16 : 0) | (h.has(b::NaN) ? 8 : 0) | (h.has(b::NegInf) ? 4 : 0) |
           (h.has(b::PosInf) ? 2 : 0) | (h.known() ? 1 : 0);
}

bool executionColumnSortable(int column)
{
    using M = ExecutionModel;
    return column == M::IndexColumn || column == M::OpTypeColumn || column == M::ModuleColumn ||
           column == M::HealthColumn || column == M::OutputsColumn || column == M::TimeColumn;
}

std::optional<std::vector<int>> sortExecutions(const core::Snapshot& snapshot,
                                               std::vector<int> rows, int column,
                                               Qt::SortOrder order, const std::atomic_bool& stop)
{
    using M = ExecutionModel;
    if (!executionColumnSortable(column))
        return std::nullopt;
    // The digests are read once into keys; the sort then compares keys only. Stable, so that
    // equal keys keep the executions' order in either direction.
    const auto sortBy = [&](auto key) -> std::optional<std::vector<int>> {
        using Key = decltype(key(core::ExecutionDigest{}));
        std::vector<std::pair<Key, int>> keyed;
        keyed.reserve(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (stopped(&stop, i + 1))
                return std::nullopt;
            keyed.emplace_back(key(snapshot.execution(static_cast<std::uint64_t>(rows[i]))),
                               rows[i]);
        }
        const auto less = [order](const auto& a, const auto& b) {
            return order == Qt::AscendingOrder ? a.first < b.first : b.first < a.first;
        };
        std::stable_sort(keyed.begin(), keyed.end(), less);
        if (stop.load())
            return std::nullopt;
        for (std::size_t i = 0; i < keyed.size(); ++i)
            rows[i] = keyed[i].second;
        return std::move(rows);
    };
    switch (column) {
    case M::OpTypeColumn:
        return sortBy([](const core::ExecutionDigest& e) { return e.opType; });
    case M::ModuleColumn:
        // Executions in no module last, in either order: an empty cell is no value.
        return sortBy([order](const core::ExecutionDigest& e) {
            const bool none = e.modulePath.empty();
            return std::pair(order == Qt::AscendingOrder ? none : !none, e.modulePath);
        });
    case M::HealthColumn:
        return sortBy([](const core::ExecutionDigest& e) { return healthSortKey(e.health); });
    case M::OutputsColumn:
        return sortBy([](const core::ExecutionDigest& e) { return e.numOutputIds; });
    case M::TimeColumn:
        return sortBy([](const core::ExecutionDigest& e) { return e.wallTime; });
    default: // the index: the order the rows are in, ascending
        std::sort(rows.begin(), rows.end());
        if (order == Qt::DescendingOrder)
            std::reverse(rows.begin(), rows.end());
        return rows;
    }
}

bool scanExecutionChoices(const core::Snapshot& snapshot, std::uint64_t end,
                          ExecutionChoices& choices, const std::atomic_bool* stop)
{
    end = std::min(end, snapshot.executionCount());
    struct Counts
    {
        std::uint64_t executions = 0;
        std::uint64_t nonFinite = 0;
    };
    // Keyed by views into the snapshot's strings: no string is copied per execution.
    std::unordered_map<std::string_view, Counts> types;
    std::unordered_map<std::string_view, Counts> modules;
    for (std::uint64_t i = choices.scanned; i < end; ++i) {
        if (stopped(stop, i - choices.scanned + 1))
            return false;
        const core::ExecutionDigest e = snapshot.execution(i);
        const std::uint64_t bad = e.health.nonFinite() ? 1 : 0;
        Counts& type = types[e.opType];
        type.executions += 1;
        type.nonFinite += bad;
        Counts& module = modules[e.modulePath];
        module.executions += 1;
        module.nonFinite += bad;
    }
    const auto merge = [](std::vector<ExecutionChoice>& list, std::string_view name, Counts c,
                          auto less) {
        auto at = std::lower_bound(list.begin(), list.end(), name,
                                   [&](const ExecutionChoice& choice, std::string_view n) {
                                       return less(choice.name, n);
                                   });
        if (at == list.end() || at->name != name)
            at = list.insert(at, ExecutionChoice{std::string(name), 0, 0});
        at->executions += c.executions;
        at->nonFinite += c.nonFinite;
    };
    const auto plainLess = [](std::string_view a, std::string_view b) {
        return a < b;
    };
    for (const auto& [type, counts] : types)
        if (!type.empty())
            merge(choices.opTypes, type, counts, plainLess);
    for (const auto& [path, counts] : modules) {
        if (path.empty()) {
            choices.outsideModules += counts.executions;
            continue;
        }
        // The module and every module above it: a parent counts its children's executions.
        for (std::size_t dot = path.find('.'); dot != std::string_view::npos;
             dot = path.find('.', dot + 1))
            merge(choices.modules, path.substr(0, dot), counts, treeLess);
        merge(choices.modules, path, counts, treeLess);
    }
    choices.scanned = std::max(choices.scanned, end);
    return true;
}

} // namespace nanscope::items
