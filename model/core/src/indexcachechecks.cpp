// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcachechecks.hpp"

#include "nanscope/format/crc32c.hpp"
#include "threadscratch.hpp"

#include <algorithm>
#include <cstring>

namespace nanscope::core::indexfile {

namespace {

// Calls visit(piece, bytes) for [data, data + bytes) in pieces of whole elements of
// `elementBytes` (at most kThreadScratchBytes, aligned as any element: read into threadScratch(),
// which stays in the core's cache), read through `how.readThrough` when set. False when a read
// fails.
template <typename Visit>
bool forEachPiece(const std::byte* data, std::size_t bytes, std::size_t elementBytes,
                  CheckedBytes how, const Visit& visit)
{
    const PrivateCopy* copy = how.readThrough;
    if (!copy || !copy->fileBacked()) {
        visit(data, bytes);
        return true;
    }
    std::byte* piece = threadScratch().data();
    const std::size_t step = kThreadScratchBytes / elementBytes * elementBytes;
    const auto offset = static_cast<std::size_t>(data - copy->bytes().data());
    for (std::size_t done = 0; done < bytes; done += step) {
        const std::size_t n = std::min(step, bytes - done);
        if (!copy->read(offset + done, {piece, n}))
            return false;
        visit(piece, n);
    }
    return true;
}

// The largest entry of a block is below `bound`: one pass, in the entries' own width.
template <typename T>
T largestEntry(const std::byte* data, std::size_t bytes, T largest)
{
    const auto* p = reinterpret_cast<const T*>(data);
    for (std::size_t i = 0; i < bytes / sizeof(T); ++i)
        largest = std::max(largest, p[i]);
    return largest;
}

// Whether each entry of the alerts is possible; without an early exit, so that the loop has no
// branch to mispredict.
bool alertsPossible(const Alert* alerts, std::size_t count, const AlertRun& run)
{
    bool bad = false;
    for (std::size_t i = 0; i < count; ++i) {
        const Alert& a = alerts[i];
        // Read as bytes: a bool holding 2 may not be loaded, nor an enum out of its range.
        std::uint8_t flag = 0;
        std::uint8_t counts = 0;
        std::memcpy(&flag, &a.invalidSummary, 1);
        std::memcpy(&counts, &a.counts, 1);
        bad |= (a.event.source != run.source) | (a.event.index >= run.events) | (flag > 1) |
               (counts > static_cast<std::uint8_t>(Alert::Counts::Integer));
    }
    return !bad;
}

} // namespace

bool checkArrayBlock(const ArrayBlock& b, CheckedBytes how)
{
    if (b.bound > 0 && b.elementBytes != 2 && b.elementBytes != 4)
        return false;
    std::uint32_t crc = 0;
    std::uint32_t largest = 0;
    const std::size_t element = std::max<std::size_t>(b.elementBytes, 1);
    const bool read =
        forEachPiece(b.data, b.bytes, element, how, [&](const std::byte* p, std::size_t n) {
            if (how.verifyChecksums)
                crc = format::crc32cExtend(crc, p, n);
            if (b.bound > 0 && b.elementBytes == 2)
                largest = largestEntry<std::uint16_t>(p, n, static_cast<std::uint16_t>(largest));
            else if (b.bound > 0)
                largest = largestEntry<std::uint32_t>(p, n, largest);
        });
    return read && (!how.verifyChecksums || crc == b.checksum) &&
           (b.bound == 0 || b.bytes == 0 || largest < b.bound);
}

bool checkAlertRun(const AlertRun& run, CheckedBytes how)
{
    bool ok = true;
    const bool read = forEachPiece(
        reinterpret_cast<const std::byte*>(run.alerts), run.count * sizeof(Alert), sizeof(Alert),
        how, [&](const std::byte* p, std::size_t n) {
            ok = ok && alertsPossible(reinterpret_cast<const Alert*>(p), n / sizeof(Alert), run);
        });
    return read && ok;
}

} // namespace nanscope::core::indexfile
