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

// The records after the first: the recorder's notes of lost records are read; anything else is
// said (another run's metadata, records of other kinds, bytes that are no record) and ignored, as
// TensorFlow's reader ignores everything after the first record.
void readLaterMetadata(const FileHandle& file, const fs::path& path, std::uint64_t offset,
                       FileSet& set, std::vector<Diagnostic>& notes)
{
    const std::string where = path.string();
    int oddities = 0;
    auto odd = [&](Severity severity, std::uint64_t at, std::string message) {
        if (++oddities <= kMaxListedOddities)
            notes.push_back({severity, where, at,
                             std::move(message) +
                                 "; ignored (TensorFlow's reader reads only the first record)"});
    };
    std::string payload;
    int read = 0;
    for (; read < kMaxLaterRecords; ++read) {
        const auto status = readRecordAt(file, offset, payload, kMaxMetadataRecord);
        if (status == format::RecordStatus::EndOfData)
            break;
        if (status == format::RecordStatus::TruncatedTail) {
            notes.push_back({Severity::Info, where, offset,
                             "an incomplete record at the end of the metadata file (its writer "
                             "may still be at it)"});
            break;
        }
        if (status != format::RecordStatus::Ok) {
            const std::uint64_t size = file.size();
            odd(Severity::Warning, offset,
                std::to_string(size > offset ? size - offset : 0) +
                    " bytes after the metadata record are not a record (" +
                    format::toString(status) + ")");
            break;
        }
        const std::uint64_t at = offset;
        offset += format::kRecordOverhead + payload.size();
        tfdbg::DebugEvent event;
        if (!decodedBytes(*tfdbg::DebugEvent::descriptor(), payload, 64 * kMaxMetadataRecord) ||
            !parseEvent(event, payload)) {
            odd(Severity::Warning, at, "a record after the metadata record is not a DebugEvent");
            continue;
        }
        if (event.has_nanscope_recorder_losses()) {
            const auto& losses = event.nanscope_recorder_losses();
            set.recordsDropped = losses.records_dropped();
            set.stoppedFiles.assign(losses.stopped_files().begin(), losses.stopped_files().end());
            set.writerError = losses.first_error();
            continue;
        }
        if (event.what_case() != tfdbg::DebugEvent::kDebugMetadata) {
            odd(Severity::Warning, at, "a record after the metadata record is not a DebugMetadata");
            continue;
        }
        const std::string& runId = event.debug_metadata().tfdbg_run_id();
        odd(Severity::Warning, at,
            runId == set.runId ? "a second DebugMetadata record"
                               : "a second DebugMetadata record, of run " + quotedName(runId) +
                                     " (the first names " + quotedName(set.runId) + ")");
    }
    if (read == kMaxLaterRecords && offset < file.size())
        odd(Severity::Warning, offset,
            "more than " + std::to_string(kMaxLaterRecords) +
                " records after the metadata record; the " + std::to_string(file.size() - offset) +
                " bytes from here on are not looked at");
    if (oddities > kMaxListedOddities)
        notes.push_back({Severity::Warning, where, std::nullopt,
                         std::to_string(oddities - kMaxListedOddities) +
                             " more odd records after the metadata record; ignored"});
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
    auto warn = [&](Severity severity, const fs::path& file, std::string message) {
        layout.diagnostics.push_back({severity, file.string(), std::nullopt, std::move(message)});
    };

    const auto kind = files->kind(path);
    if (kind == FileSystem::Kind::Missing) {
        warn(Severity::Error, path, "no such file or directory");
        return layout;
    }
    layout.directory = kind == FileSystem::Kind::Directory ? path : path.parent_path();
    if (layout.directory.empty())
        layout.directory = ".";

    // Like TensorFlow's glob("<dir>/*.metadata"): not recursive, no hidden files.
    std::map<std::string, fs::path> metadataFiles; // by prefix, sorted for stable results
    std::map<std::string, std::vector<std::string>> orphanFiles; // prefix → suffixes present
    std::vector<FileSystem::Entry> entries;
    std::string listError;
    if (!files->list(layout.directory, entries, listError)) {
        warn(Severity::Error, layout.directory, "cannot list the directory: " + listError);
        return layout;
    }
    for (const auto& entry : entries) {
        const std::string& name = entry.name;
        if (name.empty() || name.front() == '.' || !entry.regularFile)
            continue;
        if (endsWith(name, ".metadata")) {
            metadataFiles.emplace(name.substr(0, name.size() - 9), layout.directory / name);
            continue;
        }
        if (name.substr(0, kStem.size()) != kStem)
            continue;
        for (const auto suffix : kDataSuffixes) {
            const std::string dotted = "." + std::string(suffix);
            if (endsWith(name, dotted)) {
                orphanFiles[name.substr(0, name.size() - dotted.size())].emplace_back(suffix);
                break;
            }
        }
    }

    std::vector<FileSet> withMetadata;
    std::vector<FileSet> withoutMetadata;
    for (const auto& [stem, file] : metadataFiles) {
        orphanFiles.erase(stem);
        FileSet set;
        set.prefix = layout.directory / stem;
        set.hostName = hostFromPrefix(stem);
        const auto read = readMetadata(*files, file, set);
        layout.diagnostics.insert(layout.diagnostics.end(), read.notes.begin(), read.notes.end());
        if (read.ok) {
            withMetadata.push_back(std::move(set));
        } else {
            warn(read.severity, file, read.error);
            withoutMetadata.push_back(std::move(set));
        }
    }
    for (const auto& [stem, suffixes] : orphanFiles) {
        FileSet set;
        set.prefix = layout.directory / stem;
        set.hostName = hostFromPrefix(stem);
        withoutMetadata.push_back(std::move(set));
    }

    if (withMetadata.empty()) {
        if (withoutMetadata.empty()) {
            warn(Severity::Error, layout.directory,
                 "no tfdbg2 files here: a logdir holds files named "
                 "tfdbg_events.<time>.<host>.<kind>, made by "
                 "tf.debugging.experimental.enable_dump_debug_info or NaNscope's recorder");
            return layout;
        }
        // TensorFlow refuses such a directory; reading the data files anyway is more useful.
        warn(Severity::Warning, layout.directory,
             "no readable metadata file: reading the file sets anyway, without run id or version "
             "(TensorFlow's reader and TensorBoard show nothing for this logdir)");
        std::sort(withoutMetadata.begin(), withoutMetadata.end(),
                  [](const FileSet& a, const FileSet& b) { return a.prefix < b.prefix; });
        layout.fileSets = std::move(withoutMetadata);
        return layout;
    }
    for (const auto& orphan : withoutMetadata)
        warn(Severity::Warning, orphan.prefix,
             "file set without readable metadata: not read (TensorFlow's reader ignores it too)");

    // Group by run; choose the requested run, or the one that started last.
    std::map<std::string, std::vector<FileSet>> runs;
    for (auto& set : withMetadata)
        runs[set.runId].push_back(std::move(set));
    auto started = [](const std::vector<FileSet>& sets) {
        double t = sets.front().wallTime;
        for (const auto& s : sets)
            t = std::min(t, s.wallTime);
        return t;
    };
    auto chosen = runs.end();
    if (!options.runId.empty()) {
        chosen = runs.find(options.runId);
        if (chosen == runs.end())
            warn(Severity::Error, layout.directory,
                 "no file set of run " + quotedName(options.runId) +
                     " here; reading the latest run");
    }
    if (chosen == runs.end()) {
        for (auto r = runs.begin(); r != runs.end(); ++r)
            if (chosen == runs.end() || started(r->second) > started(chosen->second))
                chosen = r;
    }
    if (runs.size() > 1) {
        std::string others;
        for (const auto& [runId, sets] : runs) {
            if (runId == chosen->first)
                continue;
            others += others.empty() ? "" : ", ";
            others += describeRun(runId) + " (" + std::to_string(sets.size()) + " file set" +
                      (sets.size() == 1 ? ")" : "s)");
        }
        warn(Severity::Warning, layout.directory,
             "file sets of " + std::to_string(runs.size()) + " runs in one logdir: reading run " +
                 describeRun(chosen->first) + ", ignoring " + others +
                 " (TensorFlow's reader refuses such a logdir)");
    }
    auto sets = std::move(chosen->second);
    std::stable_sort(sets.begin(), sets.end(),
                     [](const FileSet& a, const FileSet& b) { return a.wallTime < b.wallTime; });
    if (!options.mainHost.empty()) {
        const auto asked = std::find_if(sets.begin(), sets.end(), [&](const FileSet& set) {
            return set.hostName == options.mainHost;
        });
        if (asked == sets.end())
            warn(Severity::Warning, layout.directory,
                 "no file set of host " + quotedName(options.mainHost) +
                     " in this run: reading the host that started first");
        else
            std::rotate(sets.begin(), asked, asked + 1); // the others keep their order
    }
    if (sets.size() > 1 && chosen->first.empty())
        warn(Severity::Warning, layout.directory,
             std::to_string(sets.size()) +
                 " file sets without a run id: assuming they belong to one run");

    for (const auto& set : sets) {
        if (set.recordsDropped == 0)
            continue;
        std::string stopped;
        for (const auto& suffix : set.stoppedFiles)
            stopped += (stopped.empty() ? "" : ", ") + quotedName(suffix, 40);
        warn(Severity::Error, set.file(kMetadataSuffix),
             "the recorder that wrote this file set lost " + std::to_string(set.recordsDropped) +
                 " records after a write failed (" + quotedName(set.writerError) + ")" +
                 (stopped.empty() ? "" : "; these files stop early: " + stopped) +
                 ". What is here is a clean prefix, not the whole run: the first non-finite "
                 "value of the run may be among the lost records");
    }

    const FileSet& main = sets.front();
    layout.runId = main.runId;
    layout.tensorflowVersion = main.tensorflowVersion;
    layout.fileVersion = main.fileVersion;
    layout.startingWallTime = main.wallTime;
    if (!main.fileVersion.empty() && main.fileVersion != "debug.Event:1")
        warn(Severity::Warning, main.file(kMetadataSuffix),
             "unknown file version " + quotedName(main.fileVersion) +
                 "; reading it as debug.Event:1");
    // A secondary host's executions are read too, apart from the first host's (TensorFlow's
    // reader reads its traces only): they have a timeline lane of their own.
    for (std::size_t i = 1; i < sets.size(); ++i) {
        for (const auto suffix : {kSourceFilesSuffix, kStackFramesSuffix, kGraphsSuffix}) {
            const auto file = sets[i].file(suffix);
            FileHandle handle;
            if (handle.open(*files, file, nullptr) && handle.size() > 0)
                warn(Severity::Info, file,
                     "only the traces and executions of a secondary host are read (TensorFlow's "
                     "reader reads its traces only); this file's records are ignored");
        }
    }
    layout.fileSets = std::move(sets);
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
