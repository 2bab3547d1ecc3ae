// SPDX-License-Identifier: GPL-3.0-or-later
// What a saved index file holds, piece by piece (see indexcache.hpp for the whole): shared by the
// code that writes it (indexcachesave.cpp) and the code that reads it back (indexcacheload.cpp),
// so that the two cannot drift apart.
#pragma once

#include "indexarchive.hpp"
#include "indexcache.hpp"
#include "intentwalkstate.hpp"
#include "knownpropagation.hpp"
#include "threadpool.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nanscope::core::indexfile {

inline constexpr std::array<char, 8> kMagic{'N', 'a', 'N', 's', 'c', 'I', 'd', 'x'};
inline constexpr std::uint32_t kVersion = 7; // 2: origins set intended values aside; 3: files'
                                             // identities and content checksums; 4: the main
                                             // host asked for; 5: loss-scaled values, collective
                                             // origins' hint; 6: arrays in extents; 7: executions
                                             // awaiting stack frames, record problems per file
inline constexpr std::uint32_t kByteOrder =
    0x01020304; // reads otherwise on a machine of the other order
inline constexpr std::uint64_t kPage = 4096;
inline constexpr std::uint64_t kHeaderBytes = 64;
// How much of each end of a logdir file is compared: enough to tell another run's file, little
// enough to read in microseconds.
inline constexpr std::uint64_t kEndWindow = 64u << 10;
// What was read of each logdir file is checksummed in pieces of this size: checked on reopen
// whenever the file is not provably the one indexed (another size, times or inode).
inline constexpr std::uint64_t kContentChunk = 1u << 20;
// Arrays are checksummed in blocks of this size, so that checking spreads over the cores.
inline constexpr std::uint64_t kBlockBytes = 16u << 20;

// What an array's entries index, so that each is checked against the size of that.
enum class Bound : std::uint8_t { None, Ops, TraceDevices, Strings };

template <typename Columns, typename F>
void visitTraceColumns(Columns& t, const F& f)
{
    f(t.wallTime, Bound::None);
    f(t.offset, Bound::None);
    f(t.op, Bound::Ops);
    f(t.slot, Bound::None);
    f(t.mode, Bound::None);
    f(t.health, Bound::None);
    f(t.device, Bound::TraceDevices);
}

template <typename Columns, typename F>
void visitExecutionColumns(Columns& e, const F& f)
{
    f(e.wallTime, Bound::None);
    f(e.offset, Bound::None);
    f(e.opType, Bound::Strings);
    f(e.graphId, Bound::Strings);
    f(e.module, Bound::Strings);
    f(e.mode, Bound::None);
    f(e.health, Bound::None);
    f(e.idsBegin, Bound::None); // with the counts, against tensorIds (checkExecutions)
    f(e.inputCount, Bound::None);
    f(e.outputCount, Bound::None);
    f(e.healthBegin, Bound::None);
    f(e.healthCount, Bound::None);
    f(e.tensorIds, Bound::None);
    f(e.outputHealth, Bound::None);
}

// Every array of the index, in the order the file lists them.
template <typename State, typename F>
void visitColumns(State& s, const F& f)
{
    visitTraceColumns(s.index.traces, f);
    visitExecutionColumns(s.index.executions, f);
    for (auto& host : s.index.otherHostExecutions)
        visitExecutionColumns(host, f);
    f(s.index.traceAlerts, Bound::None); // checked whole (checkAlerts)
    f(s.index.executionAlerts, Bound::None);
}

// The graphs and ops, by id and name, in table order: what the traces' op ids point into. A
// graphs file read again must give the same, or the saved traces would name other ops.
std::uint64_t graphStructureHash(const GraphTable& graphs);

// The saved index's file name for a key.
std::uint64_t keyHash(const IndexCacheKey& key);

// Checksums of the first and last bytes of what was read of a logdir file.
struct EndChecksums
{
    std::uint32_t head = 0;
    std::uint32_t tail = 0;
    bool ok = false; // false: the bytes could not be read
};

EndChecksums endChecksums(const FileHandle& handle, std::uint64_t readTo);

// The checksums of a file's first bytes as they were checked (FileState::checkedContent): the
// whole pieces among them need not be read again.
struct CheckedContent
{
    const std::vector<std::uint32_t>* sums = nullptr; // contentChecksums of the first `bytes`
    std::uint64_t bytes = 0;
};

// CRC-32C of each kContentChunk bytes of the first `readTo` bytes of a file, read on `pool`'s
// threads and this one, but for the whole pieces of `known`; nullopt when they cannot all be read.
std::optional<std::vector<std::uint32_t>> contentChecksums(const FileHandle& handle,
                                                           std::uint64_t readTo, ThreadPool& pool,
                                                           CheckedContent known = {});

// A file that only grew since it was indexed (the same device and inode, longer than it was) is
// told from one rewritten in place by its ends and by a sample of its pieces, in proportion to
// the growth: as many pieces as were appended, at least kMinSampledPieces, spread evenly over what
// was read from a random start, and the last one. Reading every piece again would make a reopen
// after any append cost a first open; a follow session trusts what it read without any of this.
inline constexpr std::size_t kMinSampledPieces = 16;

// The pieces (indices among `pieces`, ascending, each once) a reopen compares after `grownBytes`
// were appended: all of them when the sample would be as many.
std::vector<std::size_t> sampledPieces(std::size_t pieces, std::uint64_t grownBytes);

// Whether each piece `which` names of the first `readTo` bytes still has its checksum in
// `expected` (contentChecksums of those bytes); false too when one cannot be read.
bool piecesMatch(const FileHandle& handle, std::uint64_t readTo,
                 const std::vector<std::uint32_t>& expected, const std::vector<std::size_t>& which,
                 ThreadPool& pool);

// A logdir file as a saved index describes it: what it was when saved, and the checksums of
// what was read of it.
struct FileStamp
{
    std::uint64_t size = 0;
    std::int64_t modified = 0;
    OpenFile::Identity identity; // changeTime 0: too recent to tell another write by
    EndChecksums ends;
    std::vector<std::uint32_t> content; // contentChecksums
};

// `handle`'s stamp, with the checksums of its first `readTo` bytes (those of `known` kept).
FileStamp stampOf(const FileHandle& handle, std::uint64_t readTo, ThreadPool& pool,
                  CheckedContent known = {});

// One logdir file as the index left it, and how to tell it is still the same file.
struct SavedFile : FileProgress
{
    FileStamp stamp; // the file when the index was saved

    bool wasRead() const { return !missing && openError.empty(); }
};

void putFile(ArchiveWriter& w, const FileState& f, const FileStamp& stamp);
SavedFile getFile(ArchiveReader& r);
void restoreFile(FileState& f, const SavedFile& s);

void putUnknowns(ArchiveWriter& w, const IndexState::Unknowns& u);
IndexState::Unknowns getUnknowns(ArchiveReader& r);
// The record problems, file by file; false (and failed) where a kept one is of another file.
void putRecordProblems(ArchiveWriter& w, const DiagnosticList& problems);
bool getRecordProblems(ArchiveReader& r, DiagnosticList& problems);
// The origin, when known (null: not), with the texts of the expected patterns it was found
// with (ReaderOptions::expected and the dump root's file: another list, another origin); on
// reading, nullopt when it was not known. Only the form is checked here; its event references
// are checked against the index (validOrigin).
struct SavedOrigin
{
    std::optional<Origin> origin;
    std::vector<std::string> patterns;
};
void putKnownOrigin(ArchiveWriter& w, const std::optional<Origin>* origin,
                    const std::vector<std::string>& patterns);
std::optional<SavedOrigin> getKnownOrigin(ArchiveReader& r);
// Whether every event and op the origin names is within the index.
bool validOrigin(const Origin& origin, const IndexState& index);

// The propagation (origin.hpp) of the index as saved, when the origin went along: its hop counts
// by event, what was set aside and the counts, so that a reopened index needs no walk over every
// event for them. Null: none saved.
void putKnownPropagation(ArchiveWriter& w, const Propagation* propagation);
// `maxEvents`: a bound on the events of the index (the file's size over the bytes each takes).
// The hop counts are checked here and decoded when first asked for, from the bytes `owner` keeps
// (knownpropagation.hpp). Null: none saved, or the archive failed.
std::shared_ptr<const KnownPropagation>
getKnownPropagation(ArchiveReader& r, std::uint64_t maxEvents, std::shared_ptr<const void> owner);
// The analysis's walk where it stopped (intentwalkstate.hpp), as bytes; none when empty. The
// description's last part, after the arrays' entries: an index saved without it (by a version
// before it) ends there and is read as one without a walk. Read back where they lie, kept by
// `owner`, and checked only when a walk resumes from them.
void putSavedWalk(ArchiveWriter& w, std::span<const std::byte> state);
std::shared_ptr<const intentwalk::SavedWalkState> getSavedWalk(ArchiveReader& r,
                                                               std::shared_ptr<const void> owner);
// The hop counts `hops` holds, as getKnownPropagation checked them.
// With room for `capacity` hops (at least hops.events), so that later ones are appended in place.
std::vector<std::uint16_t> decodeHops(const EncodedHops& hops, std::size_t capacity = 0);
// Whether it has one hop count per trace and execution of the index, and names events in it.
bool validPropagation(const KnownPropagation& propagation, const IndexState& index);

void putDiagnostic(ArchiveWriter& w, const Diagnostic& d);
Severity getSeverity(ArchiveReader& r);
Diagnostic getDiagnostic(ArchiveReader& r);

// A run of an array's entries in the file, and the checksum of each of its blocks.
struct Extent
{
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
    std::vector<std::uint32_t> blockChecksums;
};

// Where an array lies in the file: one extent when the file was written whole; a save that
// appends to the file (indexcacheappend.cpp) adds one after the whole chunks of the last. Every
// extent but the last holds whole chunks (ChunkedArray::kChunkSize entries each), so that the
// array's chunks map in place from each.
struct ColumnEntry
{
    std::uint32_t elementBytes = 0;
    std::vector<Extent> extents;

    std::uint64_t count() const;
    std::uint64_t bytes() const { return count() * elementBytes; }
};

void putColumnEntry(ArchiveWriter& w, const ColumnEntry& e);
ColumnEntry getColumnEntry(ArchiveReader& r);

// Where an extent of `count` entries starts: at a page boundary when it has whole chunks to map
// (or follows another extent), else where its type may lie (a small index stays small).
template <typename Array>
std::uint64_t extentAlignment(std::uint64_t count, bool alone)
{
    return count > Array::kChunkSize || !alone ? kPage : 8;
}

// Whether `e` can be the entry of an `Array` in a file of `fileBytes` bytes: its element size,
// each extent within the file and aligned, with a checksum per block, and every extent but the
// last of whole chunks.
template <typename Array>
bool extentsFit(const ColumnEntry& e, std::uint64_t fileBytes)
{
    using T = std::remove_cvref_t<decltype(std::declval<const Array&>()[0])>;
    if (e.elementBytes != sizeof(T) || e.extents.empty())
        return false;
    for (std::size_t k = 0; k < e.extents.size(); ++k) {
        const Extent& x = e.extents[k];
        const bool last = k + 1 == e.extents.size();
        const std::uint64_t room = fileBytes - std::min(fileBytes, x.offset);
        if (x.offset < kHeaderBytes ||
            x.offset % extentAlignment<Array>(x.count, e.extents.size() == 1) != 0 ||
            x.count > room / sizeof(T) ||
            x.blockChecksums.size() != (x.count * sizeof(T) + kBlockBytes - 1) / kBlockBytes ||
            (!last && (x.count == 0 || x.count % Array::kChunkSize != 0)))
            return false;
    }
    return true;
}

} // namespace nanscope::core::indexfile
