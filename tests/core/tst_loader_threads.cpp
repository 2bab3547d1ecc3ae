// SPDX-License-Identifier: GPL-3.0-or-later
// The app's loading pattern without Qt, so that ThreadSanitizer sees it (Qt itself is not built
// with TSan): one thread extends the index a chunk at a time and publishes snapshots, as the
// app's LoadWorker does, while other threads read the latest snapshot as the item models (GUI
// thread) and the panels' background jobs (SnapshotJob's pool) do, and a writer keeps appending.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"
#include "tempdir.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;

namespace {

// Reads everything a panel may read of a snapshot; returns a checksum so nothing is optimised
// away.
std::uint64_t readEverything(const Snapshot& s)
{
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < s.traceCount(); ++i)
        sum += s.trace(i).health.bits + s.trace(i).op;
    for (std::uint64_t i = 0; i < s.executionCount(); ++i)
        sum += s.executionOutputIds(i).size();
    for (std::uint64_t k = 0; k < s.alertCount(); ++k)
        sum += s.alert(k).event.index;
    sum += s.alertsByWallTime().size() + s.tensorBoardAlertCount();
    if (const auto& origin = s.origin())
        sum += origin->event.index;
    sum += s.propagation().producers;
    if (s.traceCount() > 0)
        if (const auto t = s.readTrace(s.traceCount() / 2))
            sum += t->outputSlot;
    return sum;
}

} // namespace

TEST_CASE("snapshots are read on other threads while the index grows", "[reader][threads]")
{
    test::TempDir dir;
    auto opened = Recorder::open({.dumpRoot = dir.path(),
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1,
                                  .flushInterval = std::chrono::milliseconds(1),
                                  .closeAtExit = false});
    REQUIRE(opened.ok());
    Recorder& rec = **opened;
    auto graph = rec.declareGraph("g");
    auto x = rec.declareOp({.graph = *graph, .type = "Placeholder", .name = "x"});
    auto log = rec.declareOp({.graph = *graph, .type = "Log", .name = "Log", .inputs = {"x"}});
    REQUIRE(log.ok());
    const std::int64_t shape[1] = {4};
    // No Catch2 assertion runs off the test's thread: Catch2 is not thread-safe.
    auto writeSteps = [&](int first, int count) {
        bool ok = true;
        for (int i = first; i < first + count; ++i) {
            const float in[4] = {1.0f, 2.0f, i % 500 == 7 ? 0.0f : 3.0f, 4.0f};
            float out[4];
            for (int k = 0; k < 4; ++k)
                out[k] = std::log(in[k]);
            ok = ok && rec.recordTrace(*x, 0, {.data = in, .shape = shape}).ok() &&
                 rec.recordTrace(*log, 0, {.data = out, .shape = shape}).ok();
        }
        return ok && rec.flush().ok();
    };
    REQUIRE(writeSteps(0, 3000));

    LogdirReader reader(dir.path(), {.threads = 2});
    std::atomic<bool> writing{true};
    std::atomic<bool> loading{true};
    std::atomic<bool> written{false};
    std::thread writer([&] {
        written = writeSteps(3000, 2000);
        writing = false;
    });
    std::thread loader([&] {
        // Small chunks, many snapshots: as LoadWorker, then following the growing logdir.
        bool last = false;
        while (!last) {
            last = !writing.load();
            std::shared_ptr<const Snapshot> s;
            do
                s = reader.update({.maxTraceBytes = 16 << 10});
            while (!s->complete());
        }
        loading = false;
    });
    std::atomic<std::uint64_t> reads{0};
    std::vector<std::thread> viewers;
    for (int v = 0; v < 2; ++v)
        viewers.emplace_back([&] {
            while (loading.load()) {
                const auto s = reader.latest();
                if (readEverything(*s) != ~std::uint64_t{0})
                    ++reads;
            }
        });
    writer.join();
    loader.join();
    for (auto& v : viewers)
        v.join();
    REQUIRE(written.load());
    REQUIRE(rec.close().ok());

    const auto s = reader.update();
    CHECK(s->traceCount() == 10000);
    CHECK(s->alertCount() == 10);
    CHECK(reads.load() > 0);
    REQUIRE(s->origin());
    CHECK(s->origin()->opName == "Log");
}
