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
// the arrays with a checksum per 16 MiB block.
#pragma once

#include "readerstate.hpp"
#include "threadpool.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace nanscope::core {

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

// Writes `state` to `file` (through a temporary file renamed over it, so that a reader that
// maps the old one keeps a whole file). False with `error` set when it cannot. What was read of
// each logdir file is read again, on `pool`, for its checksums (indexcacheformat.hpp).
// `analysis`: the index's origin and propagation as its snapshot worked them out (null: not
// known), with the expected patterns `patterns`.
struct SavedAnalysis
{
    const std::optional<Origin>* origin = nullptr;
    const Propagation* propagation = nullptr; // only with the origin
};
bool saveIndexCache(const ReaderState& state, const IndexCacheKey& key, SavedAnalysis analysis,
                    const std::vector<std::string>& patterns, const std::filesystem::path& file,
                    ThreadPool& pool, std::string& error);

// Reads a saved index of the logdir at `logdir` (the path the reader was given) into `state`: a
// reader's state before its first update, with its settings (IndexState::files and the limits).
// True when it can be used; otherwise `why` says why not and `state` must be thrown away.
bool loadIndexCache(const std::filesystem::path& file, const IndexCacheKey& key,
                    const std::filesystem::path& logdir, const DiscoveryOptions& discovery,
                    ReaderState& state, ThreadPool& pool, std::string& why, bool checksums = true);

// The same from bytes held by `owner`; `mapped`: the bytes are a file mapping whose pages may be
// released once checked. `checksums` false: see IndexCacheOptions::checksums. `trusted`: its
// trust record vouches for the bytes (indexcachetrust.hpp), so their checksums are not checked.
bool loadIndexCache(std::span<const std::byte> bytes, std::shared_ptr<const void> owner,
                    bool mapped, const IndexCacheKey& key, const std::filesystem::path& logdir,
                    const DiscoveryOptions& discovery, ReaderState& state, ThreadPool& pool,
                    std::string& why, bool checksums = true, bool trusted = false);

// After saving `file`: waits until its times are safely past the save, then checks it whole as a
// load would, into `scratch` (a fresh state with the reader's settings, thrown away), so that it
// is noted as checked (indexcachetrust.hpp) and even the first reopen skips the array checks. On
// a file system that keeps times in whole seconds it leaves that to the next reopen.
void checkSavedIndexCache(const std::filesystem::path& file, const IndexCacheKey& key,
                          const std::filesystem::path& logdir, const DiscoveryOptions& discovery,
                          ReaderState scratch, ThreadPool& pool);

// Deletes the least recently used saved indexes of `directory` beyond the newest `keepFiles`
// (the one just written, `keep`, always stays).
void pruneIndexCache(const std::filesystem::path& directory, std::size_t keepFiles,
                     const std::filesystem::path& keep);

} // namespace nanscope::core
