// SPDX-License-Identifier: GPL-3.0-or-later
// Memory in large pages: aligned to one, zeroed, usable to its last byte; the resource serves
// small requests from the default resource and large ones in large pages; read buffers in them.
#include "largepages.hpp"
#include "readbuffer.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace nanscope::core;

namespace {

bool alignedToLargePage(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p) % kLargePageBytes == 0;
}

// Whether the mapping holding `p` is advised for huge pages ("hg" among its VmFlags in
// /proc/self/smaps); nullopt where the system does not say.
std::optional<bool> advisedForHugePages(const void* p)
{
    std::ifstream smaps("/proc/self/smaps");
    if (!smaps)
        return std::nullopt;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    bool inside = false;
    std::string line;
    while (std::getline(smaps, line)) {
        unsigned long long begin = 0;
        unsigned long long end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= at && at < end;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line.find(" hg") != std::string::npos;
        }
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("large pages come aligned, zeroed and writable to the end of what was asked")
{
    for (const std::size_t bytes : {std::size_t{1}, kLargePageBytes, kLargePageBytes * 3 + 5}) {
        void* p = mapLargePages(bytes);
        REQUIRE(p != nullptr);
        CHECK(alignedToLargePage(p));
        auto* b = static_cast<unsigned char*>(p);
        CHECK(b[0] == 0);
        CHECK(b[bytes - 1] == 0);
        std::memset(b, 0xab, bytes);
        CHECK(b[bytes - 1] == 0xab);
        unmapLargePages(p, bytes);
    }
    const auto shared = allocateLargePages(100);
    CHECK(alignedToLargePage(shared.get()));
}

TEST_CASE("a request too large to map is refused as new would refuse it")
{
    CHECK_THROWS_AS(mapLargePages(SIZE_MAX - 10), std::bad_alloc);
    CHECK_THROWS_AS(mapLargePages(0), std::bad_alloc);
}

TEST_CASE("the large-page resource maps large requests only")
{
    std::pmr::memory_resource* r = largePageResource();
    void* large = r->allocate(kLargePageBytes + 1, 64);
    CHECK(alignedToLargePage(large));
    static_cast<char*>(large)[kLargePageBytes] = 1;
    r->deallocate(large, kLargePageBytes + 1, 64);

    // Small requests: 16 of them cannot all start large pages unless each took one.
    std::vector<void*> small;
    bool allAligned = true;
    for (int i = 0; i < 16; ++i) {
        small.push_back(r->allocate(64, 16));
        allAligned = allAligned && alignedToLargePage(small.back());
    }
    CHECK_FALSE(allAligned);
    for (void* p : small)
        r->deallocate(p, 64, 16);
    CHECK(r->is_equal(*largePageResource()));
    CHECK_FALSE(r->is_equal(*std::pmr::new_delete_resource()));
}

TEST_CASE("a read buffer keeps its bytes as it grows, in large pages from half of one up")
{
    ReadBuffer small;
    small.resize(100);
    std::memset(small.data(), 0x5a, small.size());
    small.resize(kLargePageBytes / 2); // grows into large pages
    CHECK(alignedToLargePage(small.data()));
    CHECK(small[0] == std::byte{0x5a});
    CHECK(small[99] == std::byte{0x5a});
    small[small.size() - 1] = std::byte{1}; // writable to its end
    small.resize(10);                       // shrinking keeps the bytes in place
    CHECK(small[9] == std::byte{0x5a});
    ReadBuffer tiny;
    tiny.resize(4096);
    CHECK(!alignedToLargePage(tiny.data())); // below half a large page: the heap's
    ReadBuffer moved = std::move(small);     // as the buffer pools pass them around
    CHECK(moved.size() == 10);
    CHECK(moved[0] == std::byte{0x5a});
}

TEST_CASE("an array filled in large pages holds its values, with the room asked for")
{
    constexpr std::size_t kCount = 3 * kLargePageBytes / sizeof(std::uint16_t) + 5;
    auto hops = filledInLargePages<std::uint16_t>(kCount, 0xfffe, kCount + 1000);
    REQUIRE(hops.size() == kCount);
    CHECK(hops.capacity() >= kCount + 1000);
    CHECK(hops.front() == 0xfffe);
    CHECK(hops.back() == 0xfffe);
    const auto* before = hops.data();
    hops.insert(hops.end(), 1000, 7); // within the room: no move
    CHECK(hops.data() == before);
    CHECK(hops[kCount - 1] == 0xfffe);
    CHECK(hops[kCount] == 7);
    CHECK(filledInLargePages<std::uint16_t>(0, 1).empty());
    adviseLargePages(nullptr, 0); // nothing to advise: no harm
    adviseLargePages(hops.data(), 10);
    CHECK(hops[3] == 0xfffe);
#if defined(__linux__)
    // The whole large pages inside its storage are advised, where the system says so.
    const auto* bytes = reinterpret_cast<const std::byte*>(hops.data());
    const auto misalignment = reinterpret_cast<std::uintptr_t>(bytes) % kLargePageBytes;
    const auto* inner = bytes + (misalignment == 0 ? 0 : kLargePageBytes - misalignment);
    if (const auto advised = advisedForHugePages(inner))
        CHECK(*advised);
#endif
}
