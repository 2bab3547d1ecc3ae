// SPDX-License-Identifier: GPL-3.0-or-later
// What the analysis prepares beside its walk: work on a thread of its own (BackgroundTask), pages
// faulted in without a change to what they hold (populatePages), and the function call window
// kept by graph (CallWindow).
#include "backgroundtask.hpp"
#include "callwindow.hpp"
#include "filepages.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <thread>
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

TEST_CASE("a background task runs its work once, beside the caller or here", "[walkprep]")
{
    for (const bool beside : {true, false}) {
        std::vector<int> filled;
        std::thread::id ranOn;
        int runs = 0;
        {
            BackgroundTask task(
                [&] {
                    filled.assign(1000, 7);
                    ranOn = std::this_thread::get_id();
                    ++runs;
                },
                beside);
            task.wait();
            CHECK(runs == 1);
            CHECK(filled.size() == 1000);
            CHECK(std::all_of(filled.begin(), filled.end(), [](int v) { return v == 7; }));
            CHECK((ranOn != std::this_thread::get_id()) == beside);
            task.wait(); // a second wait returns at once
        }
        CHECK(runs == 1);
    }
}

TEST_CASE("a background task not waited for is finished by its destructor", "[walkprep]")
{
    std::vector<std::uint64_t> values;
    {
        BackgroundTask task([&] { values.assign(std::size_t{1} << 20, 3); }, true);
    }
    REQUIRE(values.size() == std::size_t{1} << 20);
    CHECK(values.back() == 3);
}

TEST_CASE("populating pages changes nothing they hold", "[walkprep]")
{
    // Whole pages and the partial ones at both ends, written before and after.
    std::vector<std::uint32_t> written(300'001);
    for (std::size_t i = 0; i < written.size(); ++i)
        written[i] = static_cast<std::uint32_t>(i * 2654435761u);
    const std::vector<std::uint32_t> before = written;
    populatePages(written.data() + 1, (written.size() - 2) * sizeof(std::uint32_t));
    CHECK(written == before);

    // Reserved, never written: the memory is still the vector's to fill.
    std::vector<std::uint64_t> reserved;
    reserved.reserve(1 << 20);
    populatePages(reserved.data(), reserved.capacity() * sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < 1000; ++i)
        reserved.push_back(i * 3);
    CHECK(reserved[999] == 2997);
    populatePages(nullptr, 0); // nothing to do
}

TEST_CASE("the call window keeps each graph's latest trace until it is cleared", "[walkprep]")
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
