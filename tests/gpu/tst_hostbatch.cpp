// SPDX-License-Identifier: GPL-3.0-or-later
// The facade's CPU fallback (a batch in host memory), which every build has: the same counts
// as the scalar reference and the same vectors as the recorder's CPU summaries.
#include "healthdata.hpp"
#include "nanscope/gpu/device.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "nanscope/summary.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

using namespace nanscope;

namespace {

constexpr std::array kModes = {
    TensorDebugMode::NoTensor,   TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
    TensorDebugMode::FullHealth, TensorDebugMode::Shape,      TensorDebugMode::FullTensor,
};

bool readsValues(TensorDebugMode mode)
{
    return mode == TensorDebugMode::CurtHealth || mode == TensorDebugMode::ConciseHealth ||
           mode == TensorDebugMode::FullHealth;
}

} // namespace

TEST_CASE("a host batch counts as the scalar reference for every dtype and edge size", "[fallback]")
{
    const auto sizes = test::edgeSizes(16);
    for (const DType dtype : test::kSummarisedDtypes) {
        const std::size_t size = elementSize(dtype);
        gpu::SummaryBatch batch(MemorySpace::Host);
        struct Expected
        {
            std::size_t index;
            HealthCounts counts;
        };
        std::vector<Expected> expected;
        std::vector<std::vector<unsigned char>> buffers;
        for (const std::uint64_t count : sizes) {
            // Every element offset inside a 16-byte line, so views start anywhere.
            for (std::size_t offset = 0; offset * size < 16; offset += offset < 2 ? 1 : 3) {
                auto data = test::healthData(dtype, count, count * 31 + offset);
                auto& buffer = buffers.emplace_back((offset + count) * size + 16);
                if (!data.empty()) // memcpy's pointers must be valid even for 0 bytes
                    std::memcpy(buffer.data() + offset * size, data.data(), data.size());
                auto index = batch.add(
                    {.data = buffer.data() + offset * size, .dtype = dtype, .count = count});
                REQUIRE(index.ok());
                expected.push_back({*index, countHealthReference(data.data(), dtype, count)});
            }
        }
        REQUIRE(batch.submit().ok());
        auto ready = batch.ready();
        REQUIRE(ready.ok());
        CHECK(*ready);
        REQUIRE(batch.wait().ok());
        for (const auto& e : expected) {
            INFO(dtypeName(dtype) << " tensor " << e.index);
            CHECK(batch.counts(e.index) == e.counts);
        }
    }
}

TEST_CASE("a host batch builds every mode's vector as the CPU summaries do", "[fallback]")
{
    const std::int64_t shapes[][3] = {{0, 0, 0}, {1, 1, 1}, {3, 5, 7}, {2, 3, 1025}};
    for (const DType dtype : test::kSummarisedDtypes) {
        for (const TensorDebugMode mode : kModes) {
            for (const auto& dims : shapes) {
                const std::span<const std::int64_t> shape(dims, 3);
                const auto count = static_cast<std::uint64_t>(dims[0] * dims[1] * dims[2]);
                const auto data = test::healthData(dtype, count, 7);
                std::array<double, 11> fromBatch{};
                std::array<double, 11> expected{};
                REQUIRE(gpu::summarize({.data = data.data(), .dtype = dtype, .count = count}, mode,
                                       shape, 12.0, fromBatch, MemorySpace::Host)
                            .ok());
                summarize(mode, data.data(), dtype, shape, 12.0, expected);
                INFO(dtypeName(dtype) << " " << toString(mode) << " " << count);
                // Bit for bit: the vectors are small integers and the id.
                CHECK(std::memcmp(fromBatch.data(), expected.data(), sizeof expected) == 0);
            }
        }
    }
}

TEST_CASE("a host batch reads nothing for modes without counts", "[fallback]")
{
    // A null pointer with elements: only the counting modes need the data.
    for (const TensorDebugMode mode : kModes) {
        gpu::SummaryBatch batch(MemorySpace::Host);
        auto index = batch.add({.data = nullptr, .dtype = DType::Float32, .count = 1000}, mode);
        INFO(toString(mode));
        if (readsValues(mode)) {
            CHECK(index.status().code() == ErrorCode::InvalidArgument);
            continue;
        }
        REQUIRE(index.ok());
        REQUIRE(batch.submit().ok());
        CHECK(batch.counts(*index).size == 1000);
        CHECK(batch.counts(*index).zero == 0);
    }
}

TEST_CASE("a batch refuses what it cannot summarise", "[fallback]")
{
    const float values[4] = {1, 2, 3, 4};
    for (const MemorySpace space : {MemorySpace::Host, MemorySpace::Device}) {
        gpu::SummaryBatch batch(space);
        CHECK(batch.space() == space);
        for (const DType d :
             {DType::String, DType::Complex64, DType::Resource, DType::Variant, DType::Invalid})
            CHECK(batch.add({.data = values, .dtype = d, .count = 1}).status().code() ==
                  ErrorCode::InvalidArgument);
        // Not aligned to the element size.
        const auto* odd = reinterpret_cast<const unsigned char*>(values) + 1;
        const auto misaligned = batch.add({.data = odd, .dtype = DType::Float32, .count = 2});
        CHECK(misaligned.status().code() == ErrorCode::InvalidArgument);
        CHECK(misaligned.status().message().find("aligned") != std::string::npos);
        CHECK(batch
                  .add({.data = values, .dtype = DType::Float32, .count = 1},
                       static_cast<TensorDebugMode>(6))
                  .status()
                  .code() == ErrorCode::InvalidArgument);
        CHECK(batch.size() == 0);
        CHECK(batch.ready().status().code() == ErrorCode::InvalidArgument); // not submitted
        CHECK(batch.wait().code() == ErrorCode::InvalidArgument);
    }
}

TEST_CASE("a host batch is reusable after clear and refuses additions once submitted", "[fallback]")
{
    const std::vector<float> ones(100, 1.0f);
    const std::vector<float> negatives(50, -2.0f);
    gpu::SummaryBatch batch(MemorySpace::Host);
    REQUIRE(batch.add({.data = ones.data(), .count = 100}).ok());
    REQUIRE(batch.submit().ok());
    CHECK(batch.add({.data = ones.data(), .count = 100}).status().code() ==
          ErrorCode::InvalidArgument);
    CHECK(batch.submit().code() == ErrorCode::InvalidArgument);
    CHECK(batch.counts(0).positiveFinite == 100);

    batch.clear();
    CHECK(batch.size() == 0);
    auto index = batch.add({.data = negatives.data(), .count = 50});
    REQUIRE(index.ok());
    CHECK(*index == 0);
    REQUIRE(batch.submit().ok());
    CHECK(batch.counts(0).negativeFinite == 50);
    CHECK(batch.counts(0).size == 50);

    // An empty batch is a valid one.
    gpu::SummaryBatch empty(MemorySpace::Host);
    CHECK(empty.submit().ok());
    CHECK(empty.wait().ok());

    // Moving keeps the results.
    gpu::SummaryBatch moved = std::move(batch);
    CHECK(moved.counts(0).negativeFinite == 50);
}

TEST_CASE("summarize checks the room for the vector", "[fallback]")
{
    const float v = 1.0f;
    std::array<double, 4> small{};
    CHECK(gpu::summarize({.data = &v, .count = 1}, TensorDebugMode::FullHealth, {}, -1.0, small,
                         MemorySpace::Host)
              .code() == ErrorCode::InvalidArgument);
    CHECK(gpu::summarize({.data = &v, .count = 1}, TensorDebugMode::CurtHealth, {}, -1.0, small,
                         MemorySpace::Host)
              .ok());
    CHECK(small[0] == -1.0);
    CHECK(small[1] == 0.0);
}
