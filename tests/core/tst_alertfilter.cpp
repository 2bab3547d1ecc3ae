// SPDX-License-Identifier: GPL-3.0-or-later
// The alert filter: kinds of non-finite value, host, device and text, alone and together, on a
// logdir of two hosts whose ops ran on two devices, with an eager alert on one of them.
#include "hostlogdirs.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/alertfilter.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace nanscope;
using namespace nanscope::core;

namespace {

constexpr const char* kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";

// host-a: x (CPU) and Log (GPU), Log -inf. host-b: Log NaN. Then an eager Exp on the GPU
// with +inf, recorded by host-a. Alerts in TensorBoard's order: the three traces
// (a's Log, b's Log, in file-set order), then the execution.
std::shared_ptr<const Snapshot> devicesLogdir(const test::TempDir& dir)
{
    auto a = test::openHost(dir.path(), "devices", "host-a");
    REQUIRE(a.ok());
    auto b = test::openSecondHost(dir.path(), "devices", "host-b");
    REQUIRE(b.ok());
    const GraphHandle graph = *(*a)->declareGraph("step");
    const OpHandle x =
        *(*a)->declareOp({.graph = graph, .type = "Placeholder", .name = "x", .device = kCpu});
    const OpHandle log = *(*a)->declareOp(
        {.graph = graph, .type = "Log", .name = "Log", .inputs = {"x"}, .device = kGpu});
    const std::int64_t shape[1] = {2};
    const float good[2] = {1.0F, 2.0F};
    const float negInf[2] = {-INFINITY, 2.0F};
    const float nan[2] = {NAN, 2.0F};
    const float posInf[2] = {INFINITY, 2.0F};
    REQUIRE((*a)->recordTrace(x, 0, {.data = good, .shape = shape}).ok());
    REQUIRE((*a)->recordTrace(log, 0, {.data = negInf, .shape = shape}).ok());
    REQUIRE((*b)->recordTrace(log, 0, {.data = nan, .shape = shape}).ok());
    REQUIRE((*a)->recordExecution({.opType = "Exp",
                                   .outputIds = {(*a)->newTensorId()},
                                   .outputs = {{.data = posInf, .shape = shape}},
                                   .device = kGpu})
                .ok());
    REQUIRE((*b)->close().ok());
    REQUIRE((*a)->close().ok());
    LogdirReader reader(dir.path());
    auto snapshot = reader.update();
    REQUIRE(snapshot->alertCount() == 3);
    return snapshot;
}

} // namespace

TEST_CASE("traces carry their device in the index", "[alertfilter]")
{
    test::TempDir dir;
    const auto s = devicesLogdir(dir);
    REQUIRE(s->traceDevices() == std::vector<std::string>{"", kCpu, kGpu});
    std::vector<std::string> devices;
    for (std::uint64_t i = 0; i < s->traceCount(); ++i)
        devices.push_back(s->traceDevices()[s->trace(i).device]);
    CHECK(devices == std::vector<std::string>{kCpu, kGpu, kGpu});
    CHECK(deviceNames(*s) == std::vector<std::string>{kCpu, kGpu});
    // Graph Execution's filter by device is the same matcher.
    const TraceMatcher gpu(*s, {.device = kGpu});
    CHECK(matchingRows(*s, gpu, 0, s->traceCount()) == std::vector<int>{1, 2});
    const TraceMatcher unknown(*s, {.device = "/device:TPU:0"});
    CHECK(matchingRows(*s, unknown, 0, s->traceCount()).empty());
}

TEST_CASE("the alert filter: kind, host, device and text, alone and together", "[alertfilter]")
{
    test::TempDir dir;
    const auto s = devicesLogdir(dir);
    const auto rows = [&](const AlertFilter& filter) {
        return matchingAlerts(*s, filter, s->alertCount());
    };
    CHECK_FALSE(AlertFilter{}.active());
    CHECK(rows({}) == std::vector<int>{0, 1, 2});
    CHECK(rows({.kinds = health::NaN}) == std::vector<int>{1});
    CHECK(rows({.kinds = health::NegInf | health::PosInf}) == std::vector<int>{0, 2});
    CHECK(rows({.host = 1u}) == std::vector<int>{1});
    CHECK(rows({.host = 0u}) == std::vector<int>{0, 2}); // executions are the first host's
    CHECK(rows({.device = kGpu}) == std::vector<int>{0, 1, 2});
    CHECK(rows({.device = kCpu}).empty());
    CHECK(rows({.text = "LOG"}) == std::vector<int>{0, 1});
    CHECK(rows({.text = "exp"}) == std::vector<int>{2});
    CHECK(rows({.kinds = health::NaN, .host = 0u}).empty());
    CHECK(rows({.host = 0u, .device = kGpu, .text = "e"}) == std::vector<int>{2});
    // The count bounds the scan (a list that trails the snapshot); a stop ends it.
    CHECK(matchingAlerts(*s, {}, 2) == std::vector<int>{0, 1});
    std::atomic_bool stop{true};
    CHECK(matchingAlerts(*s, {}, 3, &stop).empty());
}
