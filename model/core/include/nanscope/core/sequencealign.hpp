// SPDX-License-Identifier: GPL-3.0-or-later
// Aligns two sequences of tokens (the ops of two runs of one program) in order, tolerant of
// tokens present in one and missing in the other, in linear time and memory.
//
// Equal tokens are matched in lockstep. At a mismatch a local diff (Myers' greedy O(ND)
// algorithm, with D bounded by AlignOptions::maxLocalEdits) looks for the fewest insertions and
// deletions that lead to AlignOptions::resyncMatches equal tokens in a row (or to both ends):
// one run's extra ops, or another op in its place, cost a handful of edits. A whole-run diff
// would cost O(ND) time for runs that differ at every step (N = 10^6 events, D = 10^5 edits);
// the local one costs O(D_local^2 * resyncMatches) per difference and never looks back.
//
// When no such path exists within the bound (a block of thousands of extra events, or runs of
// different programs), a cheap fallback finds the nearest point where resyncMatches tokens agree
// by hashing the next `window` token groups of one run and scanning the other's, doubling the
// window up to AlignOptions::maxWindow; when even that finds nothing, both windows are skipped
// as unmatched. Each fallback costs about as much as it skips, so the whole is linear.
#pragma once

#include <cstdint>
#include <span>

namespace nanscope::core {

struct AlignOptions
{
    // Edits (tokens skipped in either run) one local diff may use before the fallback (at most
    // 1024: its memory grows with the square).
    std::uint32_t maxLocalEdits = 32;
    // Equal tokens in a row that count as back in step: fewer would let an op that repeats
    // (a MatMul, an Identity) pair with the wrong occurrence.
    std::uint32_t resyncMatches = 8;
    // The fallback's first and largest reach into each run, in tokens (at most 2^22). Its memory
    // is 16 bytes per token of the window.
    std::uint32_t window = 4096;
    std::uint32_t maxWindow = std::uint32_t{1} << 18;
};

// What the alignment found, for the counts of a comparison.
struct AlignStats
{
    std::uint64_t matched = 0;
    std::uint64_t onlyA = 0;
    std::uint64_t onlyB = 0;
    std::uint64_t localDiffs = 0; // mismatches resolved by the local diff
    std::uint64_t fallbacks = 0;  // by the windowed search (or skipped)
};

// Receives the alignment in order: each run's indices increase, and every index of each run is
// visited exactly once (unless a visit returns false, which stops the walk).
class AlignmentVisitor
{
public:
    virtual ~AlignmentVisitor() = default;
    virtual bool matched(std::uint64_t a, std::uint64_t b) = 0;
    virtual bool onlyInA(std::uint64_t a) = 0;
    virtual bool onlyInB(std::uint64_t b) = 0;
};

// Walks the alignment of `a` and `b`; returns its counts (up to where a visit stopped it).
AlignStats alignSequences(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                          AlignmentVisitor& visitor, const AlignOptions& options = {});

} // namespace nanscope::core
