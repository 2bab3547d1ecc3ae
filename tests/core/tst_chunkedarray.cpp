// SPDX-License-Identifier: GPL-3.0-or-later
// The index's append-only columns: a small first chunk that grows, copies that keep what they
// saw, and writers that stay valid once room is reserved.
#include "chunkedarray.hpp"
#include "largepages.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <vector>

using nanscope::core::ChunkedArray;

namespace {

using Column = ChunkedArray<std::uint64_t, 12>; // 4096-element chunks keep the test small
using nanscope::core::kLargePageBytes;
// A column's chunks in one run of large pages (chunkedarray.hpp).
constexpr std::size_t kChunkBytes = Column::kChunkSize * sizeof(std::uint64_t);
constexpr std::size_t kPerRun = kLargePageBytes / kChunkBytes;

void fill(Column& c, std::size_t from, std::size_t to)
{
    for (std::size_t i = from; i < to; ++i)
        c.mutableAt(i) = i * 7 + 1;
}

bool holdsFill(const Column& c, std::size_t to)
{
    for (std::size_t i = 0; i < to; ++i)
        if (c[i] != i * 7 + 1)
            return false;
    return true;
}

} // namespace

TEST_CASE("a column of a few elements holds a small first chunk, not a whole one")
{
    Column c;
    CHECK(c.capacityBytes() == 0);
    for (std::uint64_t i = 0; i < 10; ++i)
        c.push_back(i);
    CHECK(c.size() == 10);
    CHECK(c.capacityBytes() == Column::kFirstChunkMin * sizeof(std::uint64_t));
    CHECK(c.capacityBytes() < Column::kChunkSize * sizeof(std::uint64_t));
}

TEST_CASE("growing moves the first chunk with its elements, up to whole chunks after it")
{
    Column c;
    for (const std::size_t size : {1u, 300u, 1000u, 4096u, 4097u, 20000u}) {
        const std::size_t before = c.size();
        c.resize(size);
        fill(c, before, size);
        REQUIRE(holdsFill(c, size));
    }
    // One whole first chunk and four more: 20000 elements need five chunks of 4096.
    CHECK(c.capacityBytes() == 5 * Column::kChunkSize * sizeof(std::uint64_t));
}

TEST_CASE("a copy keeps the elements it saw while the original grows and is written")
{
    Column c;
    c.resize(100);
    fill(c, 0, 100);
    const Column snapshot = c;
    c.resize(3000); // moves the first chunk
    fill(c, 100, 3000);
    c.mutableAt(5) = 0; // a write the copy must not see (the reader never does this: test only)
    REQUIRE(snapshot.size() == 100);
    CHECK(holdsFill(snapshot, 100));
    CHECK(c[5] == 0);
    CHECK(c[2999] == 2999 * 7 + 1);
}

TEST_CASE("writers taken after a reservation stay valid while the size grows up to it")
{
    Column c;
    c.reserve(1500);
    c.resize(10);
    auto early = c.writer(0, 10);
    c.resize(1500); // within the reservation: nothing moves
    auto late = c.writer(10, 1500);
    for (std::size_t i = 0; i < 10; ++i)
        early[i] = i * 7 + 1;
    for (std::size_t i = 10; i < 1500; ++i)
        late[i] = i * 7 + 1;
    CHECK(holdsFill(c, 1500));
}

TEST_CASE("shrinking and growing again keeps the elements below the smaller size")
{
    Column c;
    c.resize(200);
    fill(c, 0, 200);
    c.resize(50);
    c.resize(9000);
    CHECK(holdsFill(c, 50));
    CHECK(c.size() == 9000);
}

TEST_CASE("adopted storage is used in place, its last chunk copied once the array grows")
{
    using Big = ChunkedArray<std::uint32_t, 8>; // chunks of 256
    auto storage = std::make_shared<std::vector<std::uint32_t>>(256 * 3 + 100);
    for (std::size_t i = 0; i < storage->size(); ++i)
        (*storage)[i] = static_cast<std::uint32_t>(i * 3);
    Big c;
    c.adopt(storage->data(), storage->size(), storage);
    REQUIRE(c.size() == storage->size());
    std::vector<const std::uint32_t*> runs;
    c.forEachRun([&](const std::uint32_t* run, std::size_t) { runs.push_back(run); });
    REQUIRE(runs.size() == 4);
    for (std::size_t k = 0; k < 4; ++k)
        CHECK(runs[k] == storage->data() + k * 256); // in place, the partial chunk too
    const Big published = c;                         // as a snapshot holds it
    c.push_back(7);
    runs.clear();
    c.forEachRun([&](const std::uint32_t* run, std::size_t) { runs.push_back(run); });
    REQUIRE(runs.size() == 4);
    CHECK(runs[2] == storage->data() + 2 * 256);
    CHECK(runs[3] != storage->data() + 3 * 256); // a copy: later entries go there
    for (std::size_t i = 0; i < storage->size(); ++i)
        REQUIRE(c[i] == i * 3);
    CHECK(c[storage->size()] == 7);
    CHECK((*storage)[storage->size() - 1] == (storage->size() - 1) * 3);
    CHECK(storage->size() < 256 * 4); // the element after the storage's was never written
    CHECK(published.size() == storage->size());
    CHECK(&published[storage->size() - 1] == storage->data() + storage->size() - 1);

    Big small; // at most a chunk: copied whole
    small.adopt(storage->data(), 10, storage);
    small.forEachRun([&](const std::uint32_t* run, std::size_t n) {
        CHECK(run != storage->data());
        CHECK(n == 10);
    });
    CHECK(small[9] == 27);
}

TEST_CASE("storage adopted in extents of whole chunks reads as one array")
{
    using Big = ChunkedArray<std::uint32_t, 8>; // chunks of 256
    // Two whole chunks in one place, then one whole and a partial one in another: a saved index
    // appended to holds an array so.
    auto first = std::make_shared<std::vector<std::uint32_t>>(2 * 256);
    auto second = std::make_shared<std::vector<std::uint32_t>>(256 + 40);
    for (std::size_t i = 0; i < first->size(); ++i)
        (*first)[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < second->size(); ++i)
        (*second)[i] = static_cast<std::uint32_t>(first->size() + i);
    Big c;
    c.adopt(first->data(), first->size(), first);
    c.adopt(second->data(), second->size(), second);
    REQUIRE(c.size() == first->size() + second->size());
    for (std::size_t i = 0; i < c.size(); ++i)
        REQUIRE(c[i] == i);
    std::vector<const std::uint32_t*> runs;
    c.forEachRun([&](const std::uint32_t* run, std::size_t) { runs.push_back(run); });
    REQUIRE(runs.size() == 4);
    CHECK(runs[0] == first->data()); // in place, from each
    CHECK(runs[1] == first->data() + 256);
    CHECK(runs[2] == second->data());
    CHECK(runs[3] == second->data() + 256); // the partial chunk too, until the array grows
    // From a chunk on, as a save that appends writes an array.
    std::vector<std::size_t> from;
    c.forEachRun([&](const std::uint32_t* run, std::size_t n) { from.push_back(*run + n); }, false,
                 512);
    CHECK(from == std::vector<std::size_t>{512 + 256, 768 + 40});

    Big exact; // an extent of exactly one chunk, copied, then one in place
    exact.adopt(first->data(), 256, first);
    exact.adopt(first->data() + 256, 256, first);
    for (std::size_t i = 0; i < exact.size(); ++i)
        REQUIRE(exact[i] == i);
}

TEST_CASE("chunks past a large page's worth are carved one after another from large pages")
{
    Column c;
    const std::size_t size = (2 * kPerRun + 3) * Column::kChunkSize;
    c.resize(size);
    fill(c, 0, size);
    CHECK(holdsFill(c, size));
    const auto address = [&](std::size_t chunk) {
        return reinterpret_cast<std::uintptr_t>(&c[chunk * Column::kChunkSize]);
    };
    // The first run starts once the array fills one: at chunk `kPerRun`, on a large page.
    CHECK(address(kPerRun) % kLargePageBytes == 0);
    for (std::size_t k = kPerRun + 1; k < 2 * kPerRun; ++k)
        CHECK(address(k) == address(k - 1) + kChunkBytes);
    CHECK(address(2 * kPerRun) % kLargePageBytes == 0); // the next run
}

TEST_CASE("a copy carves its chunks from runs of its own, never from the original's")
{
    Column c;
    const std::size_t size = (kPerRun + 1) * Column::kChunkSize; // a run begun, with room left
    c.resize(size);
    fill(c, 0, size);
    Column copy = c;
    copy.resize(size + Column::kChunkSize); // test only: the reader never grows a published copy
    c.resize(size + Column::kChunkSize);
    for (std::size_t i = size; i < size + Column::kChunkSize; ++i) {
        c.mutableAt(i) = 1;
        copy.mutableAt(i) = 2;
    }
    CHECK(&c[size] != &copy[size]);
    CHECK(c[size] == 1);
    CHECK(copy[size + Column::kChunkSize - 1] == 2);
    CHECK(holdsFill(copy, size));
}

TEST_CASE("giving back a run's uncarved pages keeps every element, and the array grows on")
{
    Column c;
    const std::size_t size = (kPerRun + 2) * Column::kChunkSize + 5;
    c.resize(size);
    fill(c, 0, size);
    c.releaseUncarvedRun();
    CHECK(holdsFill(c, size));
    const std::size_t grown = size + 4 * Column::kChunkSize;
    c.resize(grown);
    fill(c, size, grown);
    CHECK(holdsFill(c, grown));
    Column empty;
    empty.releaseUncarvedRun(); // no run: nothing to give back
    CHECK(empty.size() == 0);
}

TEST_CASE("an adopted array takes large pages only once it has made a run's worth of chunks")
{
    // More whole chunks than a run holds, and a partial one: as a saved index of a large array.
    auto storage =
        std::make_shared<std::vector<std::uint64_t>>((kPerRun + 1) * Column::kChunkSize + 10);
    for (std::size_t i = 0; i < storage->size(); ++i)
        (*storage)[i] = i * 7 + 1;
    Column c;
    c.adopt(storage->data(), storage->size(), storage);
    const auto address = [&](std::size_t chunk) {
        return reinterpret_cast<std::uintptr_t>(&c[chunk * Column::kChunkSize]);
    };
    const std::size_t partial = kPerRun + 1;
    CHECK(&c[partial * Column::kChunkSize] == storage->data() + partial * Column::kChunkSize);
    const std::size_t grown = (partial + kPerRun) * Column::kChunkSize + 1;
    const std::size_t before = c.size();
    c.resize(grown);
    fill(c, before, grown);
    CHECK(holdsFill(c, grown));
    for (std::size_t i = partial * Column::kChunkSize; i < before; ++i)
        REQUIRE(c[i] == i * 7 + 1);
    CHECK(address(partial) % kLargePageBytes != 0); // copied into a small chunk, not a whole run
    // The partial chunk was the first this array made; the run-th it makes starts a run.
    CHECK(address(partial + kPerRun - 1) % kLargePageBytes == 0);
}

TEST_CASE("an array that takes large pages early carves from its second whole chunk on")
{
    Column c;
    c.takeLargePagesEarly();
    const std::size_t size = (kPerRun + 4) * Column::kChunkSize;
    c.resize(size);
    fill(c, 0, size);
    CHECK(holdsFill(c, size));
    const auto address = [&](std::size_t chunk) {
        return reinterpret_cast<std::uintptr_t>(&c[chunk * Column::kChunkSize]);
    };
    // Chunk 0, the first, grew whole in small pages; a run begins at chunk 1, where by default
    // it would begin at chunk `kPerRun`.
    CHECK(address(0) % kLargePageBytes != 0);
    CHECK(address(1) % kLargePageBytes == 0);
    CHECK(address(2) == address(1) + kChunkBytes);
    CHECK(address(1 + kPerRun) % kLargePageBytes == 0);
    // The partial chunk an adopted array copies is its first in small pages.
    const auto storage = std::make_shared<std::vector<std::uint64_t>>(2 * Column::kChunkSize + 7);
    for (std::size_t i = 0; i < storage->size(); ++i)
        (*storage)[i] = i * 7 + 1;
    Column adopted;
    adopted.takeLargePagesEarly();
    adopted.adopt(storage->data(), storage->size(), storage);
    adopted.resize(4 * Column::kChunkSize);
    const auto adoptedAt = [&](std::size_t chunk) {
        return reinterpret_cast<std::uintptr_t>(&adopted[chunk * Column::kChunkSize]);
    };
    CHECK(adoptedAt(2) % kLargePageBytes != 0);
    CHECK(adoptedAt(3) % kLargePageBytes == 0);
    CHECK(adopted[2 * Column::kChunkSize + 6] == (2 * Column::kChunkSize + 6) * 7 + 1);
    Column copy = c;                        // keeps the choice, in a run of its own
    copy.resize(size + Column::kChunkSize); // test only: the reader never grows a copy
    CHECK(reinterpret_cast<std::uintptr_t>(&copy[size]) % kLargePageBytes == 0);
}
