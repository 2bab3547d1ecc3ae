// SPDX-License-Identifier: GPL-3.0-or-later
#include "recordresync.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace nanscope::core {
namespace {
constexpr std::size_t kWindowBytes = 1u << 20;
}

ResyncResult findNextRecord(const FileHandle& file, std::uint64_t from, std::uint64_t end,
                            const ResyncLimits& limits)
{
    ResyncResult result;
    // A position is ruled out for good when its length field fails, or its payload fails while
    // wholly present. The first one that more bytes could still make a record bounds searchedTo.
    std::optional<std::uint64_t> firstOpen;
    const auto finish = [&](std::uint64_t scannedTo) {
        result.searchedTo = std::min(firstOpen.value_or(scannedTo), scannedTo);
        return result;
    };
    std::uint64_t candidateBytes = 0;
    std::vector<std::byte> window;
    std::string payload;
    std::uint64_t base = from + 1;
    // Each window overlaps the next by a header, so that every position gets a whole header.
    while (base + format::kRecordOverhead <= end) {
        const auto want = static_cast<std::size_t>(
            std::min<std::uint64_t>(kWindowBytes + format::kRecordHeaderSize, end - base));
        window.resize(want);
        window.resize(file.readAt(base, window.data(), want));
        if (window.size() < format::kRecordHeaderSize)
            break; // the file shrank under us
        const std::size_t positions = window.size() - format::kRecordHeaderSize + 1;
        for (std::size_t i = 0; i < positions; ++i) {
            const std::uint64_t at = base + i;
            const auto header = format::parseRecordHeader(
                std::span(window).subspan(i, format::kRecordHeaderSize), end - at);
            if (header.payloadSize > limits.maxPayload)
                continue;
            if (header.status == format::RecordStatus::TruncatedTail && !firstOpen)
                firstOpen = at;
            if (header.status != format::RecordStatus::Ok)
                continue;
            candidateBytes += header.payloadSize;
            if (candidateBytes > limits.maxCandidateBytes) {
                result.gaveUp = true;
                return finish(at);
            }
            if (readRecordAt(file, at, payload, limits.maxPayload) == format::RecordStatus::Ok) {
                result.next = at;
                return finish(at);
            }
        }
        base += positions;
    }
    return finish(
        std::max(base, end > format::kRecordOverhead ? end - format::kRecordOverhead : 0));
}

} // namespace nanscope::core
