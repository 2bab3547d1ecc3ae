// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcacheformat.hpp"

#include "nanscope/format/crc32c.hpp"

#include <algorithm>

namespace nanscope::core::indexfile {
namespace {

std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes)
{
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

template <typename T>
std::uint64_t fnv1aValue(std::uint64_t hash, T value)
{
    return fnv1a(hash, {reinterpret_cast<const char*>(&value), sizeof value});
}

constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;

} // namespace

std::uint64_t graphStructureHash(const GraphTable& graphs)
{
    std::uint64_t h = fnv1aValue(kFnvBasis, graphs.graphs().size());
    for (const auto& g : graphs.graphs())
        h = fnv1aValue(fnv1a(fnv1aValue(h, g.id.size()), g.id), g.declared);
    h = fnv1aValue(h, graphs.ops().size());
    for (const auto& op : graphs.ops())
        h = fnv1aValue(fnv1a(fnv1aValue(fnv1aValue(h, op.graph), op.name.size()), op.name),
                       op.declared);
    return h;
}

EndChecksums endChecksums(const FileHandle& handle, std::uint64_t readTo)
{
    EndChecksums sums;
    std::vector<std::byte> buffer(static_cast<std::size_t>(std::min(readTo, kEndWindow)));
    if (handle.readAt(0, buffer.data(), buffer.size()) != buffer.size())
        return sums;
    sums.head = format::crc32c(buffer.data(), buffer.size());
    if (handle.readAt(readTo - buffer.size(), buffer.data(), buffer.size()) != buffer.size())
        return sums;
    sums.tail = format::crc32c(buffer.data(), buffer.size());
    sums.ok = true;
    return sums;
}

void putFile(ArchiveWriter& w, const FileState& f, const EndChecksums& sums)
{
    w.put<std::uint8_t>(f.missing);
    w.put(f.openError);
    w.put(f.offset);
    w.put(f.size);
    w.put(static_cast<std::uint8_t>(f.stop));
    w.put<std::uint8_t>(f.memoryLimited);
    w.count(f.skipped.size());
    for (const auto& s : f.skipped) {
        w.put(s.begin);
        w.put(s.end);
        w.put(s.recordsAfter);
    }
    w.put(f.unlistedSkipCount);
    w.put(f.unlistedSkippedBytes);
    w.put(f.unlistedRecordsAfter);
    w.put<std::uint8_t>(f.tensorBoardStop.has_value());
    w.put(f.tensorBoardStop.value_or(0));
    w.put<std::uint8_t>(f.resyncGaveUp);
    w.put(f.resyncOffset);
    w.put(f.resyncSearchedTo);
    w.put(f.handle.size());
    w.put(f.handle.modificationTime());
    w.put(sums.head);
    w.put(sums.tail);
}

SavedFile getFile(ArchiveReader& r)
{
    SavedFile f;
    f.missing = r.getBool();
    f.openError = r.getString();
    f.offset = r.get<std::uint64_t>();
    f.size = r.get<std::uint64_t>();
    f.stop = r.get<std::uint8_t>();
    if (f.stop > static_cast<std::uint8_t>(format::RecordStatus::TooLarge))
        r.fail();
    f.memoryLimited = r.getBool();
    const std::size_t skips = r.count(24);
    if (skips > FileState::kMaxListedSkips)
        r.fail();
    for (std::size_t i = 0; i < skips && r.ok(); ++i) {
        FileState::SkippedRange s;
        s.begin = r.get<std::uint64_t>();
        s.end = r.get<std::uint64_t>();
        s.recordsAfter = r.get<std::uint64_t>();
        if (s.end < s.begin)
            r.fail();
        f.skipped.push_back(s);
    }
    f.unlistedSkipCount = r.get<std::uint64_t>();
    f.unlistedSkippedBytes = r.get<std::uint64_t>();
    f.unlistedRecordsAfter = r.get<std::uint64_t>();
    const bool hasStop = r.getBool();
    const auto stop = r.get<std::uint64_t>();
    if (hasStop)
        f.tensorBoardStop = stop;
    f.resyncGaveUp = r.getBool();
    f.resyncOffset = r.get<std::uint64_t>();
    f.resyncSearchedTo = r.get<std::uint64_t>();
    f.stampSize = r.get<std::uint64_t>();
    f.stampTime = r.get<std::int64_t>();
    f.headChecksum = r.get<std::uint32_t>();
    f.tailChecksum = r.get<std::uint32_t>();
    return f;
}

void restoreFile(FileState& f, const SavedFile& s)
{
    f.missing = s.missing;
    f.openError = s.openError;
    f.offset = s.offset;
    f.size = s.size;
    f.stop = static_cast<format::RecordStatus>(s.stop);
    f.memoryLimited = s.memoryLimited;
    f.skipped = s.skipped;
    f.unlistedSkipCount = s.unlistedSkipCount;
    f.unlistedSkippedBytes = s.unlistedSkippedBytes;
    f.unlistedRecordsAfter = s.unlistedRecordsAfter;
    f.tensorBoardStop = s.tensorBoardStop;
    f.resyncGaveUp = s.resyncGaveUp;
    f.resyncOffset = s.resyncOffset;
    f.resyncSearchedTo = s.resyncSearchedTo;
}

void putUnknowns(ArchiveWriter& w, const IndexState::Unknowns& u)
{
    w.put(u.count);
    w.put(u.first);
}

IndexState::Unknowns getUnknowns(ArchiveReader& r)
{
    IndexState::Unknowns u;
    u.count = r.get<std::uint64_t>();
    u.first = r.getString();
    return u;
}

void putDiagnostic(ArchiveWriter& w, const Diagnostic& d)
{
    w.put(static_cast<std::uint8_t>(d.severity));
    w.put(d.file);
    w.put<std::uint8_t>(d.offset.has_value());
    w.put(d.offset.value_or(0));
    w.put(d.message);
}

Severity getSeverity(ArchiveReader& r)
{
    const auto s = r.get<std::uint8_t>();
    if (s > static_cast<std::uint8_t>(Severity::Error))
        r.fail();
    return static_cast<Severity>(s);
}

Diagnostic getDiagnostic(ArchiveReader& r)
{
    Diagnostic d;
    d.severity = getSeverity(r);
    d.file = r.getString();
    const bool hasOffset = r.getBool();
    const auto offset = r.get<std::uint64_t>();
    if (hasOffset)
        d.offset = offset;
    d.message = r.getString();
    return d;
}

std::uint64_t keyHash(const IndexCacheKey& key)
{
    std::uint64_t h = fnv1a(kFnvBasis, key.logdir);
    h = fnv1a(fnv1aValue(h, '\0'), key.runId);
    return fnv1aValue(h, key.maxMemoryBytes);
}

} // namespace nanscope::core::indexfile
