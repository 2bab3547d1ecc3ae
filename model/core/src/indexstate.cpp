#include "indexstate.hpp"

#include <algorithm>

namespace nanscope::core {

void TraceColumns::resize(std::size_t n)
{
    wallTime.resize(n);
    offset.resize(n);
    op.resize(n);
    slot.resize(n);
    mode.resize(n);
    health.resize(n);
}

std::uint64_t TraceColumns::bytes() const
{
    return wallTime.usedBytes() + offset.usedBytes() + op.usedBytes() + slot.usedBytes() +
           mode.usedBytes() + health.usedBytes();
}

std::uint64_t ExecutionColumns::bytes() const
{
    return wallTime.usedBytes() + offset.usedBytes() + opType.usedBytes() + graphId.usedBytes() +
           mode.usedBytes() + health.usedBytes() + idsBegin.usedBytes() + inputCount.usedBytes() +
           outputCount.usedBytes() + healthBegin.usedBytes() + healthCount.usedBytes() +
           tensorIds.usedBytes() + outputHealth.usedBytes();
}

bool FileState::ensureOpen()
{
    if (handle.isOpen())
        return true;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        missing = true;
        openError.clear();
        return false;
    }
    missing = false;
    openError.clear();
    return handle.open(path, &openError);
}

std::filesystem::path Snapshot::Data::traceFile(std::uint32_t fileIndex) const
{
    return layout->fileSets[fileIndex].file(kTracesSuffix);
}

std::filesystem::path Snapshot::Data::mainFile(std::string_view suffix) const
{
    return layout->fileSets.front().file(suffix);
}

std::uint32_t Snapshot::Data::traceFileIndex(std::uint64_t traceIndex) const
{
    auto it =
        std::upper_bound(segments.begin(), segments.end(), traceIndex,
                         [](std::uint64_t i, const TraceSegment& s) { return i < s.firstIndex; });
    return it == segments.begin() ? 0 : std::prev(it)->fileIndex;
}

void IndexState::appendTraceSegment(std::uint32_t fileIndex, std::uint64_t firstIndex)
{
    if (!segments.empty() && segments.back().fileIndex == fileIndex)
        return;
    if (!segments.empty() && segments.back().firstIndex == firstIndex) {
        segments.back().fileIndex = fileIndex; // the previous segment got no traces
        return;
    }
    segments.push_back({firstIndex, fileIndex});
}

} // namespace nanscope::core
