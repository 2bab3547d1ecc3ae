// SPDX-License-Identifier: GPL-3.0-or-later
// The scans of the whole index that panels run off the GUI thread: the alerts by kind (the
// Alerts panel's badges) and the user's lines that made non-finite values (the Source panel's
// marks).
#include "logdirbuilder.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/core/alertcounts.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/nonfinitelines.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;

TEST_CASE("alerts are counted by kind, the set-aside ones apart", "[panelqueries]")
{
    SECTION("nothing set aside")
    {
        // The small logdir: Log's trace holds −∞, Mul's NaN, the call's execution NaN.
        test::TempDir dir;
        test::writeSmallLogdir(dir.path());
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        REQUIRE(s->alertCount() == 3);
        const AlertKindCounts counts = countAlertKinds(*s, s->propagation());
        CHECK(counts.counted == 3);
        CHECK(counts.setAside == 0);
        CHECK(counts.nan == 2);
        CHECK(counts.negInf == 1);
        CHECK(counts.posInf == 0);
        CHECK(counts.kindsKnown);
        for (std::uint64_t k = 0; k < s->alertCount(); ++k)
            CHECK_FALSE(alertSetAside(*s, s->propagation(), k));
    }
    SECTION("an attention mask's −∞ is set aside and not counted")
    {
        test::TempDir dir;
        test::writeMaskedAttentionLogdir(dir.path());
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        REQUIRE(s->alertCount() == 3);
        const Propagation& p = s->propagation();
        const AlertKindCounts counts = countAlertKinds(*s, p);
        CHECK(counts.setAside == 1);
        CHECK(counts.counted == 2); // the log's and the mean's
        CHECK(counts.negInf == 2);
        CHECK(counts.nan == 0);
        CHECK(counts.setAside + counts.counted == s->alertCount());
        std::uint64_t setAside = 0;
        for (std::uint64_t k = 0; k < s->alertCount(); ++k)
            if (alertSetAside(*s, p, k)) {
                ++setAside;
                CHECK(s->alert(k).event ==
                      EventRef{EventSource::Eager, test::MaskedExecution::MaskedFill});
            }
        CHECK(setAside == 1);
    }
    SECTION("no alerts")
    {
        test::TempDir dir;
        test::runWithOneOp(dir.path());
        LogdirReader reader(dir.path());
        const auto s = reader.update();
        CHECK(countAlertKinds(*s, s->propagation()) == AlertKindCounts{});
    }
}

TEST_CASE("the user's lines whose ops made non-finite traces", "[panelqueries]")
{
    // The small logdir's Log (line 3) and Mul (line 4) are non-finite; x and y (line 2) not.
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    LogdirReader reader(dir.path());
    const auto s = reader.update();
    const StackFolding folding;
    const SourceLines lines = nonFiniteUserLines(*s, folding);
    CHECK(lines == SourceLines{{0, {3, 4}}});

    SECTION("an op without a stack marks nothing")
    {
        test::TempDir bare;
        const test::FileSetWriter set = test::emptyRun(bare.path());
        set.append("graphs", test::events::graph("g", "loss"));
        set.append("graphs", test::events::op("g", "Log", "Log", {}, {1}));
        set.append("graph_execution_traces",
                   test::events::trace(10.0, "g", "Log", 0, 4,
                                       test::events::fullHealth(1, 4, 0, 0, 1, 0, 0, 3)));
        LogdirReader bareReader(bare.path());
        const auto b = bareReader.update();
        REQUIRE(b->alertCount() == 1);
        CHECK(nonFiniteUserLines(*b, folding).empty());
    }
    SECTION("a stopped scan gives nothing")
    {
        const std::atomic_bool stop{true};
        CHECK(nonFiniteUserLines(*s, folding, &stop).empty());
    }
}
