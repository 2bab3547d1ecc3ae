// SPDX-License-Identifier: GPL-3.0-or-later
// The health kernel's own code (gpu/src/cuda/healthcount.hpp) run on the CPU: every block and
// every thread of a grid, one after the other, with a fold that adds each thread's counters.
// It checks the bit arithmetic, the vector/head/tail split and the walk over chunks and tensors
// against the scalar reference on every machine, GPU or not; the [gpu] tests then check the
// same code on a device, with the real fold.
#include "cuda/healthcount.hpp"
#include "devicebatch.hpp"
#include "healthdata.hpp"
#include "nanscope/summary.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

using namespace nanscope;
using namespace nanscope::gpu::detail;

namespace {

struct HostFold
{
    std::vector<KernelCounts>& totals;

    void operator()(Counters& c, std::uint32_t slot)
    {
        KernelCounts& t = totals[slot];
        t.negativeInfinity += c.negativeInfinity;
        t.positiveInfinity += c.positiveInfinity;
        t.nan += c.nan;
        t.negativeFinite += c.negativeFinite;
        t.zero += c.zero;
        c = Counters{};
    }
};

struct Tensor
{
    DType dtype;
    std::uint64_t count;
    std::size_t offset; // in `memory`
    HealthCounts expected;
};

// Tensors laid out in one buffer (16-byte aligned), each at its own element offset.
struct Memory
{
    std::vector<unsigned char> bytes;
    std::vector<Tensor> tensors;

    void place(DType dtype, std::uint64_t count, std::size_t elementOffset, std::uint64_t seed)
    {
        const std::size_t size = elementSize(dtype);
        const std::size_t start = (bytes.size() + 255) / 256 * 256 + elementOffset * size;
        const auto data = test::healthData(dtype, count, seed);
        bytes.resize(start + data.size() + 64);
        if (!data.empty()) // memcpy's pointers must be valid even for 0 bytes
            std::memcpy(bytes.data() + start, data.data(), data.size());
        tensors.push_back({dtype, count, start, countHealthReference(data.data(), dtype, count)});
    }
};

// Runs the kernel's code for a grid of `blocks` over every tensor, as one launch.
std::vector<KernelCounts> emulate(const Memory& memory, std::uint64_t blocks)
{
    // Aligned like device memory: the vector split depends on the real addresses.
    std::vector<Words> aligned((memory.bytes.size() + 15) / 16);
    std::memcpy(aligned.data(), memory.bytes.data(), memory.bytes.size());
    const auto base = reinterpret_cast<std::uint64_t>(aligned.data());
    std::vector<KernelDescriptor> table;
    std::uint64_t chunks = 0;
    for (std::size_t i = 0; i < memory.tensors.size(); ++i) {
        const Tensor& t = memory.tensors[i];
        if (t.count > 0)
            chunks = appendTensor(table, chunks, base + t.offset, t.count, t.dtype,
                                  static_cast<std::uint32_t>(i));
    }
    std::vector<KernelCounts> totals(memory.tensors.size());
    HostFold fold{totals};
    for (std::uint64_t block = 0; block < blocks; ++block)
        for (std::uint32_t thread = 0; thread < kHealthThreads; ++thread)
            countBlock(table.data(), static_cast<std::uint32_t>(table.size()), chunks, block,
                       blocks, thread, fold);
    return totals;
}

void checkAgainstReference(const Memory& memory, std::uint64_t blocks)
{
    const auto totals = emulate(memory, blocks);
    for (std::size_t i = 0; i < memory.tensors.size(); ++i) {
        const Tensor& t = memory.tensors[i];
        const KernelCounts& k = totals[i];
        HealthCounts c;
        c.size = t.count;
        c.negativeInfinity = k.negativeInfinity;
        c.positiveInfinity = k.positiveInfinity;
        c.nan = k.nan;
        c.negativeFinite = k.negativeFinite;
        c.zero = k.zero;
        c.positiveFinite =
            t.count - k.negativeInfinity - k.positiveInfinity - k.nan - k.negativeFinite - k.zero;
        INFO(dtypeName(t.dtype) << " count " << t.count << " at byte " << t.offset << ", " << blocks
                                << " blocks");
        CHECK(c == t.expected);
    }
}

} // namespace

TEST_CASE("the kernel's code counts as the reference for every dtype, size and offset",
          "[emulation]")
{
    const auto sizes = test::edgeSizes(15);
    for (const DType dtype : test::kSummarisedDtypes) {
        Memory memory;
        const std::size_t size = elementSize(dtype);
        for (const std::uint64_t count : sizes)
            for (std::size_t offset = 0; offset * size < 16; ++offset)
                memory.place(dtype, count, offset, count * 17 + offset);
        // Few blocks (each walks many chunks and tensors) and many (most have nothing to do).
        for (const std::uint64_t blocks : {1, 7, 300})
            checkAgainstReference(memory, blocks);
    }
}

TEST_CASE("the kernel's code handles tensors of many chunks and every dtype in one launch",
          "[emulation]")
{
    Memory memory;
    std::mt19937_64 random(23);
    for (int i = 0; i < 200; ++i) {
        const DType dtype = test::kSummarisedDtypes[random() % test::kSummarisedDtypes.size()];
        const std::uint64_t count = i % 20 == 0 ? 200'000 + random() % 100'000 : random() % 5000;
        memory.place(dtype, count, random() % (16 / elementSize(dtype)), i);
    }
    for (const std::uint64_t blocks : {3, 64, 1056})
        checkAgainstReference(memory, blocks);
}

TEST_CASE("the kernel's lane arithmetic classifies every 16-bit pattern", "[emulation]")
{
    // All 65536 patterns of float16, bfloat16, int16 and uint16, in every lane position.
    for (const DType dtype : {DType::Float16, DType::BFloat16, DType::Int16, DType::UInt16}) {
        Memory memory;
        std::vector<unsigned char> all(65536 * 2);
        for (std::uint32_t v = 0; v < 65536; ++v) {
            all[2 * v] = static_cast<unsigned char>(v);
            all[2 * v + 1] = static_cast<unsigned char>(v >> 8);
        }
        for (std::size_t offset = 0; offset < 8; ++offset) {
            const std::size_t start = (memory.bytes.size() + 255) / 256 * 256 + offset * 2;
            memory.bytes.resize(start + all.size() + 64);
            std::memcpy(memory.bytes.data() + start, all.data(), all.size());
            memory.tensors.push_back(
                {dtype, 65536, start, countHealthReference(all.data(), dtype, 65536)});
        }
        checkAgainstReference(memory, 5);
    }
}
