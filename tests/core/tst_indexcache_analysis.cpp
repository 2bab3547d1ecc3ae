// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis a saved index brings along: the propagation (hop counts, what was set aside, the
// counts) goes with the origin, so that a reopened index answers both without a walk over every
// event; for other expected patterns, or once data was appended, they are worked out again.
#include "indexstate.hpp"
#include "logdirbuilder.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "tempdir.hpp"
#include "tutoriallogdir.hpp"

#include <catch2/catch.hpp>

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
    Read r{reader.indexCacheStatus(), s->data().knownPropagation != nullptr,
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
