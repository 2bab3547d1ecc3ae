// SPDX-License-Identifier: GPL-3.0-or-later
// Where the memory limit stops reading is a property of the logdir and the limit alone: not of
// the number of threads, nor of which decoded chunk happened to be joined into the index first.
// A saved index freezes that stop, so a stop that moved from run to run would make a cached
// report differ from an uncached one.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = test::events;

TEST_CASE("the memory limit stops reading at the same record with any number of threads",
          "[reader][memory]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    // Every trace an alert, so that what is joined into the index before the limit is weighed
    // changes its weight: 400 000 traces, about 10 MiB of records.
    std::string traces;
    for (int i = 0; i < 400'000; ++i)
        traces += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, true)));
    set.appendBytes("graph_execution_traces", traces);

    std::set<std::pair<std::uint64_t, std::uint64_t>> stops; // traces, alerts
    for (unsigned threads : {1u, 2u, 3u})
        for (int run = 0; run < 6; ++run) {
            LogdirReader reader(dir.path(), {.threads = threads, .maxMemoryBytes = 3u << 20});
            const auto s = reader.update();
            stops.insert({s->traceCount(), s->alertCount()});
        }
    CHECK(stops.size() == 1);
    REQUIRE_FALSE(stops.empty());
    CHECK(stops.begin()->first > 10'000);  // it read a good part
    CHECK(stops.begin()->first < 400'000); // and stopped at the limit
}
