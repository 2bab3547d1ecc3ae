// SPDX-License-Identifier: GPL-3.0-or-later
// Writing saved indexes, naming them, and pruning the cache directory.
#include "cachefiles.hpp"
#include "indexcache.hpp"
#include "indexcacheformat.hpp"
#include "indexcachetrust.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/crc32c.hpp"
#include "sidecarfile.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;
using namespace indexfile;

void describeState(ArchiveWriter& w, const ReaderState& state, const IndexCacheKey& key,
                   ThreadPool& pool)
{
    w.put(key.logdir);
    w.put(key.runId);
    w.put(key.maxMemoryBytes);
    w.put(key.mainHost);

    w.put(state.layout.runId);
    w.count(state.layout.fileSets.size());
    for (const auto& set : state.layout.fileSets) // by name: the key says which directory
        w.put(set.prefix.filename().string());

    std::size_t files = 0;
    state.forEachFile([&](const FileState&) { ++files; });
    w.count(files);
    state.forEachFile([&](const FileState& f) {
        // A file closed after reading (openFileBudget) is opened again for its stamp.
        FileHandle reopened;
        const FileHandle* handle = &f.handle;
        if (!f.handle.isOpen() && !f.missing && f.openError.empty() &&
            reopened.open(*state.index.files, f.path, nullptr))
            handle = &reopened;
        const bool read = !f.missing && f.openError.empty() && handle->isOpen();
        const CheckedContent checked{&f.checkedContent, f.checkedBytes};
        putFile(w, f, read ? stampOf(*handle, f.offset, pool, checked) : FileStamp{});
    });

    const IndexState& index = state.index;
    const GraphTable& graphs = index.graphs;
    w.put(graphStructureHash(graphs));
    // The graphs and ops that traces named before any record declared them, in table order.
    std::vector<GraphIndex> undeclaredGraphs;
    for (GraphIndex g = 0; g < graphs.graphs().size(); ++g)
        if (!graphs.graph(g).declared)
            undeclaredGraphs.push_back(g);
    w.count(undeclaredGraphs.size());
    for (const GraphIndex g : undeclaredGraphs)
        w.put(graphs.graph(g).id);
    std::vector<OpId> undeclaredOps;
    for (OpId op = 0; op < graphs.ops().size(); ++op)
        if (!graphs.op(op).declared)
            undeclaredOps.push_back(op);
    w.count(undeclaredOps.size());
    for (const OpId op : undeclaredOps) {
        w.put(graphs.graph(graphs.op(op).graph).id);
        w.put(graphs.op(op).name);
    }

    w.count(index.traceDevices.size());
    for (const auto& name : index.traceDevices)
        w.put(name);
    w.put(index.tracesOfUncountedDevices);
    w.count(index.segments.size());
    for (const auto& s : index.segments) {
        w.put(s.firstIndex);
        w.put(s.fileIndex);
    }
    const auto& strings = index.strings.strings();
    w.count(strings.size());
    for (std::size_t i = 1; i < strings.size(); ++i)
        w.put(strings[i]);
    w.put(index.traceModes);
    w.put(index.executionModes);
    putRecordProblems(w, index.recordProblems);
    std::vector<std::pair<OpId, std::uint64_t>> undeclaredOpTraces(
        index.tracesOfUndeclaredOps.begin(), index.tracesOfUndeclaredOps.end());
    std::sort(undeclaredOpTraces.begin(), undeclaredOpTraces.end());
    w.count(undeclaredOpTraces.size());
    for (const auto& [op, count] : undeclaredOpTraces) {
        w.put(op);
        w.put(count);
    }
    w.put(index.clampedSlots);
    putUnknowns(w, index.executionsOfUndeclaredGraphs);
    putUnknowns(w, index.executionsWithUnknownFrames);
    index.executionsAwaitingFrames.save(w);
    w.count(index.otherHostExecutions.size());
}

} // namespace

namespace {

// The user's cache directory of NaNscope; empty when it cannot be told.
fs::path userCacheDirectory()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return fs::path(xdg) / "nanscope";
    if (const char* home = std::getenv("HOME"); home && *home == '/') {
#ifdef __APPLE__
        return fs::path(home) / "Library" / "Caches" / "nanscope";
#else
        return fs::path(home) / ".cache" / "nanscope";
#endif
    }
    return {};
}

} // namespace

fs::path defaultIndexCacheDirectory()
{
    const fs::path base = userCacheDirectory();
    return base.empty() ? base : base / "index";
}

fs::path defaultSpillDirectory()
{
    const fs::path base = userCacheDirectory();
    return base.empty() ? base : base / "columns";
}

fs::path indexCacheFile(const fs::path& directory, const IndexCacheKey& key)
{
    const std::uint64_t h = keyHash(key);
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.nsidx", static_cast<unsigned long long>(h));
    return directory / name;
}

bool saveIndexCache(ReaderState& state, const IndexCacheKey& key, SavedAnalysis analysis,
                    const std::vector<std::string>& patterns, const fs::path& file,
                    ThreadPool& pool, std::string& error, bool* appended)
{
    if (appended)
        *appended = false;
    ArchiveWriter describe;
    describeState(describe, state, key, pool);
    putKnownOrigin(describe, analysis.origin, patterns);
    putKnownPropagation(describe, analysis.origin ? analysis.propagation : nullptr);
    const std::span<const std::byte> walk =
        analysis.origin && analysis.propagation ? analysis.walk : std::span<const std::byte>{};
    if (state.savedIndex && state.savedIndex->path == file &&
        appendIndexCache(state, *state.savedIndex, describe, walk)) {
        if (appended)
            *appended = true;
        return true;
    }

    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    const fs::path temporary = file.string() + ".tmp" + std::to_string(::getpid());
    bool written = false;
    bool created = false;
    auto saved = std::make_shared<SavedIndexFile>();
    {
        SidecarFile out(temporary);
        created = out.created();
        const std::array<char, kHeaderBytes> blank{}; // the header, once the rest is written
        out.write(blank.data(), blank.size());
        visitColumns(state, [&](const auto& column, Bound) {
            saved->columns.push_back(out.column(column));
            putColumnEntry(describe, saved->columns.back());
        });
        putSavedWalk(describe, walk);
        out.padTo(8);
        const std::uint64_t describeOffset = out.position();
        out.write(describe.bytes().data(), describe.bytes().size());
        out.writeHeader(describeOffset, describe.bytes().size(), format::crc32c(describe.bytes()));
        written = out.ok();
        if (!written)
            error = "cannot write " + temporary.string() + ": " + out.error();
        // Renamed over a saved index only: a link, a FIFO or a directory there is not the
        // cache's.
        if (written && !regularOrAbsent(file)) {
            error =
                "cannot write " + file.string() + ": something other than a saved index is there";
            written = false;
        }
        if (written) {
            fs::rename(temporary, file, ec);
            if (ec) {
                error = "cannot write " + file.string() + ": " + ec.message();
                written = false;
            }
        }
        // As renamed (a rename may change the change time): what the next save may append to.
        written = written && ::fstat(out.descriptor(), &saved->identity) == 0;
    }
    if (!written && created) // what lay at the name before is not ours to remove
        removeRegularFile(temporary);
    if (written) {
        saved->path = file;
        saved->vouched = true; // written by this process
        state.savedIndex = std::move(saved);
    }
    return written;
}

namespace {

// Whether `name` is a saved index's name as indexCacheFile makes it (16 hex digits, ".nsidx")
// with `suffix` after it.
bool savedIndexName(const std::string& name, std::string_view suffix)
{
    constexpr std::size_t kDigits = 16;
    const std::string_view ext = ".nsidx";
    if (name.size() != kDigits + ext.size() + suffix.size() ||
        name.compare(kDigits, ext.size(), ext) != 0 ||
        name.compare(kDigits + ext.size(), suffix.size(), suffix) != 0)
        return false;
    return std::all_of(name.begin(), name.begin() + kDigits,
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Whether `name` is a temporary of a saved index or of its record (".tmp" and a process id).
bool temporaryName(const std::string& name)
{
    for (const std::string_view suffix : {".tmp", ".checked.tmp"}) {
        const std::size_t digits =
            name.size() > 22 + suffix.size() ? name.size() - 22 - suffix.size() : 0;
        if (digits > 0 && digits <= 10 && savedIndexName(name.substr(0, 22), "") &&
            name.compare(22, suffix.size(), suffix) == 0 &&
            std::all_of(name.end() - static_cast<std::ptrdiff_t>(digits), name.end(),
                        [](char c) { return c >= '0' && c <= '9'; }))
            return true;
    }
    return false;
}

bool isRegular(const fs::directory_entry& entry)
{
    std::error_code ec;
    return entry.symlink_status(ec).type() == fs::file_type::regular && !ec;
}

} // namespace

void pruneIndexCache(const fs::path& directory, std::size_t keepFiles, const fs::path& keep)
{
    // Only regular files named as this code names them: the directory may hold anything.
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> saved;
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        std::error_code entryError;
        const fs::path& path = entry.path();
        const std::string name = path.filename().string();
        if (savedIndexName(name, ".checked") && isRegular(entry) &&
            !fs::exists(fs::symlink_status(path.parent_path() / path.stem(), ec))) {
            removeRegularFile(path); // the record of a pruned index
            continue;
        }
        if (temporaryName(name) && isRegular(entry)) {
            // Left by a saver that was killed; one younger than an hour may be being written.
            const auto written = entry.last_write_time(entryError);
            if (!entryError && fs::file_time_type::clock::now() - written > std::chrono::hours(1))
                removeRegularFile(path);
            continue;
        }
        if (!savedIndexName(name, "") || !isRegular(entry) || path == keep)
            continue;
        // Last used: a load marks its index's record (see noteUsed), never the index itself.
        auto time = entry.last_write_time(entryError);
        const auto used = fs::last_write_time(checkedRecord(path), ec);
        if (!ec)
            time = std::max(time, used);
        if (!entryError)
            saved.emplace_back(time, path);
    }
    if (saved.size() + 1 <= keepFiles)
        return;
    std::sort(saved.begin(), saved.end(), std::greater<>());
    for (std::size_t i = keepFiles > 0 ? keepFiles - 1 : 0; i < saved.size(); ++i) {
        removeRegularFile(saved[i].second);
        removeRegularFile(checkedRecord(saved[i].second));
    }
}

} // namespace nanscope::core
