// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/logdirreader.hpp"

#include "expectedfile.hpp"
#include "indexcache.hpp"
#include "indexcacheformat.hpp"
#include "indexstate.hpp"
#include "intentwalkstate.hpp"
#include "loaders.hpp"
#include "nanscope/core/plaintext.hpp"
#include "readerdiagnostics.hpp"
#include "readerstate.hpp"
#include "threadpool.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace nanscope::core {

struct LogdirReader::Impl : ReaderState
{
    std::filesystem::path path;
    ReaderOptions options;
    std::mutex updateMutex;
    mutable std::mutex latestMutex;
    std::shared_ptr<const Snapshot> latest;

    std::shared_ptr<const LogdirLayout> publishedLayout;
    std::unique_ptr<ThreadPool> pool;
    std::uint64_t generation = 0;
    bool indexCacheTried = false;
    std::string indexCacheStatus = "off";
    std::uint64_t savedProgress = UINT64_MAX; // progress() when the index was saved or read

    void applySettings(IndexState& state) const;
    void ensurePool();
    IndexCacheKey indexCacheKey() const;
    void readIndexCache();
    // Back to a state that read nothing, with analyses of nothing read.
    void startOver();
    // startOver(), the saved index set aside for `why`.
    void forgetIndexCache(const std::string& why);
    bool memoryLimited() const;
    // Reads what the files hold past the state; false when a budget stopped it.
    bool readFiles(const UpdateLimits& limits);
    // Grows with everything read (records, offsets, stops): unchanged means nothing new.
    std::uint64_t progress() const;
    std::uint64_t bytesRead() const;
    bool refreshLayout();
    std::shared_ptr<const Snapshot> publish(bool complete);
    // Of the analyses a saved index brought and the last snapshot's analysis handed on, the one
    // of the most events that fits the index as it stands; null if none.
    std::shared_ptr<const KnownAnalysis> latestAnalysis(const std::vector<std::string>& patterns);
    std::shared_ptr<AnalysisRelay> relay = std::make_shared<AnalysisRelay>();
    std::vector<Diagnostic> diagnostics() const;
};

// Finds file sets that appeared since the last update (a host that started later). Indices stay
// stable: new sets are read after the known ones. Starts over when another run is to be read.
bool LogdirReader::Impl::refreshLayout()
{
    LogdirLayout found = discoverLogdir(path, options.discovery);
    // A logdir is read again from the start when a reader that opened it now would read another
    // run: one started later in the same directory, or any once metadata can be read where none
    // could (its writer had not written it yet; it decides which file sets are read and which is
    // the main one). Following never shows otherwise than opening the logdir afterwards.
    if (!layout.fileSets.empty() && !found.fileSets.empty() && found.fileSets.front().hasMetadata &&
        (!layout.fileSets.front().hasMetadata || found.runId != layout.runId)) {
        if (indexCacheStatus == "used")
            forgetIndexCache("the logdir holds another run's or readable metadata since");
        else
            startOver();
    }
    bool changed = found.diagnostics != layout.diagnostics;
    layout.diagnostics = std::move(found.diagnostics);
    if (layout.fileSets.empty()) {
        if (found.fileSets.empty())
            return changed;
        layout.directory = found.directory;
        layout.runId = found.runId;
        layout.tensorflowVersion = found.tensorflowVersion;
        layout.fileVersion = found.fileVersion;
        layout.startingWallTime = found.startingWallTime;
        for (const auto& set : found.fileSets)
            adoptFileSet(set);
        return true;
    }
    std::set<std::filesystem::path> known;
    for (const auto& set : layout.fileSets)
        known.insert(set.prefix);
    for (const auto& set : found.fileSets) {
        if (known.contains(set.prefix) || set.runId != layout.runId)
            continue;
        adoptFileSet(set);
        changed = true;
    }
    return changed;
}

void LogdirReader::Impl::applySettings(IndexState& state) const
{
    state.files = options.discovery.fileSystem;
    state.maxMemoryBytes = options.maxMemoryBytes;
    state.maxRecordBytes = std::min(options.maxMemoryBytes / 4, format::kMaxRecordPayload);
    state.maxDecodedBytes = options.maxMemoryBytes / 4;
    state.spillDirectory = options.spill.directory;
    state.spillAboveBytes = options.spill.aboveBytes;
}

void LogdirReader::Impl::ensurePool()
{
    if (pool)
        return;
    unsigned threads = options.threads;
    if (threads == 0) // asked only when needed: glibc reads /sys to answer
        threads = std::max(2u, std::thread::hardware_concurrency()) - 1;
    pool = std::make_unique<ThreadPool>(threads, options.backgroundThreads
                                                     ? ThreadPool::Priority::Background
                                                     : ThreadPool::Priority::Normal);
}

IndexCacheKey LogdirReader::Impl::indexCacheKey() const
{
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    return {(ec ? path : absolute).lexically_normal().string(), options.discovery.runId,
            options.maxMemoryBytes, options.discovery.mainHost};
}

void LogdirReader::Impl::readIndexCache()
{
    const auto& directory = options.indexCache.directory;
    if (directory.empty())
        return;
    ReaderState saved;
    applySettings(saved.index);
    const IndexCacheKey key = indexCacheKey();
    std::string why;
    if (!loadIndexCache(indexCacheFile(directory, key), key, path, options.discovery, saved, *pool,
                        why, options.indexCache.checksums)) {
        indexCacheStatus = why == "none saved" ? why : "not used: " + why;
        return;
    }
    static_cast<ReaderState&>(*this) = std::move(saved);
    indexCacheStatus = "used";
    savedProgress = progress();
}

void LogdirReader::Impl::startOver()
{
    ReaderState fresh;
    applySettings(fresh.index);
    static_cast<ReaderState&>(*this) = std::move(fresh);
    publishedLayout.reset();
    relay = std::make_shared<AnalysisRelay>(); // its analyses are of what was set aside
    savedProgress = UINT64_MAX;
}

void LogdirReader::Impl::forgetIndexCache(const std::string& why)
{
    startOver();
    indexCacheStatus = "not used: " + why;
}

std::shared_ptr<const KnownAnalysis>
LogdirReader::Impl::latestAnalysis(const std::vector<std::string>& patterns)
{
    const auto fits = [&](const std::shared_ptr<const KnownAnalysis>& a) {
        return a && a->fits(index.traces.size(), index.executions.size(), graphs.offset, patterns);
    };
    const auto events = [](const KnownAnalysis& a) {
        return a.traces + a.executions;
    };
    auto handed = relay->latest();
    const auto& saved = index.knownAnalysis;
    if (!fits(handed))
        return fits(saved) ? saved : nullptr;
    return fits(saved) && events(*saved) >= events(*handed) ? saved : handed;
}

bool LogdirReader::Impl::memoryLimited() const
{
    bool limited = false;
    forEachFile([&limited](const FileState& f) { limited = limited || f.memoryLimited; });
    return limited;
}

std::uint64_t LogdirReader::Impl::progress() const
{
    std::uint64_t sum = index.traces.size() + index.executions.size();
    forEachFile([&](const FileState& f) {
        sum += f.offset + static_cast<std::uint64_t>(f.stop) + f.missing;
    });
    return sum;
}

std::uint64_t LogdirReader::Impl::bytesRead() const
{
    std::uint64_t sum = 0;
    forEachFile([&](const FileState& f) { sum += f.offset; });
    return sum;
}

std::vector<Diagnostic> LogdirReader::Impl::diagnostics() const
{
    std::vector<Diagnostic> out = layout.diagnostics;
    if (!layout.fileSets.empty()) {
        for (const FileState* f : {&sourceFiles, &stackFrames, &graphs, &executions})
            fileDiagnostics(*f, index, out);
        for (const auto& f : traceFiles)
            fileDiagnostics(f, index, out);
        for (const auto& f : otherExecutionFiles)
            fileDiagnostics(f, index, out);
        // In the files' order, then by offset: where a reader found them (this update or an
        // earlier one, or a saved index's) must not change which are shown, nor in what order.
        std::unordered_map<std::string, std::size_t> rank;
        forEachFile([&](const FileState& f) { rank.emplace(f.path.string(), rank.size()); });
        const auto rankOf = [&rank](const std::string& file) {
            const auto it = rank.find(file);
            return it == rank.end() ? rank.size() : it->second;
        };
        std::vector<Diagnostic> problems = index.recordProblems.list(rankOf);
        const auto key = [&](const Diagnostic& d) {
            return std::make_pair(rankOf(d.file), d.offset.value_or(UINT64_MAX));
        };
        std::stable_sort(problems.begin(), problems.end(),
                         [&](const Diagnostic& a, const Diagnostic& b) { return key(a) < key(b); });
        for (auto& d : problems)
            out.push_back(std::move(d));
        indexDiagnostics(index, graphs.path.string(), stackFrames.path.string(), out);
        unknownsDiagnostics(index, graphs.path.string(), executions.path.string(), out);
    }
    sortBySeverity(out);
    return out;
}

std::shared_ptr<const Snapshot> LogdirReader::Impl::publish(bool complete)
{
    auto data = std::make_unique<Snapshot::Data>();
    if (!publishedLayout || *publishedLayout != layout)
        publishedLayout = std::make_shared<const LogdirLayout>(layout);
    data->layout = publishedLayout;
    if (index.graphsChanged || !index.publishedGraphs) {
        index.publishedGraphs = std::make_shared<const GraphTable>(index.graphs);
        index.graphsChanged = false;
    }
    if (index.codeChanged || !index.publishedCode) {
        index.publishedCode = std::make_shared<const CodeTable>(index.code);
        index.codeChanged = false;
    }
    data->graphs = index.publishedGraphs;
    data->code = index.publishedCode;
    data->traces = index.traces;
    data->segments = index.segments;
    data->traceDevices = index.traceDevices;
    data->executions = index.executions;
    data->otherHostExecutions = index.otherHostExecutions;
    data->strings = index.strings.strings();
    data->traceAlerts = index.traceAlerts;
    data->executionAlerts = index.executionAlerts;
    data->traceModes = index.traceModes;
    data->executionModes = index.executionModes;
    data->diagnostics = diagnostics();
    data->generation = generation++;
    data->complete = complete;
    data->maxRecordBytes = index.maxRecordBytes;
    data->maxDecodedBytes = index.maxDecodedBytes;
    data->files = index.files;
    data->spill = index.spillArena;
    const auto stopOf = [](const FileState& f) {
        return f.tensorBoardStop.value_or(Snapshot::Data::kNoStop);
    };
    for (const auto& f : traceFiles)
        data->traceFileTensorBoardStops.push_back(stopOf(f));
    data->executionTensorBoardStop = stopOf(executions);
    for (const FileState* f : {&sourceFiles, &stackFrames, &graphs, &executions})
        if (f->tensorBoardStop)
            data->tensorBoardStops.push_back({f->path.string(), *f->tensorBoardStop});
    for (const auto& f : traceFiles)
        if (f.tensorBoardStop)
            data->tensorBoardStops.push_back({f.path.string(), *f.tensorBoardStop});
    data->expected = options.expected;
    if (!layout.fileSets.empty())
        readExpectedFile(*index.files, layout.directory, data->expected, data->diagnostics);
    data->keepWalk = !options.indexCache.directory.empty();
    data->graphsRead = graphs.offset;
    if (data->keepWalk)
        data->relay = relay;
    if (auto known = latestAnalysis(patternTexts(data->expected))) {
        if (known->traces == index.traces.size() && known->executions == index.executions.size())
            data->known = std::move(known);
        else if (known->walk && known->propagation) // more since: the analysis goes on
            data->prior = std::move(known);
    }
    auto snapshot = std::make_shared<const Snapshot>(std::move(data));
    std::lock_guard lock(latestMutex);
    latest = snapshot;
    return snapshot;
}

LogdirReader::LogdirReader(std::filesystem::path path, ReaderOptions options)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->path = std::move(path);
    m_impl->options = std::move(options);
    if (!m_impl->options.discovery.fileSystem)
        m_impl->options.discovery.fileSystem = realFileSystem();
    m_impl->applySettings(m_impl->index);
    m_impl->publish(true); // generation 0: nothing read yet
}

LogdirReader::~LogdirReader() = default;

const std::filesystem::path& LogdirReader::path() const
{
    return m_impl->path;
}

std::shared_ptr<const Snapshot> LogdirReader::latest() const
{
    std::lock_guard lock(m_impl->latestMutex);
    return m_impl->latest;
}

bool LogdirReader::Impl::readFiles(const UpdateLimits& limits)
{
    std::size_t fileCount = 0;
    forEachFile([&fileCount](const FileState&) { ++fileCount; });
    index.closeFilesAfterReading = fileCount > openFileBudget();
    bool complete = true;
    if (!layout.fileSets.empty()) {
        // TensorFlow's order (format §8.3): it fixes indices and the order of alerts.
        loadSourceFiles(sourceFiles, index);
        loadStackFrames(stackFrames, index);
        const std::size_t declaredGraphs = index.graphs.declaredGraphCount();
        loadGraphs(graphs, index);
        std::uint64_t budget = limits.maxTraceBytes;
        for (std::uint32_t i = 0; i < traceFiles.size() && complete; ++i) {
            const auto pass = loadTraces(traceFiles[i], i, index, *pool, budget);
            budget -= std::min(budget, pass.bytesRead);
            complete = !pass.stoppedAtBudget;
        }
        if (complete) {
            loadExecutions(executions, index, *pool);
            for (std::size_t h = 0; h < otherExecutionFiles.size(); ++h)
                loadOtherHostExecutions(otherExecutionFiles[h], index, index.otherHostExecutions[h],
                                        *pool);
        }
        if (index.graphsChanged || index.codeChanged)
            index.countOpsWithUnknownFrames();
        if (index.codeChanged && !index.executionsAwaitingFrames.empty())
            index.recountExecutionsWithUnknownFrames();
        // Only a graph declared now can make executions read before stop counting.
        if (index.graphs.declaredGraphCount() > declaredGraphs &&
            index.executionsOfUndeclaredGraphs.count > 0)
            index.recountExecutionsOfUndeclaredGraphs();
    }
    return complete;
}

std::shared_ptr<const Snapshot> LogdirReader::update(const UpdateLimits& limits)
{
    Impl& d = *m_impl;
    std::lock_guard lock(d.updateMutex);
    const std::uint64_t before = d.progress();
    d.ensurePool();
    bool usedSavedIndex = false;
    if (!d.indexCacheTried) {
        d.indexCacheTried = true;
        d.readIndexCache();
        usedSavedIndex = d.indexCacheStatus == "used";
    }
    const bool savedLimited = usedSavedIndex && d.memoryLimited();
    bool changed = d.refreshLayout();
    bool complete = d.readFiles(limits);
    // Where the memory limit cuts depends on what was read first: past a saved index, records
    // appended to one file come after everything it held of the others, where a read from the
    // start takes them in the files' order (graphs first). A saved index that reaches or passes
    // the limit only now gives way to that read, so that it never answers otherwise.
    if (usedSavedIndex && !savedLimited && (d.memoryLimited() || d.index.wouldGrowPastLimit(0))) {
        d.forgetIndexCache("reading past it reached the memory limit");
        changed = d.refreshLayout() || true;
        complete = d.readFiles(limits);
    }
    // What the arrays took of large pages beyond their last chunks goes back (chunkedarray.hpp).
    indexfile::visitColumns(d, [](auto& column, indexfile::Bound) { column.releaseUncarvedRun(); });
    changed = changed || d.progress() != before || d.index.graphsChanged || d.index.codeChanged;
    auto last = latest();
    if (!changed && last && last->generation() > 0 && last->complete() == complete &&
        last->diagnostics() == d.diagnostics())
        return last;
    return d.publish(complete);
}

bool LogdirReader::saveIndex(std::string* error)
{
    Impl& d = *m_impl;
    std::lock_guard lock(d.updateMutex);
    const IndexCacheOptions& cache = d.options.indexCache;
    const std::uint64_t progress = d.progress();
    if (cache.directory.empty() || d.layout.fileSets.empty() || progress == d.savedProgress ||
        d.bytesRead() < cache.minLogdirBytes)
        return true;
    d.ensurePool();
    const IndexCacheKey key = d.indexCacheKey();
    const auto file = indexCacheFile(cache.directory, key);
    // The analysis goes along (see KnownAnalysis) when the latest snapshot is of the index as
    // it stands.
    const auto snapshot = latest();
    const std::optional<Origin>* origin = nullptr;
    const Propagation* propagation = nullptr;
    ArchiveWriter walk; // the analysis's walk where it stopped, worked out or brought along
    std::span<const std::byte> walkBytes;
    if (snapshot->traceCount() == d.index.traces.size() &&
        snapshot->executionCount() == d.index.executions.size()) {
        origin = &snapshot->origin();
        propagation = &snapshot->propagation(); // worked out with the origin, or brought along
        const Snapshot::Data& data = snapshot->data();
        if (data.walk) {
            intentwalk::putWalkState(walk, *data.walk);
            walkBytes = std::as_bytes(std::span(walk.bytes()));
        } else if (data.known && data.known->walk) {
            walkBytes = data.known->walk->bytes(walk);
        }
    }
    std::string why;
    bool appended = false;
    if (!saveIndexCache(d, key, {origin, propagation, walkBytes},
                        patternTexts(snapshot->data().expected), file, *d.pool, why, &appended)) {
        if (error)
            *error = why;
        return false;
    }
    d.savedProgress = progress;
    pruneIndexCache(cache.directory, cache.maxFiles, file);
    if (cache.checksums && appended) {
        noteAppendedIndexCache(*d.savedIndex);
    } else if (cache.checksums) { // so that even the first reopen need not check it
        ReaderState scratch;
        d.applySettings(scratch.index);
        checkSavedIndexCache(file, key, d.path, d.options.discovery, std::move(scratch), *d.pool);
    }
    return true;
}

std::uint64_t LogdirReader::spilledBytes() const
{
    std::lock_guard lock(m_impl->updateMutex);
    const auto& arena = m_impl->index.spillArena;
    return arena ? arena->storedBytes() : 0;
}

std::string LogdirReader::indexCacheStatus() const
{
    std::lock_guard lock(m_impl->updateMutex);
    return m_impl->indexCacheStatus;
}

} // namespace nanscope::core
