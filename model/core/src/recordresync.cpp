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
    std::uint64_t candidateBytes = 0;
    std::vector<std::byte> window;
    std::string payload;
    // Each window overlaps the next by a header, so that every position gets a whole header.
    for (std::uint64_t base = from + 1; base + format::kRecordOverhead <= end;) {
        const auto want = static_cast<std::size_t>(
            std::min<std::uint64_t>(kWindowBytes + format::kRecordHeaderSize, end - base));
        window.resize(want);
        window.resize(file.readAt(base, window.data(), want));
        if (window.size() < format::kRecordOverhead)
            return result;
        const std::size_t positions = window.size() - format::kRecordHeaderSize + 1;
        for (std::size_t i = 0; i < positions; ++i) {
            const std::uint64_t at = base + i;
            const auto header = format::parseRecordHeader(
                std::span(window).subspan(i, format::kRecordHeaderSize), end - at);
            if (header.status != format::RecordStatus::Ok || header.payloadSize > limits.maxPayload)
                continue;
            candidateBytes += header.payloadSize;
            if (candidateBytes > limits.maxCandidateBytes) {
                result.gaveUp = true;
                return result;
            }
            if (readRecordAt(file, at, payload, limits.maxPayload) == format::RecordStatus::Ok) {
                result.next = at;
                return result;
            }
        }
        base += positions;
    }
    return result;
}

} // namespace nanscope::core
