// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcachechecks.hpp"

#include "filepages.hpp"
#include "nanscope/format/crc32c.hpp"

#include <algorithm>
#include <cstring>

namespace nanscope::core::indexfile {

namespace {

// The largest entry of a block is below `bound`: one pass, in the entries' own width.
template <typename T>
bool entriesBelow(const std::byte* data, std::size_t bytes, std::uint64_t bound)
{
    const auto* p = reinterpret_cast<const T*>(data);
    T largest = 0;
    for (std::size_t i = 0; i < bytes / sizeof(T); ++i)
        largest = std::max(largest, p[i]);
    return bytes == 0 || largest < bound;
}

} // namespace

bool checkArrayBlock(const ArrayBlock& b, CheckedBytes how)
{
    if (how.fileMapping)
        mapFilePages(b.data, b.bytes);
    if (how.verifyChecksums && format::crc32c(b.data, b.bytes) != b.checksum)
        return false;
    if (b.bound > 0) {
        const bool ok = b.elementBytes == 2 ? entriesBelow<std::uint16_t>(b.data, b.bytes, b.bound)
                        : b.elementBytes == 4
                            ? entriesBelow<std::uint32_t>(b.data, b.bytes, b.bound)
                            : false;
        if (!ok)
            return false;
    }
    if (how.fileMapping)
        releaseFilePages(b.data, b.bytes);
    return true;
}

bool checkAlertRun(const AlertRun& run, CheckedBytes how)
{
    if (how.fileMapping)
        mapFilePages(run.alerts, run.count * sizeof(Alert));
    // Without an early exit, so that the loop has no branch to mispredict.
    bool bad = false;
    for (std::size_t i = 0; i < run.count; ++i) {
        const Alert& a = run.alerts[i];
        // Read as bytes: a bool holding 2 may not be loaded, nor an enum out of its range.
        std::uint8_t flag = 0;
        std::uint8_t counts = 0;
        std::memcpy(&flag, &a.invalidSummary, 1);
        std::memcpy(&counts, &a.counts, 1);
        bad |= (a.event.source != run.source) | (a.event.index >= run.events) | (flag > 1) |
               (counts > static_cast<std::uint8_t>(Alert::Counts::Integer));
    }
    if (how.fileMapping)
        releaseFilePages(run.alerts, run.count * sizeof(Alert));
    return !bad;
}

} // namespace nanscope::core::indexfile
