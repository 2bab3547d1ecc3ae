// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's function call window: per graph, its latest non-finite trace since the last
// execution.
#include "callwindow.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <utility>
#include <vector>

using namespace nanscope::core;
using namespace nanscope::core::intentwalk;

namespace {

std::vector<std::pair<GraphIndex, std::uint64_t>> entries(const CallWindow& window)
{
    std::vector<std::pair<GraphIndex, std::uint64_t>> out;
    window.forEach([&](GraphIndex g, std::uint64_t trace) { out.emplace_back(g, trace); });
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("the call window keeps each graph's latest trace until it is cleared", "[intent]")
{
    CallWindow window(4);
    CHECK(window.empty());
    window.set(2, 10);
    window.set(0, 11);
    window.set(2, 12); // a later trace of the same graph replaces the earlier
    window.set(4, 13); // not a graph of the table: never asked about
    window.set(kNoGraph, 14);
    CHECK_FALSE(window.empty());
    CHECK(entries(window) == std::vector<std::pair<GraphIndex, std::uint64_t>>{{0, 11}, {2, 12}});

    window.clear();
    CHECK(window.empty());
    CHECK(entries(window).empty());
    window.set(2, 20); // cleared, a graph is listed once again
    window.set(2, 21);
    CHECK(entries(window) == std::vector<std::pair<GraphIndex, std::uint64_t>>{{2, 21}});
}
