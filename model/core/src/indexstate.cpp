// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexstate.hpp"

#include <algorithm>
#include <unordered_map>

namespace nanscope::core {

void TraceColumns::resize(std::size_t n)
{
    forEachColumn([n](auto& column) { column.resize(n); });
}

void TraceColumns::reserve(std::size_t n)
{
    forEachColumn([n](auto& column) { column.reserve(n); });
}

void TraceColumns::sealBelow(std::size_t end)
{
    forEachColumn([end](auto& column) { column.sealBelow(end); });
}

void ExecutionColumns::sealFilled()
{
    forEachColumn([](auto& column) { column.sealBelow(column.size()); });
}

bool FileState::ensureOpen(const FileSystem& files)
{
    if (handle.isOpen())
        return true;
    if (files.kind(path) == FileSystem::Kind::Missing) {
        missing = true;
        openError.clear();
        return false;
    }
    missing = false;
    openError.clear();
    return handle.open(files, path, &openError);
}

void FileState::noteSkip(std::uint64_t begin, std::uint64_t end)
{
    if (skipped.size() < kMaxListedSkips) {
        skipped.push_back({begin, end, 0});
        return;
    }
    ++unlistedSkipCount;
    unlistedSkippedBytes += end - begin;
}

void FileState::noteRecordsRead(std::uint64_t count)
{
    if (unlistedSkipCount > 0)
        unlistedRecordsAfter += count;
    else if (!skipped.empty())
        skipped.back().recordsAfter += count;
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

const ExecutionColumns* Snapshot::Data::executionsOf(std::size_t host) const
{
    if (host == 0)
        return &executions;
    return host - 1 < otherHostExecutions.size() ? &otherHostExecutions[host - 1] : nullptr;
}

std::uint64_t IndexState::memoryBytes() const
{
    std::uint64_t otherHosts = 0;
    for (const auto& columns : otherHostExecutions)
        otherHosts += columns.bytes();
    return traces.bytes() + executions.bytes() + otherHosts +
           (traceAlerts.size() + executionAlerts.size()) * sizeof(Alert) + strings.approxBytes() +
           2 * (graphs.approxBytes() + code.approxBytes()) +
           segments.size() * sizeof(TraceSegment) +
           tracesOfUndeclaredOps.size() * (sizeof(OpId) + sizeof(std::uint64_t) + 16);
}

void IndexState::spillIfLarge(std::uint64_t bytesAhead)
{
    // About 26 index bytes per trace record of ~230 bytes, 60 to 100 per execution of ~700.
    constexpr std::uint64_t kRecordBytesPerIndexByte = 8;
    if (spillArena || spillDirectory.empty() || bytesAhead == 0 ||
        memoryBytes() + bytesAhead / kRecordBytesPerIndexByte < spillAboveBytes)
        return;
    spillArena = ChunkArena::create(spillDirectory);
    if (!spillArena) {
        spillDirectory.clear(); // cannot be made there: not asked again
        return;
    }
    traces.spillTo(spillArena);
    traceAlerts.spillTo(spillArena);
    executionAlerts.spillTo(spillArena);
    executions.spillTo(spillArena);
    for (auto& columns : otherHostExecutions)
        columns.spillTo(spillArena);
}

void IndexState::sealFinished(std::uint64_t traceEnd)
{
    if (!spillArena)
        return;
    traces.sealBelow(traceEnd);
    traceAlerts.sealBelow(traceAlerts.size());
    executionAlerts.sealBelow(executionAlerts.size());
    executions.sealFilled();
    for (auto& columns : otherHostExecutions)
        columns.sealFilled();
}

bool IndexState::wouldGrowPastLimit(std::uint64_t growth) const
{
    const std::uint64_t used = memoryBytes();
    return used > maxMemoryBytes || growth > maxMemoryBytes - used;
}

void IndexState::countOpsWithUnknownFrames()
{
    opsWithUnknownFrames = {};
    for (const auto& op : graphs.ops())
        for (const auto& id : op.stackFrameIds)
            if (!code.findFrame(id)) {
                opsWithUnknownFrames.note(id);
                break;
            }
}

void IndexState::recountExecutionsWithUnknownFrames()
{
    if (!executionsAwaitingFrames.complete())
        return;
    executionsWithUnknownFrames = {};
    executionsAwaitingFrames.resolve(code, [this](std::string_view frameId, std::uint64_t count) {
        executionsWithUnknownFrames.note(frameId, count);
    });
}

void IndexState::recountExecutionsOfUndeclaredGraphs()
{
    executionsOfUndeclaredGraphs = {};
    std::unordered_map<std::uint32_t, bool> undeclared; // by the graph id's StringPool id
    const auto count = [&](const ExecutionColumns& columns) {
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const std::uint32_t id = columns.graphId[i];
            if (id == 0)
                continue; // no graph
            const std::string& graphId = strings.strings()[id];
            auto [it, added] = undeclared.try_emplace(id, false);
            if (added) {
                const auto graph = graphs.findGraph(graphId);
                it->second = !graph || !graphs.graph(*graph).declared;
            }
            if (it->second)
                executionsOfUndeclaredGraphs.note(graphId);
        }
    };
    count(executions);
    for (const auto& columns : otherHostExecutions)
        count(columns);
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
