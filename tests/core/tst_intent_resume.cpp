// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis's walk goes on from a saved state over what was appended (intentwalkstate.hpp):
// the answer is the one a walk from the beginning gives; a state that no longer fits the logdir
// (events appended out of order, other patterns, new ops, a new loss scale, a forged id) is
// refused and the walk starts from the beginning; and a reopened saved index brings its walk.
#include "indexstate.hpp"
#include "intentwalk.hpp"
#include "intentwalkstate.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "originanalysis.hpp"
#include "randomprogram.hpp"
#include "sameanalysis.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using intentwalk::Step;
using intentwalk::WalkState;
namespace ev = test::events;

namespace {

std::shared_ptr<const Snapshot> read(const std::filesystem::path& dir)
{
    return LogdirReader(dir).update();
}

WalkState walked(const Snapshot& s, const std::vector<ExpectedPattern>& patterns = {})
{
    IntentWalk walk(s.data(), patterns);
    walk.run();
    auto state = walk.state();
    REQUIRE(state);
    return *state;
}

// The analysis of `s` going on from `state`; fails the test when the state is refused.
NonFiniteAnalysis resumed(const Snapshot& s, const WalkState& state,
                          const std::vector<ExpectedPattern>& patterns = {})
{
    IntentWalk probe(s.data(), patterns);
    REQUIRE(probe.resume(state));
    return analyseNonFinite(s, patterns, IntentWalk::kDefaultLogBudgetBytes, &state);
}

bool refused(const Snapshot& s, const WalkState& state,
             const std::vector<ExpectedPattern>& patterns = {})
{
    IntentWalk walk(s.data(), patterns);
    return !walk.resume(state);
}

} // namespace

TEST_CASE("a walk that goes on over appended events answers as one from the beginning", "[intent]")
{
    int origins = 0;
    int resumes = 0;
    for (unsigned seed = 1; seed <= 80; ++seed) {
        INFO("seed " << seed);
        test::TempDir dir;
        test::RandomProgram program(seed, dir.path());
        program.addEvents();
        const WalkState state = walked(*read(dir.path()));
        program.addEvents();
        const auto grown = read(dir.path());
        // Refused only where an update appended names as a scale what a multiplication walked
        // read; the answer is the same either way.
        const std::vector<ExpectedPattern> none; // the walk keeps a reference
        IntentWalk walk(grown->data(), none);
        const bool resumable = walk.resume(state);
        resumes += resumable ? 1 : 0;
        const NonFiniteAnalysis fromState =
            analyseNonFinite(*grown, {}, IntentWalk::kDefaultLogBudgetBytes, &state);
        test::requireSameAnalysis(fromState, analyseNonFinite(*grown, {}));
        origins += fromState.origin ? 1 : 0;
        // Going on from there again: the state after the resumed walk is whole.
        walk.run();
        program.addEvents();
        const auto again = read(dir.path());
        const auto next = walk.state();
        REQUIRE(next);
        test::requireSameAnalysis(
            analyseNonFinite(*again, {}, IntentWalk::kDefaultLogBudgetBytes, &*next),
            analyseNonFinite(*again, {}));
    }
    CHECK(origins > 20);
    CHECK(resumes > 50);
}

TEST_CASE("a walk's state that no longer fits the logdir is refused", "[intent]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "f"));
    set.append("graphs", ev::op("g", "Log", "log", {}, {1}));
    const auto trace = [&](double wallTime, double nan) {
        set.append(
            "graph_execution_traces",
            ev::trace(wallTime, "g", "log", 0, 4, ev::fullHealth(1, 4, 0, 0, nan, 0, 0, 4 - nan)));
    };
    const auto execution = [&](double wallTime, const std::string& type, std::int64_t in,
                               std::int64_t out) {
        set.append("execution", ev::execution(wallTime, type, {in}, {out}, 4,
                                              {ev::fullHealth(double(out), 4, 0, 0, 1, 0, 0, 3)}));
    };
    trace(1, 0);
    execution(2, "aten::log", 1, 2);
    trace(3, 1);
    execution(3.5, "aten::mul", 2, 5);
    const auto before = read(dir.path());
    const WalkState state = walked(*before);

    SECTION("what it walked, as it is")
    {
        CHECK_FALSE(refused(*before, state));
    }
    SECTION("events appended after it")
    {
        trace(4, 1);
        execution(5, "aten::exp", 2, 3);
        CHECK_FALSE(refused(*read(dir.path()), state));
    }
    SECTION("a trace appended with a time before an execution it walked")
    {
        trace(3.2, 1); // merged by time, it comes before the multiplication at 3.5
        CHECK(refused(*read(dir.path()), state));
    }
    SECTION("other expected patterns")
    {
        const auto pattern = *ExpectedPattern::parse("Log:nan", nullptr);
        CHECK(refused(*before, state, {pattern}));
    }
    SECTION("an op declared since")
    {
        set.append("graphs", ev::op("g", "Exp", "exp", {"log"}, {2}));
        CHECK(refused(*read(dir.path()), state));
    }
    SECTION("a loss scale named only now, which a multiplication walked read")
    {
        execution(4, "aten::_amp_update_scale_", 2, 3);
        CHECK(refused(*read(dir.path()), state));
    }
    SECTION("a loss scale named only now, which nothing walked multiplied by")
    {
        execution(4, "aten::_amp_update_scale_", 5, 3);
        CHECK_FALSE(refused(*read(dir.path()), state));
    }
    SECTION("a forged id")
    {
        WalkState forged = state;
        REQUIRE_FALSE(forged.steps.empty());
        SECTION("a step's group")
        {
            forged.steps.back().group = 1000;
        }
        SECTION("a step's event")
        {
            forged.steps.front().event.index = 1000;
        }
        SECTION("a label's step")
        {
            REQUIRE_FALSE(forged.traceLabels.empty());
            forged.traceLabels.front().second.step = 1000;
        }
        SECTION("a latest trace")
        {
            forged.latest.front() = 1000;
        }
        SECTION("more events than the logdir holds")
        {
            forged.traces = 1000;
        }
        SECTION("a carried value from a later step")
        {
            Step carry;
            carry.kind = Step::Kind::Carry;
            carry.event = {EventSource::Graph, 0};
            carry.begin = static_cast<std::uint32_t>(forged.carried.size());
            carry.count = 1;
            forged.carried.push_back(static_cast<std::uint32_t>(forged.steps.size()));
            forged.steps.push_back(carry);
        }
        CHECK(refused(*before, forged));
    }
}

TEST_CASE("a walk's state survives saving and reading back", "[intent][indexcache]")
{
    test::TempDir dir;
    test::RandomProgram program(7, dir.path());
    program.addEvents(300);
    const WalkState state = walked(*read(dir.path()));
    ArchiveWriter w;
    intentwalk::putWalkState(w, state);
    const auto bytes = std::as_bytes(std::span(w.bytes()));
    ArchiveReader r(bytes);
    const WalkState back = intentwalk::getWalkState(r);
    REQUIRE(r.ok());
    REQUIRE(r.atEnd());
    program.addEvents(100);
    const auto grown = read(dir.path());
    test::requireSameAnalysis(resumed(*grown, back), analyseNonFinite(*grown, {}));
    // Cut anywhere, the bytes are refused, never read past.
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 97) {
        ArchiveReader part(bytes.first(cut));
        (void)intentwalk::getWalkState(part);
        CHECK_FALSE(part.ok());
    }
}

TEST_CASE("a saved index reopened after an append brings its analysis's walk along", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir cache;
    ReaderOptions options;
    options.indexCache.directory = cache.path();
    options.indexCache.minLogdirBytes = 0;
    test::RandomProgram program(11, dir.path());
    program.addEvents(200);
    {
        LogdirReader first(dir.path(), options);
        first.update()->origin();
        REQUIRE(first.saveIndex());
    }
    program.addEvents(50);
    LogdirReader reopened(dir.path(), options);
    const auto s = reopened.update();
    REQUIRE(reopened.indexCacheStatus() == "used");
    REQUIRE(s->data().savedWalk);
    CHECK(s->data().savedWalk->traces + s->data().savedWalk->executions > 0);
    const auto fresh = read(dir.path());
    REQUIRE(fresh->traceCount() == s->traceCount());
    test::requireSameAnalysis({s->origin(), s->propagation(), nullptr},
                              analyseNonFinite(*fresh, {}));
}
