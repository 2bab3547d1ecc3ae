// SPDX-License-Identifier: GPL-3.0-or-later
// The checksums that tell a logdir file is still the one a saved index read (indexcacheformat.hpp):
// its ends, its pieces, a sample of them for a file that grew, and its stamp.
#include "indexcacheformat.hpp"
#include "nanscope/format/crc32c.hpp"
#include "threadscratch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <random>

namespace nanscope::core::indexfile {

EndChecksums endChecksums(const FileHandle& handle, std::uint64_t readTo)
{
    static_assert(kEndWindow <= kThreadScratchBytes);
    EndChecksums sums;
    const auto buffer =
        threadScratch().first(static_cast<std::size_t>(std::min(readTo, kEndWindow)));
    if (handle.readAt(0, buffer.data(), buffer.size()) != buffer.size())
        return sums;
    sums.head = format::crc32c(buffer.data(), buffer.size());
    if (handle.readAt(readTo - buffer.size(), buffer.data(), buffer.size()) != buffer.size())
        return sums;
    sums.tail = format::crc32c(buffer.data(), buffer.size());
    sums.ok = true;
    return sums;
}

namespace {

// CRC-32C of each piece `which` names of the first `readTo` bytes, into sums[k], read on `pool`'s
// threads and this one; false when one cannot be read.
bool checksumPieces(const FileHandle& handle, std::uint64_t readTo,
                    const std::vector<std::size_t>& which, std::vector<std::uint32_t>& sums,
                    ThreadPool& pool)
{
    std::atomic<std::size_t> next{0};
    std::atomic<bool> bad{false};
    // A piece is read in parts the size of the thread's scratch buffer, its checksum extended.
    const auto crcOf = [&handle](std::uint64_t begin, std::uint64_t bytes, std::uint32_t& crc) {
        const std::span<std::byte> buffer = threadScratch();
        crc = 0;
        for (std::uint64_t done = 0; done < bytes; done += buffer.size()) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes - done));
            if (handle.readAt(begin + done, buffer.data(), n) != n)
                return false;
            crc = format::crc32cExtend(crc, buffer.data(), n);
        }
        return true;
    };
    const auto work = [&] {
        for (std::size_t i;
             !bad.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < which.size();) {
            const std::size_t k = which[i];
            const std::uint64_t begin = k * kContentChunk;
            if (!crcOf(begin, std::min(kContentChunk, readTo - begin), sums[k]))
                bad = true;
        }
    };
    const bool shared = which.size() > 1;
    if (shared)
        for (unsigned t = 0; t < pool.size(); ++t)
            pool.submit(work);
    work();
    if (shared)
        pool.wait();
    return !bad;
}

std::size_t piecesOf(std::uint64_t bytes)
{
    return static_cast<std::size_t>((bytes + kContentChunk - 1) / kContentChunk);
}

} // namespace

std::optional<std::vector<std::uint32_t>> contentChecksums(const FileHandle& handle,
                                                           std::uint64_t readTo, ThreadPool& pool,
                                                           CheckedContent known)
{
    const std::size_t chunks = piecesOf(readTo);
    std::vector<std::uint32_t> sums(chunks);
    // A piece known whole (not the last, partial one of what was checked) is not read again.
    std::size_t kept = 0;
    if (known.sums && known.bytes <= readTo && known.sums->size() == piecesOf(known.bytes)) {
        kept = static_cast<std::size_t>(known.bytes / kContentChunk);
        std::copy_n(known.sums->begin(), kept, sums.begin());
    }
    std::vector<std::size_t> rest(chunks - kept);
    std::iota(rest.begin(), rest.end(), kept);
    if (!checksumPieces(handle, readTo, rest, sums, pool))
        return std::nullopt;
    return sums;
}

std::vector<std::size_t> sampledPieces(std::size_t pieces, std::uint64_t grownBytes)
{
    const std::size_t wanted = std::max<std::size_t>(
        kMinSampledPieces, static_cast<std::size_t>(std::min<std::uint64_t>(
                               pieces, (grownBytes + kContentChunk - 1) / kContentChunk)));
    std::vector<std::size_t> which;
    if (wanted >= pieces) {
        which.resize(pieces);
        std::iota(which.begin(), which.end(), std::size_t{0});
        return which;
    }
    // Random, so that no rewrite can keep to the pieces a fixed rule would skip.
    std::random_device random;
    const double stride = static_cast<double>(pieces) / static_cast<double>(wanted);
    const double start = std::uniform_real_distribution<double>(0.0, stride)(random);
    for (std::size_t i = 0; i < wanted; ++i)
        which.push_back(std::min(
            pieces - 1, static_cast<std::size_t>(start + stride * static_cast<double>(i))));
    which.push_back(pieces - 1);
    std::sort(which.begin(), which.end());
    which.erase(std::unique(which.begin(), which.end()), which.end());
    return which;
}

bool piecesMatch(const FileHandle& handle, std::uint64_t readTo,
                 const std::vector<std::uint32_t>& expected, const std::vector<std::size_t>& which,
                 ThreadPool& pool)
{
    if (expected.size() != piecesOf(readTo))
        return false;
    std::vector<std::uint32_t> sums(expected.size());
    if (!checksumPieces(handle, readTo, which, sums, pool))
        return false;
    return std::all_of(which.begin(), which.end(),
                       [&](std::size_t k) { return k < sums.size() && sums[k] == expected[k]; });
}

FileStamp stampOf(const FileHandle& handle, std::uint64_t readTo, ThreadPool& pool,
                  CheckedContent known)
{
    FileStamp stamp;
    stamp.size = handle.size();
    stamp.modified = handle.modificationTime();
    stamp.identity = handle.identity();
    // A write within the tick of the file's last change would leave its times as they are (see
    // indexcachetrust.hpp): a change time that recent vouches for nothing.
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    const std::int64_t margin =
        stamp.identity.changeTime % 1'000'000'000 != 0 ? 50'000'000 : 2'000'000'000;
    if (stamp.identity.known() && now - stamp.identity.changeTime < margin)
        stamp.identity.changeTime = 0;
    stamp.ends = endChecksums(handle, readTo);
    if (auto content = contentChecksums(handle, readTo, pool, known))
        stamp.content = std::move(*content);
    else
        stamp.ends.ok = false;
    return stamp;
}

} // namespace nanscope::core::indexfile
