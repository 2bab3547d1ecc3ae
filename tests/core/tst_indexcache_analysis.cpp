// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis a saved index brings along: the propagation (hop counts, what was set aside, the
// counts) goes with the origin, so that a reopened index answers both without a walk over every
// event; for other expected patterns, or once data was appended, they are worked out again.
#include "indexcacheformat.hpp"
#include "indexstate.hpp"
#include "logdirbuilder.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tempdir.hpp"
#include "tutoriallogdir.hpp"

#include <catch2/catch.hpp>
#include <thread>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;

namespace {

ReaderOptions cachedIn(const fs::path& cache, const std::vector<std::string>& patterns = {})
{
    ReaderOptions options;
    options.indexCache.directory = cache;
    options.indexCache.minLogdirBytes = 0;
    for (const auto& text : patterns)
        options.expected.push_back(*ExpectedPattern::parse(text, nullptr));
    return options;
}

// Everything the propagation holds, as text.
std::string describe(const Propagation& p)
{
    std::string text;
    for (const auto hop : p.traceHops)
        text += 't' + std::to_string(hop);
    for (const auto hop : p.executionHops)
        text += 'e' + std::to_string(hop);
    for (const std::uint64_t n :
         {p.producers, p.entries, p.propagators, p.intendedEvents, p.uninitialisedEvents,
          p.countedAlerts, p.intendedAlerts, p.uninitialisedAlerts})
        text += ' ' + std::to_string(n);
    for (const SetAside& g : p.setAside) {
        text += '\n' + std::string(toString(g.intent)) + ' ' + std::to_string(g.first.index) + ' ' +
                g.opType + ' ' + g.opName + ' ' + g.modulePath + ' ' + g.pattern + ' ' +
                std::to_string(g.kinds) + ' ' + std::to_string(g.producers) + ' ' +
                std::to_string(g.carriers);
        for (const auto& by : g.absorbedBy)
            text += ' ' + by;
    }
    for (const auto& pattern : p.expectedPatterns)
        text += '\n' + pattern.text;
    return text;
}

struct Read
{
    std::string status;
    bool brought = false; // the propagation came with the saved index
    std::string propagation;
};

Read read(const fs::path& dir, const fs::path& cache, const std::vector<std::string>& patterns = {})
{
    LogdirReader reader(dir, cachedIn(cache, patterns));
    const auto s = reader.update();
    Read r{reader.indexCacheStatus(), s->data().known && s->data().known->propagation,
           describe(s->propagation())};
    REQUIRE(reader.saveIndex());
    return r;
}

} // namespace

TEST_CASE("a reopened index brings its propagation along, the same as worked out",
          "[indexcache][intent]")
{
    for (const bool masked : {true, false}) {
        test::TempDir dir;
        test::TempDir cache;
        if (masked)
            test::writeMaskedAttentionLogdir(dir.path()); // a mask set aside, absorbed
        else
            test::TutorialLogdir::write(dir.path()); // graph traces and executions
        const std::string fresh = describe(LogdirReader(dir.path()).update()->propagation());
        const Read first = read(dir.path(), cache.path());
        CHECK(first.status == "none saved");
        CHECK_FALSE(first.brought);
        const Read second = read(dir.path(), cache.path());
        CHECK(second.status == "used");
        CHECK(second.brought);
        CHECK(second.propagation == fresh);
        const bool setAside = second.propagation.find("constant") != std::string::npos;
        CHECK(setAside == masked);
    }
}

TEST_CASE("for other expected patterns, or after an append, the propagation is worked out again",
          "[indexcache][intent]")
{
    test::TempDir dir;
    test::TempDir cache;
    test::writeMaskedAttentionLogdir(dir.path());
    read(dir.path(), cache.path());
    const Read other = read(dir.path(), cache.path(), {"aten::log:-inf"});
    CHECK(other.status == "used");
    CHECK_FALSE(other.brought);
    CHECK(other.propagation.find("aten::log:-inf") != std::string::npos);
    // The index stays as saved (nothing more was read): brought along for no pattern again.
    CHECK(read(dir.path(), cache.path()).brought);

    const test::FileSetWriter set(dir.path()); // the same file set: appended to
    set.append("execution",
               test::events::execution(3.0, "aten::exp", {6}, {7}, 4,
                                       {test::events::fullHealth(7, 1, 0, 1, 0, 0, 0, 0)}));
    const Read appended = read(dir.path(), cache.path());
    CHECK_FALSE(appended.brought);
    CHECK(appended.propagation == describe(LogdirReader(dir.path()).update()->propagation()));
}

TEST_CASE("a saved index that passes the memory limit with what was appended gives way to a read",
          "[indexcache]")
{
    // Past a saved index, appended graph records are read after every trace it held, where a
    // read from the start reads the graphs first and stops at the limit before the traces.
    test::TempDir dir;
    test::TempDir cache;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    for (int i = 0; i < 50; ++i)
        set.append("graph_execution_traces",
                   test::events::trace(i, "g", "r", 0, 2, test::events::curtHealth(1, i == 7)));
    ReaderOptions options = cachedIn(cache.path());
    options.maxMemoryBytes = std::uint64_t{2} << 20;
    const auto readWithLimit = [&] {
        LogdirReader reader(dir.path(), options);
        const auto s = reader.update();
        REQUIRE(reader.saveIndex());
        return std::make_pair(reader.indexCacheStatus(), s->traceCount());
    };
    CHECK(readWithLimit() == std::make_pair(std::string("none saved"), std::uint64_t{50}));
    CHECK(readWithLimit() == std::make_pair(std::string("used"), std::uint64_t{50}));
    auto wide = test::events::op("g", "Relu", "wide", {}, {});
    wide.mutable_graph_op_creation()->set_num_outputs(65536); // a table entry per output slot
    set.append("graphs", wide);
    LogdirReader fresh(dir.path(), [] {
        ReaderOptions o;
        o.maxMemoryBytes = std::uint64_t{2} << 20;
        return o;
    }());
    const std::uint64_t freshTraces = fresh.update()->traceCount();
    CHECK(freshTraces < 50); // the graphs took the room the traces needed
    const auto reopened = readWithLimit();
    CHECK(reopened.first == "not used: reading past it reached the memory limit");
    CHECK(reopened.second == freshTraces);
}

TEST_CASE("hop counts are saved as the events that are not finite", "[indexcache]")
{
    Propagation p;
    p.traceHops.assign(100'000, Propagation::kFinite);
    p.traceHops[0] = 0;
    p.traceHops[1] = 1;
    p.traceHops[70'000] = Propagation::kIntended;
    p.traceHops.back() = Propagation::kMaxHops;
    p.executionHops = {Propagation::kUninitialised, Propagation::kFinite, 2};
    p.producers = 3;
    ArchiveWriter w;
    indexfile::putKnownPropagation(w, &p);
    CHECK(w.bytes().size() < 200); // not two bytes for each of 100 000 traces
    const auto bytes = std::as_bytes(std::span(w.bytes()));
    ArchiveReader r(bytes);
    const auto back = indexfile::getKnownPropagation(r, 1'000'000, nullptr);
    REQUIRE(back);
    CHECK(r.atEnd()); // what follows the hop counts is read where it lies
    // Their sizes are known before they are decoded, at the first get(), from any thread.
    CHECK(back->traceEvents() == p.traceHops.size());
    CHECK(back->executionEvents() == p.executionHops.size());
    const Propagation* decodedElsewhere = nullptr;
    std::thread([&] { decodedElsewhere = &back->get(); }).join();
    CHECK(decodedElsewhere == &back->get());
    CHECK(back->get().traceHops == p.traceHops);
    CHECK(back->get().executionHops == p.executionHops);
    CHECK(back->get().producers == 3);

    SECTION("more events than the file can hold fail before anything is sized")
    {
        ArchiveReader small(bytes);
        CHECK_FALSE(indexfile::getKnownPropagation(small, 99'999, nullptr));
    }
    SECTION("an event past the end, or a finite one listed, fails where all else is whole")
    {
        // Ten traces, one of them listed at `gap`; no executions; the counts; nothing set aside.
        const auto propagationWith = [](std::uint64_t gap, std::uint16_t hop) {
            ArchiveWriter out;
            out.put<std::uint8_t>(1);
            out.count(10);
            out.count(1);
            out.putVarint(gap);
            out.put(hop);
            out.count(0);
            out.count(0);
            for (int k = 0; k < 8; ++k)
                out.put<std::uint64_t>(0);
            out.count(0); // set aside
            out.count(0); // patterns
            return out;
        };
        const ArchiveWriter valid = propagationWith(3, 7);
        ArchiveReader v(std::as_bytes(std::span(valid.bytes())));
        const auto loaded = indexfile::getKnownPropagation(v, 1000, nullptr);
        REQUIRE(loaded);
        CHECK(v.atEnd());
        CHECK(loaded->get().traceHops[3] == 7);
        for (const auto& [gap, hop] : {std::pair<std::uint64_t, std::uint16_t>{10, 7}, // 11th of 10
                                       {3, Propagation::kFinite}}) {
            const ArchiveWriter forged = propagationWith(gap, hop);
            ArchiveReader f(std::as_bytes(std::span(forged.bytes())));
            CHECK_FALSE(indexfile::getKnownPropagation(f, 1000, nullptr));
        }
    }
}
