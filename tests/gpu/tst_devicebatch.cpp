// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA kernel against the CPU reference: bit-identical counts and vectors for every dtype,
// mode, edge size and start offset, batches of many tensors, several streams, the largest
// tensors memory allows, and pointers the GPU cannot read. [gpu]: skipped without a device.
#include "devicememory.hpp"
#include "healthdata.hpp"
#include "nanscope/gpu/device.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "nanscope/summary.hpp"
#include "requiredevice.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace nanscope;
using test::DeviceMemory;

namespace {

// Tensors placed one after another in one device allocation, each at its own start offset
// (in elements) past a 256-byte boundary.
struct Placed
{
    DType dtype;
    std::uint64_t count;
    std::size_t byteOffset; // in the allocation
    HealthCounts expected;
};

struct Layout
{
    std::vector<Placed> tensors;
    std::vector<unsigned char> bytes;

    void place(DType dtype, std::uint64_t count, std::size_t elementOffset, std::uint64_t seed)
    {
        const std::size_t size = elementSize(dtype);
        const std::size_t start = (bytes.size() + 255) / 256 * 256 + elementOffset * size;
        const auto data = test::healthData(dtype, count, seed);
        bytes.resize(start + data.size());
        std::memcpy(bytes.data() + start, data.data(), data.size());
        tensors.push_back({dtype, count, start, countHealthReference(data.data(), dtype, count)});
    }
};

// Uploads the layout, summarises all its tensors in one batch, and compares with the reference.
void checkBatch(const Layout& layout, gpu::SummaryBatch& batch)
{
    DeviceMemory memory(layout.bytes.size());
    memory.upload(0, layout.bytes.data(), layout.bytes.size());
    batch.clear();
    for (const Placed& t : layout.tensors) {
        auto index =
            batch.add({.data = memory.data() + t.byteOffset, .dtype = t.dtype, .count = t.count});
        REQUIRE(index.ok());
    }
    REQUIRE(batch.submit().ok());
    REQUIRE(batch.wait().ok());
    for (std::size_t i = 0; i < layout.tensors.size(); ++i) {
        const Placed& t = layout.tensors[i];
        INFO(dtypeName(t.dtype) << " count " << t.count << " at byte " << t.byteOffset);
        CHECK(batch.counts(i) == t.expected);
    }
}

void checkBatch(const Layout& layout)
{
    gpu::SummaryBatch batch;
    checkBatch(layout, batch);
}

constexpr std::array kModes = {
    TensorDebugMode::NoTensor,   TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
    TensorDebugMode::FullHealth, TensorDebugMode::Shape,      TensorDebugMode::FullTensor,
};

} // namespace

TEST_CASE("device counts equal the CPU reference for every dtype and edge size", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const auto sizes = test::edgeSizes(22);
    for (const DType dtype : test::kSummarisedDtypes) {
        Layout layout;
        const std::size_t size = elementSize(dtype);
        for (const std::uint64_t count : sizes)
            // Aligned, one element off, and the last element of a 16-byte line.
            for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, 16 / size - 1})
                layout.place(dtype, count, offset, count + offset);
        checkBatch(layout);
    }
}

TEST_CASE("one launch summarises tensors of every dtype and size together", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    Layout layout;
    std::mt19937_64 random(5);
    for (int i = 0; i < 3000; ++i) {
        const DType dtype = test::kSummarisedDtypes[random() % test::kSummarisedDtypes.size()];
        // Mostly small tensors, some of several chunks.
        const std::uint64_t count = i % 100 == 0 ? random() % 300000 : random() % 200;
        layout.place(dtype, count, random() % (16 / elementSize(dtype)), i);
    }
    checkBatch(layout);
}

TEST_CASE("every 16-bit float pattern is classified on the device as on the CPU", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    // Hopper classifies float16 and bfloat16 with the half-precision units' comparisons, other
    // devices with integer lane arithmetic: both must agree with FloatFormat on every pattern,
    // in the vector middle and in the scalar head and tail (eight start offsets).
    std::vector<unsigned char> all(65536 * 2);
    for (std::uint32_t v = 0; v < 65536; ++v) {
        all[2 * v] = static_cast<unsigned char>(v);
        all[2 * v + 1] = static_cast<unsigned char>(v >> 8);
    }
    for (const DType dtype : {DType::Float16, DType::BFloat16}) {
        const HealthCounts expected = countHealthReference(all.data(), dtype, 65536);
        Layout layout;
        for (std::size_t offset = 0; offset < 8; ++offset) {
            const std::size_t start = (layout.bytes.size() + 255) / 256 * 256 + offset * 2;
            layout.bytes.resize(start + all.size());
            std::memcpy(layout.bytes.data() + start, all.data(), all.size());
            layout.tensors.push_back({dtype, 65536, start, expected});
        }
        INFO(dtypeName(dtype));
        checkBatch(layout);
    }
}

TEST_CASE("every mode's vector from the device equals the CPU summaries", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const std::int64_t shapes[][3] = {{0, 4, 4}, {1, 1, 1}, {3, 5, 7}, {2, 3, 70001}};
    for (const DType dtype : test::kSummarisedDtypes) {
        for (const auto& dims : shapes) {
            const std::span<const std::int64_t> shape(dims, 3);
            const auto count = static_cast<std::uint64_t>(dims[0] * dims[1] * dims[2]);
            const auto data = test::healthData(dtype, count, 11);
            DeviceMemory memory(data.size());
            memory.upload(0, data.data(), data.size());
            for (const TensorDebugMode mode : kModes) {
                std::array<double, 11> fromDevice{};
                std::array<double, 11> expected{};
                REQUIRE(gpu::summarize({.data = memory.data(), .dtype = dtype, .count = count},
                                       mode, shape, 3.0, fromDevice)
                            .ok());
                summarize(mode, data.data(), dtype, shape, 3.0, expected);
                INFO(dtypeName(dtype) << " " << toString(mode) << " " << count);
                CHECK(std::memcmp(fromDevice.data(), expected.data(), sizeof expected) == 0);
            }
        }
    }
}

TEST_CASE("the counts are the same on every run", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const auto data = test::healthData(DType::Float32, 5'000'003, 99);
    const HealthCounts expected = countHealthReference(data.data(), DType::Float32, 5'000'003);
    DeviceMemory memory(data.size());
    memory.upload(0, data.data(), data.size());
    gpu::SummaryBatch batch; // reused: its buffers stay allocated
    for (int run = 0; run < 20; ++run) {
        batch.clear();
        // The same tensor several times in one batch: concurrent blocks add to different slots.
        for (int copy = 0; copy < 3; ++copy)
            REQUIRE(batch.add({.data = memory.data(), .count = 5'000'003}).ok());
        REQUIRE(batch.submit().ok());
        // Poll as a recorder does, without blocking.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        bool arrived = false;
        while (!arrived && std::chrono::steady_clock::now() < deadline) {
            auto ready = batch.ready();
            REQUIRE(ready.ok());
            arrived = *ready;
            if (!arrived)
                std::this_thread::yield();
        }
        REQUIRE(arrived);
        for (int copy = 0; copy < 3; ++copy)
            REQUIRE(batch.counts(static_cast<std::size_t>(copy)) == expected);
    }
}

TEST_CASE("a reused batch counts afresh as its table grows, shrinks and moves", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    // Tables in the launch's parameters (up to 96 tensors) and copied to the device (more),
    // one after the other in one batch: each launch must start from zeroed counters, wherever
    // the last one left its arrival counter. Freed memory full of ones first, so that the
    // batch's own allocation is unlikely to start out as zeros by chance.
    {
        DeviceMemory poison(std::size_t{4} << 20);
        NANSCOPE_CUDA_REQUIRE(cudaMemset(poison.data(), 0xff, std::size_t{4} << 20));
        NANSCOPE_CUDA_REQUIRE(cudaDeviceSynchronize());
    }
    gpu::SummaryBatch batch;
    std::uint64_t seed = 40;
    for (const int tensors : {3, 200, 1, 96, 97, 5, 1000, 2}) {
        Layout layout;
        for (int i = 0; i < tensors; ++i) {
            const DType dtype = test::kSummarisedDtypes[seed % test::kSummarisedDtypes.size()];
            layout.place(dtype, seed % 7 == 0 ? 70'000 : seed % 300, 0, seed);
            ++seed;
        }
        INFO(tensors << " tensors");
        checkBatch(layout, batch);
    }
}

TEST_CASE("tensors on several streams are read after their stream's work and before its next",
          "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    constexpr std::uint64_t kCount = 1 << 22;
    const auto data = test::healthData(DType::Float32, kCount, 3);
    const HealthCounts expected = countHealthReference(data.data(), DType::Float32, kCount);
    // Pinned, so that the copies are truly asynchronous.
    DeviceMemory staging(data.size(), test::Allocation::Pinned);
    std::memcpy(staging.data(), data.data(), data.size());

    test::Stream streams[3];
    std::vector<std::unique_ptr<DeviceMemory>> tensors;
    gpu::SummaryBatch batch;
    for (auto& stream : streams) {
        auto& t = tensors.emplace_back(std::make_unique<DeviceMemory>(data.size()));
        // Garbage first (0xff bytes are NaNs), then the values, both in the stream's order.
        NANSCOPE_CUDA_REQUIRE(cudaMemsetAsync(t->data(), 0xff, data.size(), stream.get()));
        NANSCOPE_CUDA_REQUIRE(cudaMemcpyAsync(t->data(), staging.data(), data.size(),
                                              cudaMemcpyHostToDevice, stream.get()));
        REQUIRE(batch.add({.data = t->data(), .count = kCount, .stream = stream.handle()}).ok());
    }
    REQUIRE(batch.submit().ok());
    // Overwritten right after the call, on each stream: the summary must not see it.
    for (std::size_t i = 0; i < 3; ++i)
        NANSCOPE_CUDA_REQUIRE(
            cudaMemsetAsync(tensors[i]->data(), 0xff, data.size(), streams[i].get()));
    REQUIRE(batch.wait().ok());
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(batch.counts(i) == expected);
    NANSCOPE_CUDA_REQUIRE(cudaDeviceSynchronize());
}

TEST_CASE("pinned and managed memory are read but pageable host memory is refused", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    constexpr std::uint64_t kCount = 100'001;
    const auto data = test::healthData(DType::Float16, kCount, 8);
    const HealthCounts expected = countHealthReference(data.data(), DType::Float16, kCount);
    for (const auto kind : {test::Allocation::Pinned, test::Allocation::Managed}) {
        DeviceMemory memory(data.size(), kind);
        std::memcpy(memory.data(), data.data(), data.size());
        gpu::SummaryBatch batch;
        REQUIRE(batch.add({.data = memory.data(), .dtype = DType::Float16, .count = kCount}).ok());
        REQUIRE(batch.submit().ok());
        REQUIRE(batch.wait().ok());
        CHECK(batch.counts(0) == expected);
    }

    // A pointer to pageable memory would make the kernel fault and poison the program's CUDA
    // context: it is refused before anything is launched.
    gpu::SummaryBatch batch;
    REQUIRE(batch.add({.data = data.data(), .dtype = DType::Float16, .count = kCount}).ok());
    const Status refused = batch.submit();
    CHECK(refused.code() == ErrorCode::InvalidArgument);
    CHECK(refused.message().find("not in device memory") != std::string::npos);
    NANSCOPE_CUDA_REQUIRE(cudaDeviceSynchronize()); // the context is healthy
}

TEST_CASE("a batch without values to read launches nothing", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    gpu::SummaryBatch batch;
    // SHAPE reads no values, so even a null pointer is fine.
    REQUIRE(batch.add({.data = nullptr, .count = 77}, TensorDebugMode::Shape).ok());
    REQUIRE(batch.add({.data = nullptr, .count = 0}, TensorDebugMode::FullHealth).ok());
    REQUIRE(batch.submit().ok());
    auto ready = batch.ready();
    REQUIRE(ready.ok());
    CHECK(*ready);
    // The same counts as a host batch: a size and no classes.
    HealthCounts shapeOnly;
    shapeOnly.size = 77;
    CHECK(batch.counts(0) == shapeOnly);
    CHECK(batch.counts(1) == HealthCounts{});
}

TEST_CASE("copyToHost reads device memory in stream order", "[gpu]")
{
    NANSCOPE_REQUIRE_DEVICE();
    const auto data = test::healthData(DType::Int32, 12345, 4);
    DeviceMemory memory(data.size());
    test::Stream stream;
    NANSCOPE_CUDA_REQUIRE(cudaMemsetAsync(memory.data(), 0, data.size(), stream.get()));
    NANSCOPE_CUDA_REQUIRE(cudaMemcpyAsync(memory.data(), data.data(), data.size(),
                                          cudaMemcpyHostToDevice, stream.get()));
    std::vector<unsigned char> back(data.size());
    REQUIRE(gpu::copyToHost(back.data(), memory.data(), back.size(), stream.handle()).ok());
    CHECK(back == data);
    CHECK(gpu::copyToHost(back.data(), data.data(), back.size(), nullptr).code() ==
          ErrorCode::InvalidArgument);
}

TEST_CASE("tensors above 2^31 elements are counted exactly", "[gpu][large]")
{
    NANSCOPE_REQUIRE_DEVICE();
    struct Case
    {
        DType dtype;
        std::uint64_t count;
    };
    for (const Case c :
         {Case{DType::Int8, (1ull << 31) + 33}, Case{DType::Float16, (1ull << 31) + 9}}) {
        const std::size_t bytes = static_cast<std::size_t>(c.count) * elementSize(c.dtype);
        if (test::freeDeviceMemory() < bytes + (std::size_t{1} << 30)) {
            WARN("SKIPPED: " << dtypeName(c.dtype) << " tensor of " << c.count
                             << " elements: not enough free device memory");
            continue;
        }
        // Generated in pieces (a repeated pattern with a different tail), so that the test does
        // not spend minutes on random numbers; the reference still reads every element.
        std::vector<unsigned char> host;
        try {
            host.resize(bytes);
        } catch (const std::bad_alloc&) {
            WARN("SKIPPED: " << dtypeName(c.dtype) << ": not enough host memory");
            continue;
        }
        const auto piece = test::healthData(c.dtype, 1 << 20, 17);
        for (std::size_t at = 0; at < bytes; at += piece.size())
            std::memcpy(host.data() + at, piece.data(), std::min(piece.size(), bytes - at));
        const auto tail = test::healthData(c.dtype, 1000, 18);
        std::memcpy(host.data() + bytes - tail.size(), tail.data(), tail.size());
        const HealthCounts expected = countHealthReference(host.data(), c.dtype, c.count);

        DeviceMemory memory(bytes);
        memory.upload(0, host.data(), bytes);
        host = {};
        gpu::SummaryBatch batch;
        REQUIRE(batch.add({.data = memory.data(), .dtype = c.dtype, .count = c.count}).ok());
        REQUIRE(batch.submit().ok());
        REQUIRE(batch.wait().ok());
        INFO(dtypeName(c.dtype));
        CHECK(batch.counts(0) == expected);
        CHECK(batch.counts(0).size == c.count);
    }
}
