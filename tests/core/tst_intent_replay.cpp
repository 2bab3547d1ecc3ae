// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's count (intentwalk.hpp) replays the steps the first walk logged, and walks
// every event again only where the log outgrew its budget: both must give the same origin and the
// same propagation, on random programs that mix graph traces, eager ops, masks, constants,
// uninitialised memory, loss scaling, function calls and the user's patterns.
#include "intentwalk.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "originanalysis.hpp"
#include "randomprogram.hpp"
#include "sameanalysis.hpp"

#include <catch2/catch.hpp>
using namespace nanscope;
using namespace nanscope::core;

TEST_CASE("the count replaying the walk's log gives what a second walk gives", "[intent]")
{
    int origins = 0;
    int setAside = 0;
    int propagated = 0;
    for (unsigned seed = 1; seed <= 120; ++seed) {
        INFO("seed " << seed);
        test::TempDir dir;
        test::RandomProgram(seed, dir.path()).addEvents();
        LogdirReader reader(dir.path());
        const auto snapshot = reader.update();
        const auto patterns = test::randomPatterns(seed);

        IntentWalk walk(snapshot->data(), patterns);
        walk.run();
        REQUIRE(walk.logged());
        IntentWalk unlogged(snapshot->data(), patterns, 0);
        unlogged.run();
        REQUIRE_FALSE(unlogged.logged());

        const NonFiniteAnalysis replayed = analyseNonFinite(*snapshot, patterns);
        test::requireSameAnalysis(replayed, analyseNonFinite(*snapshot, patterns, 0));
        // A log dropped halfway through the walk.
        test::requireSameAnalysis(
            replayed, analyseNonFinite(*snapshot, patterns, 30 * sizeof(std::uint64_t)));
        origins += replayed.origin ? 1 : 0;
        setAside += replayed.propagation.setAside.empty() ? 0 : 1;
        propagated += replayed.propagation.propagators > 0 ? 1 : 0;
    }
    // The programs exercise what they are for.
    CHECK(origins > 30);
    CHECK(setAside > 30);
    CHECK(propagated > 30);
}
