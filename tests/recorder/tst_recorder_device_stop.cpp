// SPDX-License-Identifier: GPL-3.0-or-later
// stopAtFirstNonFinite with tensors in device memory, whose summaries come back late: a strict
// recorder (stopLagEvents 0) stops in the call that recorded the NaN; otherwise the stop comes
// at most stopLagEvents events later, and still names the op that made it, in the order of the
// calls across device and host tensors. [gpu]: skipped without a device.
#include "devicememory.hpp"
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"
#include "requiredevice.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <vector>

using namespace nanscope;
using test::DeviceMemory;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const std::vector<std::int64_t> kShape{4096};

struct DeviceValues
{
    explicit DeviceValues(float special) : memory(kShape[0] * sizeof(float))
    {
        std::vector<float> host(static_cast<std::size_t>(kShape[0]), 1.0f);
        host.back() = special;
        memory.upload(0, host.data(), host.size() * sizeof(float));
    }
    TensorView view() const
    {
        return {.data = memory.data(),
                .dtype = DType::Float32,
                .shape = kShape,
                .space = MemorySpace::Device};
    }
    DeviceMemory memory;
};

Status run(Recorder& r, const char* op, std::vector<std::int64_t> inputs, std::int64_t output,
           const TensorView& value)
{
    ExecutionSpec spec{.opType = op, .inputIds = std::move(inputs), .outputIds = {output}};
    spec.outputs.push_back(value);
    return r.recordExecution(spec);
}

RecorderOptions stopping(const std::filesystem::path& root, int lag)
{
    return {.dumpRoot = root,
            .mode = TensorDebugMode::FullHealth,
            .circularBufferSize = -1,
            .stopAtFirstNonFinite = true,
            .stopLagEvents = lag};
}

} // namespace

TEST_CASE("a strict recorder stops in the call that recorded the device NaN", "[gpu][stop]")
{
    NANSCOPE_REQUIRE_DEVICE();
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path(), 0));
    REQUIRE(recorder.ok());
    const DeviceValues finite(1.0f);
    const DeviceValues nan(kNaN);
    CHECK(run(**recorder, "aten::mm", {}, 1, finite.view()).ok());
    CHECK(run(**recorder, "aten::sqrt", {1}, 2, nan.view()).code() == ErrorCode::NonFinite);
    const auto stop = (*recorder)->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::sqrt");
    CHECK(stop->eventsLate == 0);
    CHECK(test::readEvents(dir.path(), "execution").size() == 2);
}

TEST_CASE("a lagging recorder stops within stopLagEvents and names the device op", "[gpu][stop]")
{
    NANSCOPE_REQUIRE_DEVICE();
    constexpr int kLag = 8;
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path(), kLag));
    REQUIRE(recorder.ok());
    const DeviceValues finite(1.0f);
    const DeviceValues inf(-kInf);
    const DeviceValues nan(kNaN);
    CHECK(run(**recorder, "aten::log", {}, 1, inf.view()).ok());
    // A host op turns the device op's -inf into NaN: checked in the order of the calls.
    const std::vector<float> hostNaN{kNaN};
    const std::vector<std::int64_t> one{1};
    Status status = run(**recorder, "aten::mul", {1}, 2,
                        {.data = hostNaN.data(), .dtype = DType::Float32, .shape = one});
    int calls = 0;
    while (status.ok() && calls < 4 * kLag)
        status = run(**recorder, "aten::add", {2}, 3 + calls++, finite.view());
    CHECK(status.code() == ErrorCode::NonFinite);
    CHECK(calls <= kLag + 1);
    const auto stop = (*recorder)->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::log");
    REQUIRE(stop->stoppedAt);
    CHECK(stop->stoppedAt->opType == "aten::mul");
    CHECK(stop->eventsLate <= static_cast<std::uint64_t>(kLag));
    REQUIRE((*recorder)->close().ok());
    CHECK(test::readEvents(dir.path(), "execution").size() == static_cast<std::size_t>(2 + calls));
}
