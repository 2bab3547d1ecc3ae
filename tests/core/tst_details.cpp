// SPDX-License-Identifier: GPL-3.0-or-later
// Details read on demand: what a read keeps of a large FULL_TENSOR tensor, and the size limit a
// responsive thread reads under.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <unistd.h>
#include <vector>

using namespace nanscope;
namespace fs = std::filesystem;

namespace {

struct FullTensorLogdir
{
    fs::path path =
        fs::temp_directory_path() / ("nanscope-details-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::vector<double> values;

    // One trace and one execution of the same float64 tensor of `count` elements.
    explicit FullTensorLogdir(std::int64_t count)
    {
        values.resize(static_cast<std::size_t>(count));
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<double>(i) - 10.0;
        values[5] = -std::numeric_limits<double>::infinity();
        auto recorder = Recorder::open(
            {.dumpRoot = path, .mode = TensorDebugMode::FullTensor, .circularBufferSize = -1});
        REQUIRE(recorder);
        auto graph = (*recorder)->declareGraph("g");
        auto op = (*recorder)->declareOp({.graph = *graph, .type = "Sub", .name = "Sub"});
        REQUIRE(op);
        const std::int64_t shape[] = {2, count / 2};
        const TensorView tensor{.data = values.data(), .dtype = DType::Float64, .shape = shape};
        REQUIRE((*recorder)->recordTrace(*op, 0, tensor).ok());
        const std::int64_t id = (*recorder)->newTensorId();
        REQUIRE((*recorder)
                    ->recordExecution({.opType = "Sub", .outputIds = {id}, .outputs = {tensor}})
                    .ok());
        REQUIRE((*recorder)->close().ok());
    }
    ~FullTensorLogdir()
    {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

} // namespace

TEST_CASE("a full tensor read keeps its shape, its health and its first values only", "[details]")
{
    const std::int64_t count = 200'000;
    FullTensorLogdir logdir(count);
    core::LogdirReader reader(logdir.path);
    const auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == 1);

    const auto trace = snapshot->readTrace(0);
    REQUIRE(trace);
    REQUIRE(trace->fullTensor);
    const core::TensorValue& value = *trace->fullTensor;
    CHECK(value.dtype == DType::Float64);
    CHECK(value.shape == std::vector<std::int64_t>{2, count / 2});
    CHECK(value.numeric);
    CHECK(value.elementCount == static_cast<std::uint64_t>(count));
    REQUIRE(value.values.size() == core::kTensorValuesKept);
    for (std::size_t i = 0; i < value.values.size(); ++i)
        CHECK((value.values[i] == logdir.values[i] || (std::isinf(value.values[i]) && i == 5)));
    // The health still counts every element, not only the kept ones.
    CHECK(trace->health.size == count);
    CHECK(trace->health.negativeInfinity == 1);
    CHECK(trace->health.negativeFinite == 9);
    CHECK(trace->health.zero == 1);
    CHECK(trace->health.positiveFinite == count - 11);

    const auto execution = snapshot->readExecution(0);
    REQUIRE(execution);
    REQUIRE(execution->fullTensors.size() == 1);
    CHECK(execution->fullTensors[0].elementCount == static_cast<std::uint64_t>(count));
    CHECK(execution->fullTensors[0].values.size() == core::kTensorValuesKept);
    CHECK(execution->outputHealth.at(0).negativeInfinity == 1);
}

TEST_CASE("a record over the caller's limit is deferred, not an error", "[details]")
{
    FullTensorLogdir small(16);
    FullTensorLogdir large(1 << 18); // 2 MiB of float64
    core::LogdirReader smallReader(small.path);
    core::LogdirReader largeReader(large.path);
    const auto smallSnapshot = smallReader.update();
    const auto largeSnapshot = largeReader.update();

    const auto quick = smallSnapshot->readTrace(0, core::kInteractiveRecordBytes);
    CHECK(quick);
    CHECK_FALSE(quick.deferred);

    const auto later = largeSnapshot->readTrace(0, core::kInteractiveRecordBytes);
    CHECK_FALSE(later);
    CHECK(later.deferred);
    CHECK(largeSnapshot->readTrace(0)); // without the limit it reads
}
