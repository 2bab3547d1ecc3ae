// SPDX-License-Identifier: GPL-3.0-or-later
// Memory in large pages: aligned to one, zeroed, usable to its last byte; the resource serves
// small requests from the default resource and large ones in large pages.
#include "largepages.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

using namespace nanscope::core;

namespace {

bool alignedToLargePage(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p) % kLargePageBytes == 0;
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
