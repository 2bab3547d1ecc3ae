// SPDX-License-Identifier: GPL-3.0-or-later
// The saved index ("sidecar"): a reader's state written to the user's cache directory, so that
// opening the same logdir again takes the time to map a file, not the time to read the logdir.
//
// A saved index is never trusted blindly. Every logdir file it read must be no shorter than what
// was read, and start and end, where it was read, with the same bytes (a checksum of up to 64 KiB
// at each end). A file that is not provably the one indexed (the same size, modification and
// change times, device and inode) must also hold the same bytes in every 1 MiB piece of what was
// read (their checksums are saved), but for the same file (device and inode) grown longer, which
// is compared in a sample of those pieces as large as what was appended (sampledPieces,
// indexcacheformat.hpp). The small files (source files, stack frames, graphs) are read
// again up to where the index stopped, so their tables are those of the files as they are now; the
// graphs must then come out with the same graphs and ops as saved. The big arrays (one entry per
// trace and per execution) are mapped from the saved file, each checked against its checksum and
// every index it holds against the size of what it indexes. Anything else is a cache miss: the
// logdir is read from the start, as if nothing had been saved. Data appended since the index was
// saved is read by the reader's next update, from where the index ends.
//
// Layout: a 64-byte header (magic, version, byte order, where the description is and its
// checksum), then each array (at a page boundary when it has whole chunks, which are mapped in
// place), then the description of everything else (indexarchive.hpp encoding), which also lists
// the arrays' extents with a checksum per 16 MiB block. A save after an append adds, past the
// end, one extent to each array (what it holds past the whole chunks the file has of it), a new
// description and then the header (appendIndexCache); the file is written whole again when
// another process changed it, or when what it no longer uses would pass half of what it uses.
#pragma once

#include "indexarchive.hpp"
#include "privatecopy.hpp"
#include "readerstate.hpp"
#include "threadpool.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace nanscope::core {

namespace indexfile {
struct ColumnEntry;
}

// A saved index file as a reader last knew it (ReaderState::savedIndex): its identity and size
// (an fstat), where its arrays lie, and whether its bytes are known good (checked whole by a
// load, now or by its record, or written by this process). A save appends to it (a new extent
// of each array past its whole chunks, a new description, the header last) while the file is
// still that one; otherwise, or when what it no longer uses would grow past half of what it
// uses, the save writes a new file whole.
struct SavedIndexFile
{
    std::filesystem::path path;
    struct stat identity
    {};
    std::vector<indexfile::ColumnEntry> columns; // in visitColumns order
    bool vouched = false;
};

// What a saved index is the index of: another logdir's, or the same one read with other
// options, is a miss.
struct IndexCacheKey
{
    std::string logdir; // absolute and normalised
    std::string runId;  // the run asked for (DiscoveryOptions::runId)
    std::uint64_t maxMemoryBytes = 0;
    std::string mainHost; // the host asked for (DiscoveryOptions::mainHost)

    friend bool operator==(const IndexCacheKey&, const IndexCacheKey&) = default;
};

// The saved index's file for `key` in `directory`: a hash of the key, so that any path fits.
std::filesystem::path indexCacheFile(const std::filesystem::path& directory,
                                     const IndexCacheKey& key);

// Writes `state` to `file`: appended to the file its savedIndex names when that is `file` and
// still as it was (`appended` then set; appendIndexCache), else whole, through a temporary file
// renamed over it, so that a reader that copies the old one keeps a whole file. False with
// `error` set when it cannot. state.savedIndex then names the file written. What was read of
// each logdir file and not yet checksummed is read, on `pool`, for its checksums
// (indexcacheformat.hpp). `analysis`: the index's origin and propagation as its snapshot worked
// them out (null: not known), with the expected patterns `patterns`.
struct SavedAnalysis
{
    const std::optional<Origin>* origin = nullptr;
    const Propagation* propagation = nullptr; // only with the origin
    std::span<const std::byte> walk;          // its walk's state (intentwalkstate.hpp), or none
};
bool saveIndexCache(ReaderState& state, const IndexCacheKey& key, SavedAnalysis analysis,
                    const std::vector<std::string>& patterns, const std::filesystem::path& file,
                    ThreadPool& pool, std::string& error, bool* appended = nullptr);

// Appends to `saved` what `state`'s arrays hold past the whole chunks the file has of each (one
// extent each), then `describe` (the description but for the arrays' entries) with the entries
// and `walk` (SavedAnalysis::walk), then the header, and updates `saved`. False, with the file
// still holding the index it held, when it cannot: the file is not exactly `saved` any more
// (another process saved or changed it, or holds its lock), the arrays do not extend what it holds,
// or what the file would no longer use would pass half of what it uses (a whole save compacts it).
bool appendIndexCache(const ReaderState& state, SavedIndexFile& saved,
                      const ArchiveWriter& describe, std::span<const std::byte> walk);

// Reads a saved index of the logdir at `logdir` (the path the reader was given) into `state`: a
// reader's state before its first update, with its settings (IndexState::files and the limits).
// True when it can be used; otherwise `why` says why not and `state` must be thrown away.
bool loadIndexCache(const std::filesystem::path& file, const IndexCacheKey& key,
                    const std::filesystem::path& logdir, const DiscoveryOptions& discovery,
                    ReaderState& state, ThreadPool& pool, std::string& why, bool checksums = true);

// The same from bytes held by `owner`; `copy`: the private copy they lie in (its file mappings'
// pages are released once checked, and read through its files by the checks), or null for bytes
// of the caller's. `checksums` false: see IndexCacheOptions::checksums. `trusted`: its trust
// record vouches for the bytes (indexcachetrust.hpp), so their checksums are not checked.
bool loadIndexCache(std::span<const std::byte> bytes, std::shared_ptr<const void> owner,
                    const PrivateCopy* copy, const IndexCacheKey& key,
                    const std::filesystem::path& logdir, const DiscoveryOptions& discovery,
                    ReaderState& state, ThreadPool& pool, std::string& why, bool checksums = true,
                    bool trusted = false);

// After saving `file`: waits until its times are safely past the save, then checks it whole as a
// load would, into `scratch` (a fresh state with the reader's settings, thrown away), so that it
// is noted as checked (indexcachetrust.hpp) and even the first reopen skips the array checks. On
// a file system that keeps times in whole seconds it leaves that to the next reopen.
void checkSavedIndexCache(const std::filesystem::path& file, const IndexCacheKey& key,
                          const std::filesystem::path& logdir, const DiscoveryOptions& discovery,
                          ReaderState scratch, ThreadPool& pool);

// After a save that appended to `saved`: once its times are safely past the save, notes it as
// checked (indexcachetrust.hpp) when its bytes were known good before (SavedIndexFile::vouched):
// what was appended was written from memory with its checksums, and the rest is as checked.
void noteAppendedIndexCache(const SavedIndexFile& saved);

// Deletes the least recently used saved indexes of `directory` beyond the newest `keepFiles`
// (the one just written, `keep`, always stays).
void pruneIndexCache(const std::filesystem::path& directory, std::size_t keepFiles,
                     const std::filesystem::path& keep);

} // namespace nanscope::core
