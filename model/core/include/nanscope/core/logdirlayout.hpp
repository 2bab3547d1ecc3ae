// SPDX-License-Identifier: GPL-3.0-or-later
// Which files of a directory form the logdir: its file sets (one per writing host), the run they
// belong to, and what is wrong with the rest (format §1, §8.1).
#pragma once

#include "nanscope/core/diagnostic.hpp"
#include "nanscope/core/filesystem.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// The six files one writer creates share this prefix: <dir>/tfdbg_events.<time>.<host>
struct FileSet
{
    std::filesystem::path prefix;
    std::string hostName;     // from the file name; the stem when it does not follow the pattern
    bool hasMetadata = false; // false: loaded only because no file set of the logdir has one
    double wallTime = 0;      // of the metadata record (0 without metadata)
    std::string runId;        // may be empty (early tfdbg2 releases)
    std::string tensorflowVersion;
    std::string fileVersion;
    // What NaNscope's recorder noted in later records of the metadata file when it had to drop
    // records after a failed write (a full disk, a file-size limit): the files are clean
    // prefixes, but not the whole run. 0 and empty when nothing was noted.
    std::uint64_t recordsDropped = 0;
    std::vector<std::string> stoppedFiles;
    std::string writerError;

    std::filesystem::path file(std::string_view suffix) const; // prefix + "." + suffix
    friend bool operator==(const FileSet&, const FileSet&) = default;
};

struct LogdirLayout
{
    std::filesystem::path directory;
    // The file sets read, earliest metadata first: [0] is the main one, whose source files,
    // stack frames, graphs and executions are read; every set contributes its traces, and the
    // others their executions apart from the main one's (Snapshot::hostExecution).
    std::vector<FileSet> fileSets;
    std::string runId;
    std::string tensorflowVersion;
    std::string fileVersion;
    double startingWallTime = 0;
    std::vector<Diagnostic> diagnostics;

    bool empty() const { return fileSets.empty(); }
    friend bool operator==(const LogdirLayout&, const LogdirLayout&) = default;
};

struct DiscoveryOptions
{
    // The run to read when the directory holds several; empty: the most recent one.
    std::string runId;
    // The host whose file set is the main one (FileSet::hostName: a PyTorch rank's
    // "<host>-rank<N>"): its executions, stack frames and graphs are the ones read, as if it had
    // started first. Empty, or a host the run lacks (a warning then): the earliest metadata.
    std::string mainHost;
    // Where the logdir's files are read from (the reader reads everything through it); null:
    // the real file system.
    std::shared_ptr<const FileSystem> fileSystem;
};

// Builds, once per process, what checking records needs (libprotobuf's descriptors of the
// DebugEvent messages and the wire walk's tables of their fields), so that the first
// discoverLogdir or read need not: in the app, a third of the event that opens a logdir, and more
// with the descriptor code's pages still on disk. Thread-safe; once done, a call costs nothing.
void prepareRecordChecks();
// Whether prepareRecordChecks, or a first check, has done that.
bool recordChecksPrepared();

// Finds the file sets of `path`, which may be the logdir or any file in it. Never throws; every
// problem becomes a diagnostic, and every valid file set of the chosen run is kept.
LogdirLayout discoverLogdir(const std::filesystem::path& path,
                            const DiscoveryOptions& options = {});

// The logdirs in the folders below `root` (not `root` itself), for a user who opened the folder
// that holds them: breadth first, at most `maxDepth` levels down, hidden folders and symbolic
// links skipped, at most `maxFolders` folders looked at and `maxLogdirs` found, so that opening
// a home directory stays quick. Sorted by path.
struct LogdirSearch
{
    int maxDepth = 2;
    std::size_t maxFolders = 2000;
    std::size_t maxLogdirs = 200;
};
std::vector<LogdirLayout> findLogdirsBelow(const std::filesystem::path& root,
                                           const LogdirSearch& limits = {});

// The file suffixes of a file set, in the order TensorFlow's reader reads them.
inline constexpr std::string_view kMetadataSuffix = "metadata";
inline constexpr std::string_view kSourceFilesSuffix = "source_files";
inline constexpr std::string_view kStackFramesSuffix = "stack_frames";
inline constexpr std::string_view kGraphsSuffix = "graphs";
inline constexpr std::string_view kExecutionSuffix = "execution";
inline constexpr std::string_view kTracesSuffix = "graph_execution_traces";

} // namespace nanscope::core
