// SPDX-License-Identifier: GPL-3.0-or-later
#include "decodedsize.hpp"
#include "eventparse.hpp"
#include "filehandle.hpp"
#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/core/plaintext.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <system_error>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 5> kDataSuffixes = {
    kSourceFilesSuffix, kStackFramesSuffix, kGraphsSuffix, kExecutionSuffix, kTracesSuffix};
constexpr std::string_view kStem = "tfdbg_events.";

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "tfdbg_events.1700000000.worker-0" → "worker-0"; other stems are their own host name.
std::string hostFromPrefix(std::string_view name)
{
    if (name.substr(0, kStem.size()) == kStem) {
        const auto rest = name.substr(kStem.size());
        const auto dot = rest.find('.');
        if (dot != std::string_view::npos && dot > 0)
            return std::string(rest.substr(dot + 1));
    }
    return std::string(name);
}

struct MetadataRead
{
    bool ok = false;
    Severity severity = Severity::Error;
    std::string error;
    std::vector<Diagnostic> notes; // about the records after the first
};

// A metadata record is a few dozen bytes; a length of gigabytes is not one.
constexpr std::uint64_t kMaxMetadataRecord = 1u << 20;
// Records after the first that are looked at (TensorFlow's reader reads none of them).
constexpr int kMaxLaterRecords = 1000;
constexpr int kMaxListedOddities = 5;

// The odd records after the metadata record: the first few are listed, the others counted, so
// that a file of garbage makes a few diagnostics and not thousands.
class Oddities
{
public:
    Oddities(const fs::path& path, std::vector<Diagnostic>& notes)
        : where_(path.string()), notes_(notes)
    {}

    void add(Severity severity, std::uint64_t at, std::string message)
    {
        if (++count_ <= kMaxListedOddities)
            notes_.push_back({severity, where_, at,
                              std::move(message) +
                                  "; ignored (TensorFlow's reader reads only the first record)"});
    }

    // The count of those not listed, after the last one.
    void addUnlisted()
    {
        if (count_ > kMaxListedOddities)
            notes_.push_back({Severity::Warning, where_, std::nullopt,
                              std::to_string(count_ - kMaxListedOddities) +
                                  " more odd records after the metadata record; ignored"});
    }

private:
    std::string where_;
    std::vector<Diagnostic>& notes_;
    int count_ = 0;
};

// One whole record after the first, at offset `at`: the recorder's note of lost records is taken
// into `set`; anything else is odd.
void readLaterRecord(const std::string& payload, std::uint64_t at, FileSet& set, Oddities& odd)
{
    tfdbg::DebugEvent event;
    if (!decodedBytes(*tfdbg::DebugEvent::descriptor(), payload, 64 * kMaxMetadataRecord) ||
        !parseEvent(event, payload)) {
        odd.add(Severity::Warning, at, "a record after the metadata record is not a DebugEvent");
        return;
    }
    if (event.has_nanscope_recorder_losses()) {
        const auto& losses = event.nanscope_recorder_losses();
        set.recordsDropped = losses.records_dropped();
        set.stoppedFiles.assign(losses.stopped_files().begin(), losses.stopped_files().end());
        set.writerError = losses.first_error();
        return;
    }
    if (event.what_case() != tfdbg::DebugEvent::kDebugMetadata) {
        odd.add(Severity::Warning, at, "a record after the metadata record is not a DebugMetadata");
        return;
    }
    const std::string& runId = event.debug_metadata().tfdbg_run_id();
    odd.add(Severity::Warning, at,
            runId == set.runId ? "a second DebugMetadata record"
                               : "a second DebugMetadata record, of run " + quotedName(runId) +
                                     " (the first names " + quotedName(set.runId) + ")");
}

// The records after the first: the recorder's notes of lost records are read; anything else is
// said (another run's metadata, records of other kinds, bytes that are no record) and ignored, as
// TensorFlow's reader ignores everything after the first record.
void readLaterMetadata(const FileHandle& file, const fs::path& path, std::uint64_t offset,
                       FileSet& set, std::vector<Diagnostic>& notes)
{
    Oddities odd(path, notes);
    std::string payload;
    int read = 0;
    for (; read < kMaxLaterRecords; ++read) {
        const auto status = readRecordAt(file, offset, payload, kMaxMetadataRecord);
        if (status == format::RecordStatus::EndOfData)
            break;
        if (status == format::RecordStatus::TruncatedTail) {
            notes.push_back({Severity::Info, path.string(), offset,
                             "an incomplete record at the end of the metadata file (its writer "
                             "may still be at it)"});
            break;
        }
        if (status != format::RecordStatus::Ok) {
            const std::uint64_t size = file.size();
            odd.add(Severity::Warning, offset,
                    std::to_string(size > offset ? size - offset : 0) +
                        " bytes after the metadata record are not a record (" +
                        format::toString(status) + ")");
            break;
        }
        const std::uint64_t at = offset;
        offset += format::kRecordOverhead + payload.size();
        readLaterRecord(payload, at, set, odd);
    }
    if (read == kMaxLaterRecords && offset < file.size())
        odd.add(Severity::Warning, offset,
                "more than " + std::to_string(kMaxLaterRecords) +
                    " records after the metadata record; the " +
                    std::to_string(file.size() - offset) + " bytes from here on are not looked at");
    odd.addUnlisted();
}

MetadataRead readMetadata(const FileSystem& files, const fs::path& path, FileSet& set)
{
    MetadataRead result;
    FileHandle file;
    std::string error;
    if (!file.open(files, path, &error)) {
        result.error = "cannot open the metadata file: " + error;
        return result;
    }
    std::string payload;
    const auto status = readRecordAt(file, 0, payload, kMaxMetadataRecord);
    if (format::isRetryable(status)) {
        result.severity = Severity::Warning;
        result.error = status == format::RecordStatus::EndOfData
                           ? "the metadata file is empty (its writer may not have started yet)"
                           : "the metadata record is incomplete (its writer may still be at it)";
        return result;
    }
    if (status != format::RecordStatus::Ok) {
        result.error = std::string("cannot read the metadata record: ") + format::toString(status);
        return result;
    }
    tfdbg::DebugEvent event;
    if (!parseEvent(event, payload)) {
        result.error = "the metadata record is not a DebugEvent";
        return result;
    }
    if (event.what_case() != tfdbg::DebugEvent::kDebugMetadata) {
        result.error = "the first record of the metadata file is not a DebugMetadata";
        return result;
    }
    set.hasMetadata = true;
    set.wallTime = event.wall_time();
    set.runId = event.debug_metadata().tfdbg_run_id();
    set.tensorflowVersion = event.debug_metadata().tensorflow_version();
    set.fileVersion = event.debug_metadata().file_version();
    readLaterMetadata(file, path, format::kRecordOverhead + payload.size(), set, result.notes);
    result.ok = true;
    return result;
}

std::string describeRun(const std::string& runId)
{
    return runId.empty() ? std::string("without a run id") : quotedName(runId);
}

// A diagnostic about a file or folder as a whole (no offset).
void warn(LogdirLayout& layout, Severity severity, const fs::path& file, std::string message)
{
    layout.diagnostics.push_back({severity, file.string(), std::nullopt, std::move(message)});
}

// A folder's tfdbg2 files by prefix, sorted for stable results.
struct FolderListing
{
    std::map<std::string, fs::path> metadataFiles;               // prefix → its metadata file
    std::map<std::string, std::vector<std::string>> orphanFiles; // prefix → suffixes present
};

// Like TensorFlow's glob("<dir>/*.metadata"): not recursive, no hidden files.
FolderListing listTfdbgFiles(const std::vector<FileSystem::Entry>& entries,
                             const fs::path& directory)
{
    FolderListing listing;
    for (const auto& entry : entries) {
        const std::string& name = entry.name;
        if (name.empty() || name.front() == '.' || !entry.regularFile)
            continue;
        if (endsWith(name, ".metadata")) {
            listing.metadataFiles.emplace(name.substr(0, name.size() - 9), directory / name);
            continue;
        }
        if (name.substr(0, kStem.size()) != kStem)
            continue;
        for (const auto suffix : kDataSuffixes) {
            const std::string dotted = "." + std::string(suffix);
            if (endsWith(name, dotted)) {
                listing.orphanFiles[name.substr(0, name.size() - dotted.size())].emplace_back(
                    suffix);
                break;
            }
        }
    }
    return listing;
}

FileSet fileSetOf(const fs::path& directory, const std::string& stem)
{
    FileSet set;
    set.prefix = directory / stem;
    set.hostName = hostFromPrefix(stem);
    return set;
}

struct FileSetsFound
{
    std::vector<FileSet> withMetadata;
    std::vector<FileSet> withoutMetadata; // unreadable metadata, or data files without any
};

// Reads each file set's metadata, saying what is wrong with it in the order of the prefixes.
FileSetsFound readFileSets(const FileSystem& files, FolderListing& listing, LogdirLayout& layout)
{
    FileSetsFound found;
    for (const auto& [stem, file] : listing.metadataFiles) {
        listing.orphanFiles.erase(stem);
        FileSet set = fileSetOf(layout.directory, stem);
        const auto read = readMetadata(files, file, set);
        layout.diagnostics.insert(layout.diagnostics.end(), read.notes.begin(), read.notes.end());
        if (read.ok) {
            found.withMetadata.push_back(std::move(set));
        } else {
            warn(layout, read.severity, file, read.error);
            found.withoutMetadata.push_back(std::move(set));
        }
    }
    for (const auto& [stem, suffixes] : listing.orphanFiles)
        found.withoutMetadata.push_back(fileSetOf(layout.directory, stem));
    return found;
}

// No readable metadata at all: every file set is read, in the order of their prefixes.
void readSetsWithoutMetadata(std::vector<FileSet> sets, LogdirLayout& layout)
{
    if (sets.empty()) {
        warn(layout, Severity::Error, layout.directory,
             "no tfdbg2 files here: a logdir holds files named "
             "tfdbg_events.<time>.<host>.<kind>, made by "
             "tf.debugging.experimental.enable_dump_debug_info or NaNscope's recorder");
        return;
    }
    // TensorFlow refuses such a directory; reading the data files anyway is more useful.
    warn(layout, Severity::Warning, layout.directory,
         "no readable metadata file: reading the file sets anyway, without run id or version "
         "(TensorFlow's reader and TensorBoard show nothing for this logdir)");
    std::sort(sets.begin(), sets.end(),
              [](const FileSet& a, const FileSet& b) { return a.prefix < b.prefix; });
    layout.fileSets = std::move(sets);
}

using Runs = std::map<std::string, std::vector<FileSet>>; // by run id

double startOf(const std::vector<FileSet>& sets)
{
    double t = sets.front().wallTime;
    for (const auto& s : sets)
        t = std::min(t, s.wallTime);
    return t;
}

// The run asked for, or else the one that started last.
Runs::iterator chooseRun(Runs& runs, const DiscoveryOptions& options, LogdirLayout& layout)
{
    auto chosen = runs.end();
    if (!options.runId.empty()) {
        chosen = runs.find(options.runId);
        if (chosen == runs.end())
            warn(layout, Severity::Error, layout.directory,
                 "no file set of run " + quotedName(options.runId) +
                     " here; reading the latest run");
    }
    if (chosen == runs.end()) {
        for (auto r = runs.begin(); r != runs.end(); ++r)
            if (chosen == runs.end() || startOf(r->second) > startOf(chosen->second))
                chosen = r;
    }
    return chosen;
}

void warnOfOtherRuns(const Runs& runs, const std::string& chosen, LogdirLayout& layout)
{
    if (runs.size() <= 1)
        return;
    std::string others;
    for (const auto& [runId, sets] : runs) {
        if (runId == chosen)
            continue;
        others += others.empty() ? "" : ", ";
        others += describeRun(runId) + " (" + std::to_string(sets.size()) + " file set" +
                  (sets.size() == 1 ? ")" : "s)");
    }
    warn(layout, Severity::Warning, layout.directory,
         "file sets of " + std::to_string(runs.size()) + " runs in one logdir: reading run " +
             describeRun(chosen) + ", ignoring " + others +
             " (TensorFlow's reader refuses such a logdir)");
}

// The hosts in the order they started, except that the host asked for comes first.
void orderHosts(std::vector<FileSet>& sets, const DiscoveryOptions& options, LogdirLayout& layout)
{
    std::stable_sort(sets.begin(), sets.end(),
                     [](const FileSet& a, const FileSet& b) { return a.wallTime < b.wallTime; });
    if (options.mainHost.empty())
        return;
    const auto asked = std::find_if(sets.begin(), sets.end(), [&](const FileSet& set) {
        return set.hostName == options.mainHost;
    });
    if (asked == sets.end())
        warn(layout, Severity::Warning, layout.directory,
             "no file set of host " + quotedName(options.mainHost) +
                 " in this run: reading the host that started first");
    else
        std::rotate(sets.begin(), asked, asked + 1); // the others keep their order
}

// The recorder's own note that it lost records: what is read is not the whole run.
void warnOfLostRecords(const std::vector<FileSet>& sets, LogdirLayout& layout)
{
    for (const auto& set : sets) {
        if (set.recordsDropped == 0)
            continue;
        std::string stopped;
        for (const auto& suffix : set.stoppedFiles)
            stopped += (stopped.empty() ? "" : ", ") + quotedName(suffix, 40);
        warn(layout, Severity::Error, set.file(kMetadataSuffix),
             "the recorder that wrote this file set lost " + std::to_string(set.recordsDropped) +
                 " records after a write failed (" + quotedName(set.writerError) + ")" +
                 (stopped.empty() ? "" : "; these files stop early: " + stopped) +
                 ". What is here is a clean prefix, not the whole run: the first non-finite "
                 "value of the run may be among the lost records");
    }
}

// The run's id, writer and start are the main host's.
void describeFromMainHost(const FileSet& main, LogdirLayout& layout)
{
    layout.runId = main.runId;
    layout.tensorflowVersion = main.tensorflowVersion;
    layout.fileVersion = main.fileVersion;
    layout.startingWallTime = main.wallTime;
    if (!main.fileVersion.empty() && main.fileVersion != "debug.Event:1")
        warn(layout, Severity::Warning, main.file(kMetadataSuffix),
             "unknown file version " + quotedName(main.fileVersion) +
                 "; reading it as debug.Event:1");
}

// A secondary host's executions are read too, apart from the first host's (TensorFlow's reader
// reads its traces only): they have a timeline lane of their own. Its other files are not read.
void warnOfIgnoredSecondaryFiles(const FileSystem& files, const std::vector<FileSet>& sets,
                                 LogdirLayout& layout)
{
    for (std::size_t i = 1; i < sets.size(); ++i) {
        for (const auto suffix : {kSourceFilesSuffix, kStackFramesSuffix, kGraphsSuffix}) {
            const auto file = sets[i].file(suffix);
            FileHandle handle;
            if (handle.open(files, file, nullptr) && handle.size() > 0)
                warn(layout, Severity::Info, file,
                     "only the traces and executions of a secondary host are read (TensorFlow's "
                     "reader reads its traces only); this file's records are ignored");
        }
    }
}

// Groups the file sets by run and reads one run's, main host first.
void readOneRun(std::vector<FileSet> withMetadata, const FileSystem& files,
                const DiscoveryOptions& options, LogdirLayout& layout)
{
    Runs runs;
    for (auto& set : withMetadata)
        runs[set.runId].push_back(std::move(set));
    const auto chosen = chooseRun(runs, options, layout);
    warnOfOtherRuns(runs, chosen->first, layout);
    auto sets = std::move(chosen->second);
    orderHosts(sets, options, layout);
    if (sets.size() > 1 && chosen->first.empty())
        warn(layout, Severity::Warning, layout.directory,
             std::to_string(sets.size()) +
                 " file sets without a run id: assuming they belong to one run");
    warnOfLostRecords(sets, layout);
    describeFromMainHost(sets.front(), layout);
    warnOfIgnoredSecondaryFiles(files, sets, layout);
    layout.fileSets = std::move(sets);
}

} // namespace

fs::path FileSet::file(std::string_view suffix) const
{
    fs::path p = prefix;
    p += ".";
    p += std::string(suffix);
    return p;
}

LogdirLayout discoverLogdir(const fs::path& path, const DiscoveryOptions& options)
{
    LogdirLayout layout;
    const auto files = options.fileSystem ? options.fileSystem : realFileSystem();
    const auto kind = files->kind(path);
    if (kind == FileSystem::Kind::Missing) {
        warn(layout, Severity::Error, path, "no such file or directory");
        return layout;
    }
    layout.directory = kind == FileSystem::Kind::Directory ? path : path.parent_path();
    if (layout.directory.empty())
        layout.directory = ".";

    std::vector<FileSystem::Entry> entries;
    std::string listError;
    if (!files->list(layout.directory, entries, listError)) {
        warn(layout, Severity::Error, layout.directory, "cannot list the directory: " + listError);
        return layout;
    }
    FolderListing listing = listTfdbgFiles(entries, layout.directory);
    FileSetsFound found = readFileSets(*files, listing, layout);
    if (found.withMetadata.empty()) {
        readSetsWithoutMetadata(std::move(found.withoutMetadata), layout);
        return layout;
    }
    for (const auto& orphan : found.withoutMetadata)
        warn(layout, Severity::Warning, orphan.prefix,
             "file set without readable metadata: not read (TensorFlow's reader ignores it too)");
    readOneRun(std::move(found.withMetadata), *files, options, layout);
    return layout;
}

std::vector<LogdirLayout> findLogdirsBelow(const fs::path& root, const LogdirSearch& limits)
{
    std::vector<LogdirLayout> found;
    std::vector<std::pair<fs::path, int>> queue{{root, 0}}; // folder, depth
    std::size_t looked = 0;
    for (std::size_t next = 0; next < queue.size() && looked < limits.maxFolders; ++next) {
        const auto [folder, depth] = queue[next];
        ++looked;
        if (depth > 0) {
            LogdirLayout layout = discoverLogdir(folder);
            if (!layout.empty()) {
                found.push_back(std::move(layout));
                if (found.size() >= limits.maxLogdirs)
                    break;
                continue; // a logdir's own subfolders are not searched
            }
        }
        if (depth >= limits.maxDepth)
            continue;
        std::error_code ec;
        fs::directory_iterator it(folder, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            const std::string name = it->path().filename().string();
            std::error_code typeError;
            if (name.empty() || name.front() == '.' || it->is_symlink(typeError) ||
                !it->is_directory(typeError))
                continue;
            queue.emplace_back(it->path(), depth + 1);
        }
    }
    std::sort(found.begin(), found.end(), [](const LogdirLayout& a, const LogdirLayout& b) {
        return a.directory < b.directory;
    });
    return found;
}

} // namespace nanscope::core
