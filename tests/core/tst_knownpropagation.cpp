// SPDX-License-Identifier: GPL-3.0-or-later
// A propagation extended step by step, as the snapshots of a followed logdir extend it: each
// step's hop counts follow the ones before, from a saved index's encoded ones or an analysis's
// whole ones, decoded on first use from any thread; a whole one lends its array to the next step,
// and a decoded one lets go of the parts it was decoded from.
#include "knownpropagation.hpp"
#include "savedpropagation.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <thread>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;

namespace {

using Hops = std::vector<std::uint16_t>;

Hops randomHops(std::mt19937& random, std::size_t n)
{
    const std::uint16_t values[] = {
        Propagation::kFinite,   Propagation::kFinite,       Propagation::kFinite, 0, 1, 7,
        Propagation::kIntended, Propagation::kUninitialised};
    Hops hops(n);
    for (auto& h : hops)
        h = values[random() % std::size(values)];
    return hops;
}

// A resumed analysis's count: every count, and the hop counts of the new events alone.
Propagation step(std::mt19937& random, std::size_t traces, std::size_t executions,
                 std::uint64_t producers)
{
    Propagation p;
    p.traceHops = randomHops(random, traces);
    p.executionHops = randomHops(random, executions);
    p.producers = producers;
    return p;
}

void append(Hops& to, const Hops& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

} // namespace

TEST_CASE("a propagation extended step by step holds every step's hop counts in order",
          "[indexcache][intent]")
{
    for (const bool saved : {false, true}) {
        for (unsigned seed = 1; seed <= 20; ++seed) {
            INFO("saved " << saved << ", seed " << seed);
            std::mt19937 random(seed);
            Propagation first = step(random, 1000 + random() % 500, random() % 50, 1);
            Hops traces = first.traceHops;
            Hops executions = first.executionHops;
            auto known = saved ? test::savedPropagation(first)
                               : std::make_shared<const KnownPropagation>(std::move(first));
            for (std::uint64_t k = 2; k < 8; ++k) {
                const Propagation counted = step(random, random() % 300, random() % 5, k);
                append(traces, counted.traceHops);
                append(executions, counted.executionHops);
                // Some steps are decoded before the next extends them, as a shown snapshot is.
                if (random() % 2)
                    std::thread([&] { known->get(); }).join();
                known = std::make_shared<const KnownPropagation>(known, counted);
                CHECK(known->traceEvents() == traces.size());
                CHECK(known->executionEvents() == executions.size());
                CHECK(known->counts().producers == k);
            }
            const Propagation& p = known->get();
            CHECK(p.traceHops == traces);
            CHECK(p.executionHops == executions);
            CHECK(p.producers == 7);
            CHECK(&known->get() == &p);
        }
    }
}

TEST_CASE("a followed propagation keeps the hop counts of the steps in use, not of every step",
          "[indexcache][intent]")
{
    std::mt19937 random(3);
    Propagation whole = step(random, 10'000, 10, 1);
    const Hops first = whole.traceHops;
    auto a = std::make_shared<const KnownPropagation>(std::move(whole));
    const std::weak_ptr<const KnownPropagation> aGone = a;
    // The next step lends `a`'s array: no copy, `a` kept alive while the step needs it.
    auto b = std::make_shared<const KnownPropagation>(a, step(random, 100, 1, 2));
    a.reset();
    REQUIRE_FALSE(aGone.expired());
    // Decoded (the next snapshot shown), `b` holds its own and lets `a` go.
    const Propagation& bp = b->get();
    CHECK(aGone.expired());
    CHECK(std::equal(first.begin(), first.end(), bp.traceHops.begin()));
    // The step after lends `b`'s decoded array the same way.
    const std::weak_ptr<const KnownPropagation> bGone = b;
    auto c = std::make_shared<const KnownPropagation>(b, step(random, 100, 1, 3));
    b.reset();
    REQUIRE_FALSE(bGone.expired());
    CHECK(c->get().traceHops.size() == 10'200);
    CHECK(bGone.expired());
}
