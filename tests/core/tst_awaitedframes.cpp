// SPDX-License-Identifier: GPL-3.0-or-later
// The executions that await their stack frames: kept in read order, forgotten once their frames
// are known, bounded, and taken back from a saved index only when whole.
#include "awaitedframes.hpp"

#include <catch2/catch.hpp>
#include <utility>

using namespace nanscope::core;

namespace {

// A CodeLocation's bytes naming `frameIds` (field 2, repeated string).
std::string location(std::initializer_list<std::string> frameIds)
{
    std::string bytes;
    for (const std::string& id : frameIds) {
        bytes.push_back(static_cast<char>(2 << 3 | 2));
        bytes.push_back(static_cast<char>(id.size()));
        bytes += id;
    }
    return bytes;
}

CodeTable frames(std::initializer_list<std::string> ids)
{
    CodeTable code;
    for (const std::string& id : ids)
        code.addFrame({.id = id});
    return code;
}

using Runs = std::vector<std::pair<std::string, std::uint64_t>>;

Runs stillUnknown(AwaitedFrames& awaited, const CodeTable& code)
{
    Runs runs;
    awaited.resolve(code, [&runs](std::string_view id, std::uint64_t executions) {
        runs.emplace_back(std::string(id), executions);
    });
    return runs;
}

} // namespace

TEST_CASE("executions awaiting frames are recounted in read order as their frames arrive",
          "[awaitedframes]")
{
    AwaitedFrames awaited;
    for (const auto& frameIds :
         {location({"a", "b"}), location({"a", "b"}), location({"c"}), location({"a", "b"})})
        awaited.note(frameIds);
    CHECK(awaited.executions() == 4);

    CHECK(stillUnknown(awaited, frames({})) == Runs{{"a", 2}, {"c", 1}, {"a", 1}});
    // "a" known: the first unknown frame of the others' location is "b" now.
    CHECK(stillUnknown(awaited, frames({"a"})) == Runs{{"b", 2}, {"c", 1}, {"b", 1}});
    CHECK(stillUnknown(awaited, frames({"a", "b"})) == Runs{{"c", 1}});
    CHECK(awaited.executions() == 1);
    CHECK(stillUnknown(awaited, frames({"c"})).empty());
    CHECK(awaited.empty());
}

TEST_CASE("executions awaiting frames of too many locations stay counted as read",
          "[awaitedframes]")
{
    AwaitedFrames awaited;
    for (std::size_t i = 0; i < AwaitedFrames::kMaxLocations; ++i)
        awaited.note(location({"frame-" + std::to_string(i)}));
    awaited.note(location({"frame-0"})); // a location already kept
    CHECK(awaited.complete());
    CHECK(awaited.executions() == AwaitedFrames::kMaxLocations + 1);

    // Locations whose frames arrived no longer count towards the cap.
    AwaitedFrames resolved = awaited;
    (void)stillUnknown(resolved, frames({"frame-0"}));
    resolved.note(location({"one-more"}));
    CHECK(resolved.complete());
    CHECK(resolved.executions() == AwaitedFrames::kMaxLocations);

    awaited.note(location({"one-more"}));
    CHECK_FALSE(awaited.complete());
    CHECK(awaited.empty()); // nothing kept that could not be recounted whole
    awaited.note(location({"frame-1"}));
    CHECK(awaited.empty());
}

TEST_CASE("executions awaiting frames are saved and taken back only when whole",
          "[awaitedframes][indexcache]")
{
    AwaitedFrames awaited;
    awaited.note(location({"a"}));
    awaited.note(location({"b"}));
    awaited.note(location({"a"}));
    ArchiveWriter w;
    awaited.save(w);
    const std::string& saved = w.bytes();
    const auto bytes = std::as_bytes(std::span(saved.data(), saved.size()));

    AwaitedFrames loaded;
    ArchiveReader r(bytes);
    CHECK_FALSE(loaded.load(r, 2)); // it holds three
    r = ArchiveReader(bytes);
    REQUIRE(loaded.load(r, 3));
    CHECK(r.atEnd());
    CHECK(stillUnknown(loaded, frames({"b"})) == Runs{{"a", 1}, {"a", 1}});

    // Every cut is refused, and so is each byte changed where it names a location or a count.
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        ArchiveReader cut(bytes.first(size));
        CHECK_FALSE(loaded.load(cut, 3));
    }
    std::string runPastLocations = saved;
    runPastLocations[saved.size() - 12] = 7; // the last run's location index
    ArchiveReader past(std::as_bytes(std::span(runPastLocations.data(), runPastLocations.size())));
    CHECK_FALSE(loaded.load(past, 3));
}
