// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis goes on from a saved walk (intentwalkstate.hpp) over what was appended: the answer
// is the one an analysis from the beginning gives, counted only over the appended events when
// they leave every earlier verdict as it was, and worked out from the beginning when they change
// one. A state that no longer fits the logdir (events appended out of order, other patterns, new
// ops, a new loss scale, a forged id) is refused; a reopened saved index brings its walk along,
// one saved without a walk answers as saved, and a followed reader's snapshots go on from the last
// analysed one.
#include "indexcacheformat.hpp"
#include "indexstate.hpp"
#include "intentwalk.hpp"
#include "intentwalkstate.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/crc32c.hpp"
#include "originanalysis.hpp"
#include "randomprogram.hpp"
#include "sameanalysis.hpp"
#include "savedpropagation.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>

using namespace nanscope;
using namespace nanscope::core;
using intentwalk::WalkState;
namespace ev = test::events;

namespace {

std::shared_ptr<const Snapshot> read(const std::filesystem::path& dir)
{
    return LogdirReader(dir).update();
}

// An analysis from the beginning, with its walk and its propagation as a saved index brings them.
struct Saved
{
    NonFiniteAnalysis analysis;
    WalkState walk;
    std::shared_ptr<const KnownPropagation> propagation;
};

Saved saved(const NonFiniteAnalysis& a)
{
    REQUIRE(a.walk);
    return {a, *a.walk, test::savedPropagation(a.result())};
}

Saved analysed(const Snapshot& s, const std::vector<ExpectedPattern>& patterns = {})
{
    AnalysisOptions options;
    options.keepWalk = true;
    return saved(analyseNonFinite(s, patterns, options));
}

// The analysis of `s` going on from `prior`.
NonFiniteAnalysis goneOn(const Snapshot& s, const Saved& prior,
                         const std::vector<ExpectedPattern>& patterns = {})
{
    intentwalk::WalkState walk = prior.walk; // taken up by the analysis
    const PriorAnalysis p{&prior.analysis.origin, prior.propagation, &walk};
    AnalysisOptions options;
    options.prior = &p;
    options.keepWalk = true;
    return analyseNonFinite(s, patterns, options);
}

// A reader's options that save its index in `cache` whatever the logdir's size, and so keep the
// analysis's walk.
ReaderOptions savingIn(const std::filesystem::path& cache)
{
    ReaderOptions options;
    options.indexCache.directory = cache;
    options.indexCache.minLogdirBytes = 0;
    return options;
}

bool refused(const Snapshot& s, const WalkState& state,
             const std::vector<ExpectedPattern>& patterns = {})
{
    IntentWalk walk(s.data(), patterns);
    return !walk.resume(state);
}

} // namespace

TEST_CASE("an analysis that goes on over appended events answers as one from the beginning",
          "[intent]")
{
    int origins = 0;
    int counted = 0; // only the appended events were counted
    int again = 0;
    for (unsigned seed = 1; seed <= 100; ++seed) {
        INFO("seed " << seed);
        test::TempDir dir;
        test::RandomProgram program(seed, dir.path());
        const auto patterns = test::randomPatterns(seed);
        program.addEvents();
        const Saved first = analysed(*read(dir.path()), patterns);
        program.addEvents();
        const auto grown = read(dir.path());
        const NonFiniteAnalysis resumed = goneOn(*grown, first, patterns);
        test::requireSameAnalysis(resumed, analyseNonFinite(*grown, patterns));
        origins += resumed.origin ? 1 : 0;
        counted += resumed.extended ? 1 : 0;
        // And on again, from the walk the resumed analysis kept (or the one worked out anew).
        program.addEvents();
        const auto next = read(dir.path());
        const NonFiniteAnalysis twice = goneOn(*next, saved(resumed), patterns);
        test::requireSameAnalysis(twice, analyseNonFinite(*next, patterns));
        again += resumed.extended && twice.extended ? 1 : 0;
    }
    // The programs exercise both ways.
    CHECK(origins > 20);
    CHECK(counted > 15);
    CHECK(counted < 100);
    CHECK(again > 3);
}

TEST_CASE("appended events that change an earlier verdict make the analysis start over", "[intent]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "f"));
    set.append("graphs", ev::op("g", "Log", "log", {}, {1}));
    set.append("graphs", ev::op("g", "Exp", "exp", {"log"}, {2}));
    set.append("graphs", ev::op("g", "Neg", "neg", {"log"}, {3}));
    const auto trace = [&](double wallTime, const char* op, double negInf, double posInf) {
        set.append("graph_execution_traces",
                   ev::trace(wallTime, "g", op, 0, 4,
                             ev::fullHealth(1, 4, negInf, posInf, 0, 0, 0, 4 - negInf - posInf)));
    };
    trace(1, "log", 1, 0); // -inf that nothing read yet: counted, the origin
    const Saved first = analysed(*read(dir.path()));
    REQUIRE(first.analysis.origin);
    CHECK(first.analysis.origin->opName == "log");

    SECTION("carried on: the verdict holds, only the new event is counted")
    {
        trace(2, "neg", 0, 1);
        const auto grown = read(dir.path());
        const NonFiniteAnalysis a = goneOn(*grown, first);
        CHECK(a.extended);
        test::requireSameAnalysis(a, analyseNonFinite(*grown, {}));
        CHECK(a.result().hops({EventSource::Graph, 1}) == 1);
    }
    SECTION("made finite by a reader: absorbed after all, and worked out from the beginning")
    {
        trace(2, "exp", 0, 0);
        const auto grown = read(dir.path());
        const NonFiniteAnalysis a = goneOn(*grown, first);
        CHECK_FALSE(a.extended);
        CHECK_FALSE(a.origin);
        test::requireSameAnalysis(a, analyseNonFinite(*grown, {}));
    }
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
    const WalkState state = analysed(*before).walk;

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
        REQUIRE_FALSE(forged.groups.empty());
        SECTION("a group's event")
        {
            forged.groups.front().root.index = 1000;
        }
        SECTION("a label's group")
        {
            REQUIRE_FALSE(forged.traceLabels.empty());
            forged.traceLabels.front().second.group = 1000;
        }
        SECTION("a label's hop")
        {
            REQUIRE_FALSE(forged.traceLabels.empty());
            forged.traceLabels.front().second.hop = Propagation::kFinite;
        }
        SECTION("a latest trace")
        {
            forged.latest.front() = 1000;
        }
        SECTION("a tensor's producer")
        {
            REQUIRE_FALSE(forged.tensors.empty());
            forged.tensors.front().second.source.execution = 1000;
        }
        SECTION("more events than the logdir holds")
        {
            forged.traces = 1000;
        }
        SECTION("a verdict short")
        {
            forged.verdicts.pop_back();
        }
        CHECK(refused(*before, forged));
    }
}

TEST_CASE("a walk's state survives saving and reading back, and cut bytes are refused",
          "[intent][indexcache]")
{
    test::TempDir dir;
    test::RandomProgram program(7, dir.path());
    program.addEvents(300);
    const Saved first = analysed(*read(dir.path()));
    ArchiveWriter w;
    intentwalk::putWalkState(w, first.walk);
    const auto bytes = std::as_bytes(std::span(w.bytes()));
    const auto back = intentwalk::SavedWalkState(bytes, nullptr).take();
    REQUIRE(back);
    program.addEvents(100);
    const auto grown = read(dir.path());
    const Saved restored{first.analysis, *back, first.propagation};
    test::requireSameAnalysis(goneOn(*grown, restored), analyseNonFinite(*grown, {}));
    // Cut anywhere, the bytes are refused, never read past.
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 97)
        CHECK_FALSE(intentwalk::SavedWalkState(bytes.first(cut), nullptr).take());
    // A byte changed anywhere: refused, or a state that fits, which may mislead but never reads
    // out of bounds (the sanitizer builds run this): either way one hop count per event.
    std::string changed = w.bytes();
    for (std::size_t at = 0; at < changed.size(); at += 1 + changed.size() / 211) {
        for (const unsigned char flip : {0x01, 0x80, 0xff}) {
            changed[at] = static_cast<char>(changed[at] ^ flip);
            const auto state =
                intentwalk::SavedWalkState(std::as_bytes(std::span(changed)), nullptr).take();
            changed[at] = static_cast<char>(changed[at] ^ flip);
            if (!state)
                continue;
            const Saved forged{first.analysis, *state, first.propagation};
            const NonFiniteAnalysis a = goneOn(*grown, forged);
            CHECK(a.result().traceHops.size() == grown->traceCount());
            CHECK(a.result().executionHops.size() == grown->executionCount());
        }
    }
}

TEST_CASE("a saved index reopened after an append goes on from its analysis's walk",
          "[indexcache][intent]")
{
    test::TempDir dir;
    test::TempDir cache;
    const ReaderOptions options = savingIn(cache.path());
    int counted = 0;
    for (unsigned seed = 11; seed < 21; ++seed) {
        INFO("seed " << seed);
        const auto logdir = dir.path() / std::to_string(seed);
        std::filesystem::create_directories(logdir);
        test::RandomProgram program(seed, logdir);
        program.addEvents(200);
        {
            LogdirReader first(logdir, options);
            first.update()->origin();
            REQUIRE(first.saveIndex());
        }
        // Twice: from the first save, then from the save after the first append.
        for (int round = 0; round < 2; ++round) {
            program.addEvents(50);
            LogdirReader reopened(logdir, options);
            const auto s = reopened.update();
            REQUIRE(reopened.indexCacheStatus() == "used");
            REQUIRE(s->data().prior);
            REQUIRE(s->data().prior->walk);
            const auto fresh = read(logdir);
            REQUIRE(fresh->traceCount() == s->traceCount());
            test::requireSameAnalysis({s->origin(), s->propagation(), nullptr, nullptr},
                                      analyseNonFinite(*fresh, {}));
            counted += s->data().wentOn ? 1 : 0;
            REQUIRE(reopened.saveIndex());
        }
    }
    CHECK(counted > 5);
}

TEST_CASE("a followed logdir is analysed from where the last analysed snapshot stopped",
          "[indexcache][intent]")
{
    test::TempDir dir;
    test::TempDir cache;
    int wentOn = 0; // snapshots whose analysis counted only what arrived since
    for (unsigned seed = 31; seed < 51; ++seed) {
        INFO("seed " << seed);
        const auto logdir = dir.path() / std::to_string(seed);
        std::filesystem::create_directories(logdir);
        test::RandomProgram program(seed, logdir);
        ReaderOptions options = savingIn(cache.path());
        options.expected = test::randomPatterns(seed);
        LogdirReader reader(logdir, options);
        program.addEvents(100);
        auto analysed = reader.update();
        analysed->origin();
        for (int round = 0; round < 4; ++round) {
            INFO("round " << round);
            program.addEvents();
            const auto s = reader.update();
            const Snapshot::Data& d = s->data();
            // The last analysed snapshot's analysis, not the first's: round 1's snapshot is left
            // unanalysed, so round 2 goes on from round 0's.
            REQUIRE(d.prior);
            CHECK(d.prior->propagation->traceEvents() == analysed->traceCount());
            CHECK(d.prior->propagation->executionEvents() == analysed->executionCount());
            if (round == 1)
                continue;
            ReaderOptions fresh;
            fresh.expected = options.expected;
            const auto whole = LogdirReader(logdir, fresh).update();
            REQUIRE(whole->traceCount() == s->traceCount());
            test::requireSameAnalysis({s->origin(), s->propagation(), nullptr, nullptr},
                                      analyseNonFinite(*whole, options.expected));
            wentOn += d.wentOn ? 1 : 0;
            analysed = s;
        }
        // A torn record at the end, and no new event: the analysis handed on is this one.
        for (const auto& entry : std::filesystem::directory_iterator(logdir))
            if (entry.path().extension() == ".execution")
                std::ofstream(entry.path(), std::ios::app | std::ios::binary).put('\x20');
        const auto torn = reader.update();
        REQUIRE(torn->generation() > analysed->generation());
        REQUIRE(torn->traceCount() == analysed->traceCount());
        REQUIRE(torn->data().known);
        CHECK(torn->data().known->propagation == analysed->data().propagation); // shared, as is
        test::requireSameAnalysis({torn->origin(), torn->propagation(), nullptr, nullptr},
                                  {analysed->origin(), analysed->propagation(), nullptr, nullptr});
    }
    CHECK(wentOn > 10);
}

TEST_CASE("a reader that keeps no walk analyses each snapshot from the beginning", "[intent]")
{
    test::TempDir dir;
    test::RandomProgram program(5, dir.path());
    LogdirReader reader(dir.path());
    program.addEvents(100);
    reader.update()->origin();
    program.addEvents(50);
    const auto s = reader.update();
    CHECK_FALSE(s->data().prior);
    CHECK_FALSE(s->data().known);
    s->origin();
    CHECK_FALSE(s->data().wentOn);
}

namespace {

// Rewrites the saved index in `cache` as one saved before walks were kept: without the walk that
// ends its description (`walk`: the bytes putWalkState wrote), its checksums made good again.
void dropSavedWalk(const std::filesystem::path& cache, const std::string& walk)
{
    for (const auto& entry : std::filesystem::directory_iterator(cache)) {
        std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
        std::string header(indexfile::kHeaderBytes, '\0');
        file.read(header.data(), static_cast<std::streamsize>(header.size()));
        if (!file || header.compare(0, 8, "NaNscIdx") != 0)
            continue;
        std::uint64_t offset = 0;
        std::uint64_t bytes = 0;
        std::memcpy(&offset, header.data() + 16, 8);
        std::memcpy(&bytes, header.data() + 24, 8);
        std::string describe(bytes, '\0');
        file.seekg(static_cast<std::streamoff>(offset));
        file.read(describe.data(), static_cast<std::streamsize>(bytes));
        REQUIRE(file);
        // The walk is the last field: its length, then its bytes.
        REQUIRE(bytes >= walk.size() + 8);
        REQUIRE(describe.compare(bytes - walk.size(), walk.size(), walk) == 0);
        bytes -= walk.size() + 8;
        const std::uint32_t checksum = format::crc32c(describe.data(), bytes);
        std::memcpy(header.data() + 24, &bytes, 8);
        std::memcpy(header.data() + 32, &checksum, 4);
        const std::uint32_t headerChecksum = format::crc32c(header.data(), 36);
        std::memcpy(header.data() + 36, &headerChecksum, 4);
        file.seekp(0);
        file.write(header.data(), static_cast<std::streamsize>(header.size()));
        REQUIRE(file);
        return;
    }
    FAIL("no saved index in " << cache);
}

} // namespace

TEST_CASE("an index saved without a walk answers as saved and goes on from the beginning",
          "[indexcache][intent]")
{
    test::TempDir dir;
    test::TempDir cache;
    const ReaderOptions options = savingIn(cache.path());
    test::RandomProgram program(23, dir.path());
    program.addEvents(200);
    std::string walk;
    {
        LogdirReader first(dir.path(), options);
        const auto s = first.update();
        s->origin();
        REQUIRE(s->data().walk);
        ArchiveWriter w;
        intentwalk::putWalkState(w, *s->data().walk);
        walk = w.bytes();
        REQUIRE(first.saveIndex());
    }
    dropSavedWalk(cache.path(), walk);
    {
        LogdirReader reopened(dir.path(), options);
        const auto s = reopened.update();
        REQUIRE(reopened.indexCacheStatus() == "used");
        REQUIRE(s->data().known); // what it saved, as saved
        CHECK_FALSE(s->data().known->walk);
        test::requireSameAnalysis({s->origin(), s->propagation(), nullptr, nullptr},
                                  analyseNonFinite(*read(dir.path()), {}));
    }
    program.addEvents(50);
    LogdirReader grown(dir.path(), options);
    const auto s = grown.update();
    REQUIRE(grown.indexCacheStatus() == "used");
    CHECK_FALSE(s->data().prior); // nothing to go on from
    test::requireSameAnalysis({s->origin(), s->propagation(), nullptr, nullptr},
                              analyseNonFinite(*read(dir.path()), {}));
    CHECK_FALSE(s->data().wentOn);
}

TEST_CASE("a walk that knows too many tensor ids keeps no state", "[intent]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::emptyRun(dir.path());
    const auto outputs = [](std::int64_t first, std::size_t n) {
        std::vector<std::int64_t> ids(n);
        for (std::size_t k = 0; k < n; ++k)
            ids[k] = first + static_cast<std::int64_t>(k);
        return ids;
    };
    set.append("execution", ev::execution(1, "aten::split", {}, outputs(1, 1000), 1, {}));
    CHECK(analysed(*read(dir.path())).walk.tensors.size() == 1000);
    set.append("execution", ev::execution(2, "aten::split", {},
                                          outputs(2000, intentwalk::kMaxStateTensors), 1, {}));
    const auto many = read(dir.path());
    REQUIRE(many->data().executions.tensorIds.size() > intentwalk::kMaxStateTensors);
    AnalysisOptions options;
    options.keepWalk = true;
    CHECK_FALSE(analyseNonFinite(*many, {}, options).walk);
}
