// SPDX-License-Identifier: GPL-3.0-or-later
// A save that appends to the saved index the reader was loaded from, or last wrote
// (SavedIndexFile): each array's entries past the whole chunks the file holds of it, as one more
// extent, then a new description and the header, so that saving again after an append costs
// what was appended, not the whole index. The file is written in place: what it held stays where
// it was until the header, written last, points past it, so that a reader that copies it
// meanwhile gets the old index or the new one (or, torn between them, a checksum that fails: a
// miss). Whatever it no longer uses (old descriptions, the partial chunks written again) is
// bounded: past half of what it uses, the save writes the file whole instead.
#include "indexcache.hpp"
#include "indexcacheformat.hpp"
#include "indexcachetrust.hpp"
#include "sidecarfile.hpp"

#include <sys/file.h>

namespace nanscope::core {
namespace {

using namespace indexfile;

// CRC-32C of the bytes [begin, end) of `array`'s entries, read where they lie in memory.
template <typename T, unsigned B>
std::uint32_t checksumOfBytes(const ChunkedArray<T, B>& array, std::uint64_t begin,
                              std::uint64_t end)
{
    constexpr std::uint64_t kChunkBytes = ChunkedArray<T, B>::kChunkSize * sizeof(T);
    const std::uint64_t firstChunk = begin / kChunkBytes;
    std::uint64_t at = firstChunk * kChunkBytes; // where the next run starts
    std::uint32_t crc = 0;
    array.forEachRun(
        [&](const T* data, std::size_t n) {
            const std::uint64_t runEnd = at + n * sizeof(T);
            const std::uint64_t from = std::max(begin, at);
            const std::uint64_t to = std::min(end, runEnd);
            if (from < to)
                crc = format::crc32cExtend(crc, reinterpret_cast<const char*>(data) + (from - at),
                                           static_cast<std::size_t>(to - from));
            at = runEnd;
        },
        false, static_cast<std::size_t>(firstChunk * ChunkedArray<T, B>::kChunkSize));
    return crc;
}

// The extents of `saved` cut to its first `whole` entries, which the array still holds as the
// file does (the checksum of a block the cut falls in worked out again from memory).
template <typename T, unsigned B>
std::vector<Extent> keptExtents(const ColumnEntry& saved, const ChunkedArray<T, B>& array,
                                std::uint64_t whole)
{
    std::vector<Extent> kept;
    std::uint64_t first = 0; // the extent's first entry
    for (const Extent& x : saved.extents) {
        if (first >= whole)
            break;
        Extent k = x;
        k.count = std::min(x.count, whole - first);
        if (k.count < x.count) {
            const std::uint64_t bytes = k.count * sizeof(T);
            k.blockChecksums.resize(
                static_cast<std::size_t>((bytes + kBlockBytes - 1) / kBlockBytes));
            if (bytes % kBlockBytes != 0) {
                const std::uint64_t base = first * sizeof(T);
                k.blockChecksums.back() =
                    checksumOfBytes(array, base + (bytes - bytes % kBlockBytes), base + bytes);
            }
        }
        kept.push_back(std::move(k));
        first += x.count;
    }
    return kept;
}

// The whole chunks of each array the file holds, when every array extends what the file holds
// of it; with the bytes that would be written and those that would be kept.
struct Plan
{
    std::vector<std::uint64_t> whole; // by array, in visitColumns order
    std::uint64_t writtenBytes = 0;
    std::uint64_t keptBytes = 0;
};

std::optional<Plan> planAppend(const ReaderState& state, const SavedIndexFile& saved)
{
    Plan plan;
    bool fits = true;
    visitColumns(state, [&](const auto& column, Bound) {
        using Array = std::remove_cvref_t<decltype(column)>;
        using T = std::remove_cvref_t<decltype(column[0])>;
        const std::size_t i = plan.whole.size();
        plan.whole.push_back(0);
        if (i >= saved.columns.size() || saved.columns[i].elementBytes != sizeof(T) ||
            saved.columns[i].count() > column.size()) {
            fits = false;
            return;
        }
        const std::uint64_t count = saved.columns[i].count();
        plan.whole[i] = count - count % Array::kChunkSize;
        plan.keptBytes += plan.whole[i] * sizeof(T);
        plan.writtenBytes += (column.size() - plan.whole[i]) * sizeof(T) + kPage;
    });
    if (!fits || plan.whole.size() != saved.columns.size())
        return std::nullopt;
    return plan;
}

} // namespace

bool appendIndexCache(const ReaderState& state, SavedIndexFile& saved,
                      const ArchiveWriter& describe, std::span<const std::byte> walk)
{
    const auto plan = planAppend(state, saved);
    if (!plan)
        return false;
    const auto fileBytes = static_cast<std::uint64_t>(saved.identity.st_size);
    const std::uint64_t used =
        kHeaderBytes + plan->keptBytes + plan->writtenBytes + describe.bytes().size();
    const std::uint64_t after = fileBytes + plan->writtenBytes + describe.bytes().size();
    if (after - std::min(after, used) > used / 2)
        return false; // written whole, it sheds what it no longer uses

    int error = 0;
    const int fd = openCacheFileForWriting(saved.path, error);
    if (fd < 0)
        return false;
    SidecarFile out(fd, fileBytes); // closes it, and so unlocks it
    struct stat now
    {};
    // Another saver's lock, or any change since it was known (another process saved it whole,
    // or wrote it): the file is not the one `saved` describes.
    if (!out.ok() || ::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &now) != 0 ||
        !sameIdentity(now, saved.identity))
        return false;

    std::vector<ColumnEntry> columns;
    ArchiveWriter entries;
    std::size_t i = 0;
    visitColumns(state, [&](const auto& column, Bound) {
        using T = std::remove_cvref_t<decltype(column[0])>;
        const std::uint64_t whole = plan->whole[i];
        ColumnEntry e{static_cast<std::uint32_t>(sizeof(T)),
                      keptExtents(saved.columns[i], column, whole)};
        if (column.size() > whole || e.extents.empty())
            e.extents.push_back(
                out.extent(column, static_cast<std::size_t>(whole), e.extents.empty()));
        putColumnEntry(entries, e);
        columns.push_back(std::move(e));
        ++i;
    });
    putSavedWalk(entries, walk);
    out.padTo(8);
    const std::uint64_t describeOffset = out.position();
    out.write(describe.bytes().data(), describe.bytes().size());
    out.write(entries.bytes().data(), entries.bytes().size());
    const std::uint32_t checksum = format::crc32cExtend(
        format::crc32c(describe.bytes()), entries.bytes().data(), entries.bytes().size());
    out.writeHeader(describeOffset, describe.bytes().size() + entries.bytes().size(), checksum);
    if (!out.ok() || ::fstat(fd, &now) != 0)
        return false; // the header, written last, still names the old description
    saved.identity = now;
    saved.columns = std::move(columns);
    return true;
}

} // namespace nanscope::core
