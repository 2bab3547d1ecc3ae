// SPDX-License-Identifier: GPL-3.0-or-later
// Reads a tfdbg2 logdir incrementally and publishes immutable snapshots of what it knows.
//
//   nanscope::core::LogdirReader reader("/tmp/tfdbg2_logdir");
//   auto snapshot = reader.update();          // reads everything there is
//   ...                                       // later, while the program keeps writing:
//   snapshot = reader.update();               // reads only what was appended
//
// Reading follows TensorFlow's DebugDataReader.update() (format §8.3), so indices, counts and
// alert order are TensorFlow's; where TensorFlow gives up (an unknown op in a trace, a duplicate
// op name, a frame read before its file, mixed run ids) NaNscope keeps going and says why in
// Snapshot::diagnostics().
//
// Thread safety: update() may be called from one thread at a time (a worker thread, typically);
// latest() may be called from any thread at any time.
#pragma once

#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/core/snapshot.hpp"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>

namespace nanscope::core {

// The default of ReaderOptions::maxMemoryBytes: about 130 million traces' worth of index.
inline constexpr std::uint64_t kDefaultMaxMemoryBytes = std::uint64_t{4} << 30;

// A saved index of the logdir (a "sidecar", see indexcache.hpp) in the user's cache directory,
// never in the logdir, which may be read-only: reopening an unchanged logdir then takes
// milliseconds whatever its size, and one that grew is read from where the index ends.
struct IndexCacheOptions
{
    // Where saved indexes go; empty: none is read or written.
    std::filesystem::path directory;
    // Logdirs that hold less than this are read about as fast as an index: none is saved.
    std::uint64_t minLogdirBytes = std::uint64_t{64} << 20;
    // Saved indexes kept in the directory, the least recently used deleted first.
    std::size_t maxFiles = 8;
    // Off only in the fuzz target, whose made-up indexes must get past the checksums to reach
    // the checks behind them (every count and index against what it counts and indexes).
    bool checksums = true;
};

// $XDG_CACHE_HOME/nanscope/index, or ~/.cache/nanscope/index; empty when neither can be told.
std::filesystem::path defaultIndexCacheDirectory();

// A large index keeps its per-trace and per-execution arrays in an unnamed file of this
// directory, mapped into memory: the pages it has finished writing leave the process's resident
// set for the page cache, which the system can write out and reclaim, so that a logdir of 10^8
// traces opens in a fraction of its index's size of RAM (what the views look at comes back).
struct SpillOptions
{
    // Empty: the arrays stay in memory. The directory should be on a disk, not a RAM file system.
    std::filesystem::path directory;
    // Indexes expected to stay below this many bytes keep their arrays in memory.
    std::uint64_t aboveBytes = std::uint64_t{256} << 20;
};

// $XDG_CACHE_HOME/nanscope/columns, or ~/.cache/nanscope/columns; empty when neither can be told.
std::filesystem::path defaultSpillDirectory();

struct ReaderOptions
{
    DiscoveryOptions discovery;
    // Threads that decode trace files while the updating thread reads them; 0: one per
    // hardware thread, less the reading one (at least one).
    unsigned threads = 0;
    // Whether those threads yield to the program's others (yieldToInteractiveThreads): set by an
    // interactive program, whose GUI thread must not wait for a core while a logdir loads.
    bool backgroundThreads = false;
    // The most memory the index may take: the per-trace and per-execution arrays, the strings,
    // the graph and code tables and the alerts. Reading stops before a record that would pass it,
    // with an error diagnostic; a record longer than a quarter of it is never read (its length
    // field alone must not decide an allocation). Later updates try again.
    std::uint64_t maxMemoryBytes = kDefaultMaxMemoryBytes;
    IndexCacheOptions indexCache;
    SpillOptions spill;
    // Non-finite values the user expects (nanscope-report --expect, the app's "Treat as
    // expected"): set aside as intended, as are the patterns of the dump root's
    // kExpectedFileName, which the reader reads at each update.
    std::vector<ExpectedPattern> expected;
};

struct UpdateLimits
{
    // Stop reading trace files after about this many bytes; the snapshot then says
    // complete() == false and the next update() goes on (for progress on very large logdirs).
    std::uint64_t maxTraceBytes = std::numeric_limits<std::uint64_t>::max();
};

class LogdirReader
{
public:
    explicit LogdirReader(std::filesystem::path path, ReaderOptions options = {});
    ~LogdirReader();
    LogdirReader(const LogdirReader&) = delete;
    LogdirReader& operator=(const LogdirReader&) = delete;

    // Reads what was appended since the last call and returns the new snapshot (the previous
    // one when nothing changed).
    std::shared_ptr<const Snapshot> update(const UpdateLimits& limits = {});

    // Saves the index for the next reader of this logdir (IndexCacheOptions), when it changed
    // since it was read or saved and the logdir is large enough; takes about a second per
    // 10^7 traces, so call it once a load is complete, off any GUI thread. False with `error`
    // set when it could not be written (nothing else changes: the cache only saves time).
    bool saveIndex(std::string* error = nullptr);

    // What the first update() made of the saved index: "off", "none saved", "used", or
    // "not used: <why>" (the logdir was then read from the start).
    std::string indexCacheStatus() const;

    // Bytes of the index's arrays kept in the spill file (ReaderOptions::spill); 0 while they
    // are all in memory. From the updating thread, or between updates.
    std::uint64_t spilledBytes() const;

    // The last snapshot published (an empty one before the first update()).
    std::shared_ptr<const Snapshot> latest() const;

    const std::filesystem::path& path() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::core
