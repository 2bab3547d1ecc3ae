// SPDX-License-Identifier: GPL-3.0-or-later
// The alignment of two runs' op sequences (core/sequencealign.hpp): extra, missing and changed
// ops cost what they are, large differences go through the fallback, every index is visited
// once and in order, and a million events stay linear.
#include "nanscope/core/sequencealign.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

using namespace nanscope::core;

namespace {

using Tokens = std::vector<std::uint32_t>;

// Records the walk and checks that each run's indices come once each, in order.
class Recorder final : public AlignmentVisitor
{
public:
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
    std::vector<std::uint64_t> onlyA;
    std::vector<std::uint64_t> onlyB;
    std::uint64_t nextA = 0;
    std::uint64_t nextB = 0;
    bool ordered = true;
    std::uint64_t stopAfter = UINT64_MAX;

    bool matched(std::uint64_t a, std::uint64_t b) override
    {
        ordered = ordered && a == nextA++ && b == nextB++;
        pairs.emplace_back(a, b);
        return --stopAfter > 0;
    }
    bool onlyInA(std::uint64_t a) override
    {
        ordered = ordered && a == nextA++;
        onlyA.push_back(a);
        return --stopAfter > 0;
    }
    bool onlyInB(std::uint64_t b) override
    {
        ordered = ordered && b == nextB++;
        onlyB.push_back(b);
        return --stopAfter > 0;
    }
};

// A training loop's ops: `steps` repetitions of tokens 1..perStep.
Tokens loop(int steps, std::uint32_t perStep)
{
    Tokens t;
    for (int s = 0; s < steps; ++s)
        for (std::uint32_t k = 1; k <= perStep; ++k)
            t.push_back(k);
    return t;
}

} // namespace

TEST_CASE("identical sequences align one to one", "[align]")
{
    const Tokens a = loop(5, 12);
    Recorder r;
    const AlignStats stats = alignSequences(a, a, r);
    CHECK(stats.matched == a.size());
    CHECK(stats.onlyA == 0);
    CHECK(stats.onlyB == 0);
    CHECK(stats.localDiffs == 0);
    CHECK(r.ordered);
    for (const auto& [i, j] : r.pairs)
        CHECK(i == j);
}

TEST_CASE("an extra op in one run is unmatched and the rest aligns around it", "[align]")
{
    const Tokens a = loop(4, 10);
    Tokens b = a;
    b.insert(b.begin() + 15, 99); // step 1 has an extra op before its sixth
    Recorder r;
    const AlignStats stats = alignSequences(a, b, r);
    CHECK(stats.matched == a.size());
    CHECK(stats.onlyA == 0);
    REQUIRE(r.onlyB == std::vector<std::uint64_t>{15});
    CHECK(r.ordered);
    for (const auto& [i, j] : r.pairs)
        CHECK(j == (i < 15 ? i : i + 1));

    Recorder reversed; // the same op missing from the other run
    const AlignStats back = alignSequences(b, a, reversed);
    CHECK(back.matched == a.size());
    CHECK(reversed.onlyA == std::vector<std::uint64_t>{15});
    CHECK(reversed.onlyB.empty());
}

TEST_CASE("extra ops at every step, at the ends, and one op replaced by another", "[align]")
{
    // Run B clips before each step's fifth op (three ops more per step, as the demo's --fix),
    // starts with an op of its own, and has one op of another type.
    const Tokens a = loop(20, 8);
    Tokens b = {50};
    for (int s = 0; s < 20; ++s)
        for (std::uint32_t k = 1; k <= 8; ++k) {
            if (k == 5)
                b.insert(b.end(), {60, 61, 62});
            b.push_back(s == 7 && k == 2 ? 70 : k);
        }
    b.push_back(80);
    Recorder r;
    const AlignStats stats = alignSequences(a, b, r);
    CHECK(r.ordered);
    CHECK(stats.matched == a.size() - 1);
    CHECK(stats.onlyA == 1); // the replaced op
    CHECK(stats.onlyB == 1 + 20 * 3 + 1 + 1);
    CHECK(stats.fallbacks == 0);
    CHECK(r.nextA == a.size());
    CHECK(r.nextB == b.size());
    for (const auto& [i, j] : r.pairs)
        CHECK(a[i] == b[j]);
    CHECK(r.onlyA == std::vector<std::uint64_t>{7 * 8 + 1});
}

TEST_CASE("a block of extra ops larger than the local diff goes through the fallback", "[align]")
{
    const Tokens a = loop(50, 9);
    Tokens b(a.begin(), a.begin() + 100);
    for (std::uint32_t k = 0; k < 5000; ++k)
        b.push_back(1000 + k % 37); // an evaluation loop that run A did not have
    b.insert(b.end(), a.begin() + 100, a.end());
    Recorder r;
    const AlignStats stats = alignSequences(a, b, r);
    CHECK(stats.fallbacks >= 1);
    CHECK(stats.matched == a.size());
    CHECK(stats.onlyB == 5000);
    CHECK(stats.onlyA == 0);
    CHECK(r.ordered);
    CHECK(r.pairs.back() ==
          std::make_pair<std::uint64_t, std::uint64_t>(a.size() - 1, b.size() - 1));
}

TEST_CASE("runs of different programs visit every event once and match little", "[align]")
{
    std::mt19937 random(7);
    Tokens a(20000);
    Tokens b(30000);
    for (auto& t : a)
        t = random() % 1000;
    for (auto& t : b)
        t = 1000 + random() % 1000; // no token in common
    Recorder r;
    const AlignStats stats = alignSequences(a, b, r, {.window = 256, .maxWindow = 1024});
    CHECK(stats.matched == 0);
    CHECK(stats.onlyA == a.size());
    CHECK(stats.onlyB == b.size());
    CHECK(r.ordered);
}

TEST_CASE("a visit that returns false stops the walk", "[align]")
{
    const Tokens a = loop(10, 10);
    Recorder r;
    r.stopAfter = 25;
    const AlignStats stats = alignSequences(a, a, r);
    CHECK(stats.matched == 25);
    CHECK(r.pairs.size() == 25);
}

TEST_CASE("empty sequences and degenerate options", "[align]")
{
    const Tokens a = loop(2, 5);
    Recorder r;
    CHECK(alignSequences(a, Tokens{}, r).onlyA == a.size());
    Recorder s;
    // Zero matches to resync and no local edits still end, through the fallback alone.
    const AlignStats stats = alignSequences(a, Tokens{3, 1, 2, 3, 4, 5}, s,
                                            {.maxLocalEdits = 0, .resyncMatches = 0, .window = 0});
    CHECK(s.ordered);
    CHECK(s.nextA == a.size());
    CHECK(s.nextB == 6);
    CHECK(stats.matched >= 5);
}

TEST_CASE("a million events with a difference at every step align in linear time", "[align]")
{
    const Tokens a = loop(50000, 20); // 10^6 events
    Tokens b;
    b.reserve(a.size() + 100000);
    for (int s = 0; s < 50000; ++s)
        for (std::uint32_t k = 1; k <= 20; ++k) {
            if (k == 11)
                b.insert(b.end(), {90, 91}); // two extra ops per step
            b.push_back(k);
        }
    struct Counter final : AlignmentVisitor
    {
        std::uint64_t visits = 0;
        bool matched(std::uint64_t, std::uint64_t) override { return ++visits > 0; }
        bool onlyInA(std::uint64_t) override { return ++visits > 0; }
        bool onlyInB(std::uint64_t) override { return ++visits > 0; }
    } counter;
    const AlignStats stats = alignSequences(a, b, counter);
    CHECK(stats.matched == a.size());
    CHECK(stats.onlyB == 100000);
    CHECK(stats.localDiffs == 50000);
    CHECK(counter.visits == a.size() + 100000);
}
