// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/sequencealign.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace nanscope::core {
namespace {

using Tokens = std::span<const std::uint32_t>;

constexpr std::uint32_t kMaxLocalEdits = 1024;               // 0.5 M cells, 12 MiB
constexpr std::uint32_t kMaxWindow = std::uint32_t{1} << 22; // 64 MiB of token groups

enum class Move : std::uint8_t { Start, Down, Right }; // Down: a token of B only; Right: of A only

// One diagonal's furthest point after d edits in the local diff, and how it got there.
struct Cell
{
    std::int64_t xEnd = -1; // -1: not reached
    std::int64_t xStart = 0;
    Move from = Move::Start;
};

enum class Step : std::uint8_t { Match, OnlyA, OnlyB };

struct PathStep
{
    Step step;
    std::uint64_t a;
    std::uint64_t b;
};

std::uint64_t gramHash(const std::uint32_t* tokens, std::size_t length)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t n = 0; n < length; ++n) {
        h ^= tokens[n];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

class Walker
{
public:
    Walker(Tokens a, Tokens b, AlignmentVisitor& visitor, const AlignOptions& options)
        : m_a(a), m_b(b), m_visitor(visitor), m_options(options)
    {
        // Zero would never count as back in step, and an edit bound of zero leaves only the
        // fallback: both are the caller's mistakes, not reasons to loop for ever.
        m_options.resyncMatches = std::max<std::uint32_t>(1, m_options.resyncMatches);
        // The local diff keeps (D + 1)(D + 2) / 2 cells and the fallback 16 bytes per token of
        // its window: bounds keep a caller's large value from becoming a large allocation.
        m_options.maxLocalEdits = std::min(m_options.maxLocalEdits, kMaxLocalEdits);
        m_options.window = std::clamp<std::uint32_t>(m_options.window, 1, kMaxWindow);
        m_options.maxWindow = std::clamp(m_options.maxWindow, m_options.window, kMaxWindow);
    }

    AlignStats run()
    {
        std::uint64_t i = 0;
        std::uint64_t j = 0;
        while (i < m_a.size() && j < m_b.size() && !m_stopped) {
            if (m_a[i] == m_b[j]) {
                match(i++, j++);
                continue;
            }
            if (localDiff(i, j)) {
                ++m_stats.localDiffs;
                continue;
            }
            ++m_stats.fallbacks;
            fallback(i, j);
        }
        for (; i < m_a.size() && !m_stopped; ++i)
            onlyA(i);
        for (; j < m_b.size() && !m_stopped; ++j)
            onlyB(j);
        return m_stats;
    }

private:
    void match(std::uint64_t i, std::uint64_t j)
    {
        ++m_stats.matched;
        m_stopped = !m_visitor.matched(i, j);
    }
    void onlyA(std::uint64_t i)
    {
        ++m_stats.onlyA;
        m_stopped = !m_visitor.onlyInA(i);
    }
    void onlyB(std::uint64_t j)
    {
        ++m_stats.onlyB;
        m_stopped = !m_visitor.onlyInB(j);
    }

    // Cells of step d are stored after those of steps 0..d-1: d + 1 diagonals each.
    static std::size_t cellIndex(std::int64_t d, std::int64_t k)
    {
        return static_cast<std::size_t>(d * (d + 1) / 2 + (k + d) / 2);
    }
    std::int64_t reached(std::int64_t d, std::int64_t k) const
    {
        if (d < 0 || k < -d || k > d)
            return -1;
        return m_cells[cellIndex(d, k)].xEnd;
    }

    // Myers' forward search from (i, j), bounded by maxLocalEdits: the first path (fewest edits)
    // to resyncMatches equal tokens in a row, or to both ends. Emits the path up to there and
    // moves (i, j) past it; false when there is none within the bound (nothing emitted).
    bool localDiff(std::uint64_t& i, std::uint64_t& j)
    {
        const auto n = static_cast<std::int64_t>(m_a.size() - i);
        const auto m = static_cast<std::int64_t>(m_b.size() - j);
        const auto maxEdits = static_cast<std::int64_t>(m_options.maxLocalEdits);
        const auto needed = static_cast<std::int64_t>(m_options.resyncMatches);
        m_cells.assign(cellIndex(maxEdits + 1, -(maxEdits + 1)), Cell{});
        for (std::int64_t d = 0; d <= maxEdits; ++d) {
            for (std::int64_t k = -d; k <= d; k += 2) {
                Cell cell;
                if (d > 0) {
                    const std::int64_t down = reached(d - 1, k + 1);
                    const std::int64_t rightFrom = reached(d - 1, k - 1);
                    const std::int64_t right = rightFrom < 0 ? -1 : rightFrom + 1;
                    if (down < 0 && right < 0)
                        continue;
                    cell.from = down >= right ? Move::Down : Move::Right;
                    cell.xStart = std::max(down, right);
                }
                std::int64_t x = cell.xStart;
                std::int64_t y = x - k;
                if (x > n || y > m || y < 0)
                    continue;
                while (x < n && y < m && x - cell.xStart < needed &&
                       m_a[i + static_cast<std::uint64_t>(x)] ==
                           m_b[j + static_cast<std::uint64_t>(y)]) {
                    ++x;
                    ++y;
                }
                cell.xEnd = x;
                m_cells[cellIndex(d, k)] = cell;
                if (x - cell.xStart >= needed || (x == n && y == m)) {
                    emitPath(i, j, d, k);
                    i += static_cast<std::uint64_t>(x);
                    j += static_cast<std::uint64_t>(y);
                    return true;
                }
            }
        }
        return false;
    }

    void emitPath(std::uint64_t i, std::uint64_t j, std::int64_t d, std::int64_t k)
    {
        m_path.clear();
        for (;;) {
            const Cell& cell = m_cells[cellIndex(d, k)];
            for (std::int64_t x = cell.xEnd; x > cell.xStart; --x)
                m_path.push_back({Step::Match, i + static_cast<std::uint64_t>(x - 1),
                                  j + static_cast<std::uint64_t>(x - 1 - k)});
            if (d == 0)
                break;
            const std::int64_t previousK = cell.from == Move::Down ? k + 1 : k - 1;
            const std::int64_t previousX = reached(d - 1, previousK);
            const std::int64_t previousY = previousX - previousK;
            if (cell.from == Move::Down)
                m_path.push_back({Step::OnlyB, 0, j + static_cast<std::uint64_t>(previousY)});
            else
                m_path.push_back({Step::OnlyA, i + static_cast<std::uint64_t>(previousX), 0});
            --d;
            k = previousK;
        }
        for (auto it = m_path.rbegin(); it != m_path.rend() && !m_stopped; ++it) {
            if (it->step == Step::Match)
                match(it->a, it->b);
            else if (it->step == Step::OnlyA)
                onlyA(it->a);
            else
                onlyB(it->b);
        }
    }

    // The nearest (p, q) within `span` tokens of (i, j) where `gram` tokens agree, by the
    // fewest tokens skipped in both runs; false when there is none.
    bool findAnchor(std::uint64_t i, std::uint64_t j, std::uint64_t spanA, std::uint64_t spanB,
                    std::size_t gram, std::uint64_t& p, std::uint64_t& q)
    {
        m_grams.clear();
        for (std::uint64_t at = j; at + gram <= j + spanB; ++at)
            m_grams.emplace_back(gramHash(&m_b[at], gram), at);
        std::sort(m_grams.begin(), m_grams.end());
        bool found = false;
        std::uint64_t best = 0;
        for (std::uint64_t at = i; at + gram <= i + spanA; ++at) {
            if (found && at - i >= best)
                break; // every later anchor skips more of A alone
            const std::uint64_t h = gramHash(&m_a[at], gram);
            auto it = std::lower_bound(m_grams.begin(), m_grams.end(),
                                       std::pair<std::uint64_t, std::uint64_t>{h, 0});
            for (; it != m_grams.end() && it->first == h; ++it) {
                if (!std::equal(&m_a[at], &m_a[at] + gram, &m_b[it->second]))
                    continue;
                const std::uint64_t cost = (at - i) + (it->second - j);
                if (!found || cost < best) {
                    found = true;
                    best = cost;
                    p = at;
                    q = it->second;
                }
                break; // the grams are sorted by position: the first that agrees is the nearest
            }
        }
        return found;
    }

    void fallback(std::uint64_t& i, std::uint64_t& j)
    {
        const std::uint64_t restA = m_a.size() - i;
        const std::uint64_t restB = m_b.size() - j;
        const std::size_t gram = static_cast<std::size_t>(
            std::min<std::uint64_t>({m_options.resyncMatches, restA, restB}));
        std::uint64_t spanA = 0;
        std::uint64_t spanB = 0;
        for (std::uint64_t window = m_options.window;; window *= 2) {
            spanA = std::min(window, restA);
            spanB = std::min(window, restB);
            std::uint64_t p = 0;
            std::uint64_t q = 0;
            if (findAnchor(i, j, spanA, spanB, gram, p, q)) {
                for (; i < p && !m_stopped; ++i)
                    onlyA(i);
                for (; j < q && !m_stopped; ++j)
                    onlyB(j);
                return;
            }
            if ((spanA == restA && spanB == restB) || window >= m_options.maxWindow)
                break;
        }
        // Nothing agrees within reach: both windows are unmatched, and the walk goes on after.
        m_grams = {};
        for (const std::uint64_t end = i + spanA; i < end && !m_stopped; ++i)
            onlyA(i);
        for (const std::uint64_t end = j + spanB; j < end && !m_stopped; ++j)
            onlyB(j);
    }

    Tokens m_a;
    Tokens m_b;
    AlignmentVisitor& m_visitor;
    AlignOptions m_options;
    AlignStats m_stats;
    bool m_stopped = false;
    std::vector<Cell> m_cells;
    std::vector<PathStep> m_path;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_grams;
};

} // namespace

AlignStats alignSequences(Tokens a, Tokens b, AlignmentVisitor& visitor,
                          const AlignOptions& options)
{
    return Walker(a, b, visitor, options).run();
}

} // namespace nanscope::core
