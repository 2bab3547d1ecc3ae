// SPDX-License-Identifier: GPL-3.0-or-later
// The checks of a saved index's arrays and alerts, on a private copy in memory and on one in
// files of the spill directory, which they read through the files piece by piece: every piece is
// checked, the last as the first, and what they read is the copy, not the file it was made from.
#include "indexcachechecks.hpp"
#include "nanscope/format/crc32c.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;
using namespace nanscope::core::indexfile;

namespace {

// Past four pieces of 256 KiB each, neither a whole number of them; the alerts after the ops
// aligned as a saved index aligns them.
constexpr std::size_t kOps = 300'008;
constexpr std::size_t kAlerts = 30'011;
static_assert(kOps * 4 % alignof(Alert) == 0 && kOps * 4 % (std::size_t{256} << 10) != 0);
constexpr std::uint64_t kOpBound = 1'000;
constexpr std::uint64_t kEvents = 50'000;

struct Arrays
{
    std::vector<std::uint32_t> ops;
    std::vector<Alert> alerts;
};

Arrays goodArrays()
{
    Arrays a;
    for (std::size_t i = 0; i < kOps; ++i)
        a.ops.push_back(static_cast<std::uint32_t>(i % kOpBound));
    for (std::size_t i = 0; i < kAlerts; ++i) {
        Alert alert;
        alert.event = {EventSource::Graph, i % kEvents};
        alert.counts = Alert::Counts::Float;
        a.alerts.push_back(alert);
    }
    return a;
}

std::string fileBytes(const Arrays& a)
{
    std::string bytes(a.ops.size() * 4 + a.alerts.size() * sizeof(Alert), '\0');
    std::memcpy(bytes.data(), a.ops.data(), a.ops.size() * 4);
    std::memcpy(bytes.data() + a.ops.size() * 4, a.alerts.data(), a.alerts.size() * sizeof(Alert));
    return bytes;
}

void write(const std::filesystem::path& file, const std::string& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::shared_ptr<const PrivateCopy> copyOf(const std::filesystem::path& file,
                                          const std::filesystem::path& spill, bool toFile)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    std::string why;
    auto copy =
        PrivateCopy::of(fd, std::filesystem::file_size(file), spill, toFile ? 0 : UINT64_MAX, why);
    ::close(fd);
    REQUIRE(copy);
    REQUIRE(copy->fileBacked() == toFile);
    return copy;
}

// Whether the op block and the alert run of `copy` pass, the op block's checksum being `crc`.
std::pair<bool, bool> checks(const PrivateCopy& copy, std::uint32_t crc, bool verifyChecksums)
{
    const std::byte* base = copy.bytes().data();
    const CheckedBytes how{.verifyChecksums = verifyChecksums, .readThrough = &copy};
    const ArrayBlock block{base, kOps * 4, crc, 4, kOpBound};
    const AlertRun run{reinterpret_cast<const Alert*>(base + kOps * 4), kAlerts, EventSource::Graph,
                       kEvents};
    return {checkArrayBlock(block, how), checkAlertRun(run, how)};
}

} // namespace

TEST_CASE("array and alert checks read every piece of the private copy, wherever it lies",
          "[indexcache]")
{
    test::TempDir dir;
    test::TempDir spill;
    const std::filesystem::path file = dir.path() / "index";
    const Arrays good = goodArrays();
    const std::uint32_t crc = format::crc32c(good.ops.data(), good.ops.size() * 4);
    for (const bool toFile : {false, true}) {
        INFO((toFile ? "into files" : "in memory"));
        write(file, fileBytes(good));
        const auto copy = copyOf(file, spill.path(), toFile);
        CHECK(checks(*copy, crc, true) == std::pair{true, true});
        CHECK(checks(*copy, crc ^ 1u, true) == std::pair{false, true});
        CHECK(checks(*copy, crc ^ 1u, false) == std::pair{true, true});

        // Damage in the last piece of each: an op past the bound, an event past the events.
        Arrays bad = good;
        bad.ops.back() = kOpBound;
        bad.alerts.back().event.index = kEvents;
        write(file, fileBytes(bad));
        const std::uint32_t badCrc = format::crc32c(bad.ops.data(), bad.ops.size() * 4);
        CHECK(checks(*copyOf(file, spill.path(), toFile), badCrc, true) == std::pair{false, false});
        // The copy made before is what its checks read.
        CHECK(checks(*copy, crc, true) == std::pair{true, true});

        // And in the first piece.
        bad = good;
        bad.ops.front() = kOpBound + 7;
        bad.alerts.front().event.source = EventSource::Eager;
        write(file, fileBytes(bad));
        CHECK(checks(*copyOf(file, spill.path(), toFile), crc, false) == std::pair{false, false});
    }
}
