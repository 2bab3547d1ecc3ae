// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/logdirreader.hpp"

#include "expectedfile.hpp"
#include "indexcache.hpp"
#include "indexstate.hpp"
#include "loaders.hpp"
#include "nanscope/core/plaintext.hpp"
#include "readerstate.hpp"
#include "threadpool.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace nanscope::core {
namespace {

std::string graphLabel(const GraphInfo& g)
{
    return g.name.empty() ? quotedName(g.id) : quotedName(g.name) + " (" + g.id + ")";
}

std::string mebibytes(std::uint64_t bytes)
{
    return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                   : std::to_string(bytes) + " bytes";
}

std::string records(std::uint64_t n)
{
    return std::to_string(n) + (n == 1 ? " record" : " records");
}

// Why nothing after a corrupt record could be read.
std::string noRecordAfter(const FileState& f)
{
    return f.resyncGaveUp ? "; the search for a whole record after it gave up (too many records "
                            "with a valid length but a corrupt payload)"
                          : "; no whole record follows it";
}

// The corrupt ranges read past, each with what was recovered after it.
void skipDiagnostics(const FileState& f, std::vector<Diagnostic>& out)
{
    const std::string path = f.path.string();
    for (const auto& skip : f.skipped)
        out.push_back({Severity::Error, path, skip.begin,
                       "corrupt data: bytes " + std::to_string(skip.begin) + " to " +
                           std::to_string(skip.end) + " (" + std::to_string(skip.end - skip.begin) +
                           " bytes) skipped; " + records(skip.recordsAfter) +
                           " read after them. TensorFlow's reader stops at the first corrupt "
                           "record and shows nothing after it"});
    if (f.unlistedSkipCount > 0)
        out.push_back({Severity::Error, path, std::nullopt,
                       std::to_string(f.unlistedSkipCount) + " more corrupt ranges (" +
                           std::to_string(f.unlistedSkippedBytes) + " bytes) skipped; " +
                           records(f.unlistedRecordsAfter) + " read after them"});
}

void fileDiagnostics(const FileState& f, const IndexState& index, std::vector<Diagnostic>& out)
{
    const std::string path = f.path.string();
    if (f.missing) {
        out.push_back({Severity::Warning, path, std::nullopt, "missing; read as empty"});
        return;
    }
    if (!f.openError.empty()) {
        out.push_back({Severity::Error, path, std::nullopt, "cannot open: " + f.openError});
        return;
    }
    if (f.size < f.offset) {
        out.push_back({Severity::Warning, path, std::nullopt,
                       "the file is shorter (" + std::to_string(f.size) +
                           " bytes) than what was already read from it (" +
                           std::to_string(f.offset) +
                           " bytes): it was truncated or replaced; open the logdir again"});
        return;
    }
    skipDiagnostics(f, out);
    const std::uint64_t rest = f.size - f.offset;
    const std::string notRead = "; the " + std::to_string(rest) +
                                " bytes from here on are not read (TensorFlow's reader stops "
                                "here too)";
    if (f.memoryLimited) {
        out.push_back({Severity::Error, path, f.offset,
                       "reading stopped here: the index reached the memory limit of " +
                           mebibytes(index.maxMemoryBytes) +
                           " (nanscope-report --max-memory, ReaderOptions::maxMemoryBytes); the " +
                           std::to_string(rest) + " bytes from here on are not read"});
        return;
    }
    switch (f.stop) {
    case format::RecordStatus::TooLarge:
        out.push_back({Severity::Error, path, f.offset,
                       "a record here is over the size limit: its length field (whose CRC "
                       "checks) says it is longer than the limit of " +
                           mebibytes(index.maxRecordBytes) +
                           " (a quarter of the memory limit; nanscope-report --max-memory); the " +
                           std::to_string(rest) + " bytes from here on are not read"});
        break;
    case format::RecordStatus::CorruptLength:
        out.push_back({Severity::Error, path, f.offset,
                       "corrupt record: its length field fails its CRC or is impossible" + notRead +
                           noRecordAfter(f)});
        break;
    case format::RecordStatus::CorruptPayload:
        out.push_back({Severity::Error, path, f.offset,
                       "corrupt record: its payload fails its CRC" + notRead + noRecordAfter(f)});
        break;
    case format::RecordStatus::TruncatedTail:
        out.push_back({Severity::Info, path, f.offset,
                       "incomplete record at the end (" + std::to_string(rest) +
                           " bytes): a writer may still be writing it; it is read once complete"});
        break;
    case format::RecordStatus::Ok:
    case format::RecordStatus::EndOfData:
        break;
    }
}

// Cycles of outer context ids: each graph on a cycle, once, in linear time (every graph has one
// outer graph at most, so each walk ends at a graph already seen; chains may be 100 000 deep).
std::vector<GraphIndex> graphsOnCycles(const GraphTable& graphs)
{
    enum : std::uint8_t { Unseen, OnPath, Done };
    const std::size_t n = graphs.graphs().size();
    std::vector<std::uint8_t> state(n, Unseen);
    std::vector<GraphIndex> path;
    std::vector<GraphIndex> onCycle;
    for (GraphIndex start = 0; start < n; ++start) {
        path.clear();
        GraphIndex at = start;
        while (at != kNoGraph && at < n && state[at] == Unseen) {
            state[at] = OnPath;
            path.push_back(at);
            at = graphs.graph(at).outer;
        }
        if (at != kNoGraph && at < n && state[at] == OnPath) {
            const auto first = std::find(path.begin(), path.end(), at);
            onCycle.insert(onCycle.end(), first, path.end());
        }
        for (const GraphIndex g : path)
            state[g] = Done;
    }
    std::sort(onCycle.begin(), onCycle.end());
    return onCycle;
}

// What records name that no record declares, per kind.
void unknownsDiagnostics(const IndexState& index, const std::string& graphsPath,
                         const std::string& executionsPath, std::vector<Diagnostic>& out)
{
    const auto say = [&](const IndexState::Unknowns& u, const std::string& path,
                         const std::string& what, const std::string& consequence) {
        if (u.count > 0)
            out.push_back({Severity::Warning, path, std::nullopt,
                           std::to_string(u.count) + " " + what +
                               " (the first: " + quotedName(u.first) + "); " + consequence});
    };
    say(index.opsWithUnknownFrames, graphsPath,
        "ops name stack frame ids that no StackFrameWithId record has",
        "those frames of their creation stacks are shown as unknown");
    say(index.executionsWithUnknownFrames, executionsPath,
        "executions name stack frame ids that no StackFrameWithId record has",
        "those frames of their stacks are shown as unknown");
    say(index.executionsOfUndeclaredGraphs, executionsPath,
        "executions name a graph that no DebuggedGraph declares",
        "they are kept, without the graph's name or ops");
}

void indexDiagnostics(const IndexState& index, const std::string& graphsPath,
                      const std::string& framesPath, std::vector<Diagnostic>& out)
{
    const GraphTable& graphs = index.graphs;
    std::size_t listed = 0;
    for (const auto& op : graphs.ops()) {
        if (op.declared || ++listed > 20)
            continue;
        const auto id = static_cast<OpId>(&op - graphs.ops().data());
        const auto it = index.tracesOfUndeclaredOps.find(id);
        const std::uint64_t traces = it == index.tracesOfUndeclaredOps.end() ? 0 : it->second;
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       std::to_string(traces) + " traces name op " + quotedName(op.name) +
                           " of graph " + graphLabel(graphs.graph(op.graph)) +
                           ", which no GraphOpCreation declares; they are kept with an unknown "
                           "op type (TensorFlow's reader stops at the first)"});
    }
    if (listed > 20)
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       std::to_string(listed - 20) + " more undeclared ops are named by traces"});
    for (const auto& g : graphs.graphs()) {
        if (!g.declared)
            out.push_back({Severity::Warning, graphsPath, std::nullopt,
                           "graph id " + quotedName(g.id) +
                               " is used by ops or traces but no DebuggedGraph declares it"});
        else if (!g.outerId.empty() && g.outer == kNoGraph)
            out.push_back({Severity::Warning, graphsPath, std::nullopt,
                           "graph " + graphLabel(g) + " names outer graph " +
                               quotedName(g.outerId) + ", which is not declared"});
    }
    const auto cycle = graphsOnCycles(graphs);
    if (!cycle.empty()) {
        std::string names;
        for (std::size_t i = 0; i < cycle.size() && i < 5; ++i)
            names += (i ? ", " : "") + graphLabel(graphs.graph(cycle[i]));
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       "the outer context ids of " + std::to_string(cycle.size()) +
                           " graphs form a cycle (" + names +
                           "); their chains of outer graphs are cut there"});
    }
    if (const auto pending = index.code.unresolvedFrameCount())
        out.push_back({Severity::Warning, framesPath, std::nullopt,
                       std::to_string(pending) +
                           " stack frames name a source file index that no SourceFile record "
                           "has (yet); they are kept and resolved when the file arrives "
                           "(TensorFlow's reader drops them)"});
    if (graphs.droppedEdges() > 0)
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       std::to_string(graphs.droppedEdges()) +
                           " op inputs name an output slot above " +
                           std::to_string(kMaxOutputSlots - 1) +
                           "; those edges are not shown among the producers' consumers"});
    if (index.clampedSlots > 0)
        out.push_back({Severity::Warning,
                       {},
                       std::nullopt,
                       std::to_string(index.clampedSlots) +
                           " traces have an output slot above 65535; it is shown as 65535"});
    if (index.tracesOfUncountedDevices > 0)
        out.push_back({Severity::Warning,
                       {},
                       std::nullopt,
                       std::to_string(index.tracesOfUncountedDevices) +
                           " traces name a device beyond the first " +
                           std::to_string(kMaxTraceDevices) +
                           " device names; they are shown as of no device"});
}

} // namespace

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
    // Back to a state that read nothing, the saved index set aside for `why`.
    void forgetIndexCache(const std::string& why);
    bool memoryLimited() const;
    // Reads what the files hold past the state; false when a budget stopped it.
    bool readFiles(const UpdateLimits& limits);
    // Grows with everything read (records, offsets, stops): unchanged means nothing new.
    std::uint64_t progress() const;
    std::uint64_t bytesRead() const;
    bool refreshLayout();
    std::shared_ptr<const Snapshot> publish(bool complete);
    std::vector<Diagnostic> diagnostics() const;
};

// Finds file sets that appeared since the last update (a host that started later). Indices stay
// stable: new sets are read after the known ones.
bool LogdirReader::Impl::refreshLayout()
{
    DiscoveryOptions discovery = options.discovery;
    if (!layout.fileSets.empty() && layout.fileSets.front().hasMetadata)
        discovery.runId = layout.runId;
    LogdirLayout found = discoverLogdir(path, discovery);
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

void LogdirReader::Impl::forgetIndexCache(const std::string& why)
{
    ReaderState fresh;
    applySettings(fresh.index);
    static_cast<ReaderState&>(*this) = std::move(fresh);
    publishedLayout.reset();
    indexCacheStatus = "not used: " + why;
    savedProgress = UINT64_MAX;
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
        // In the files' reading order, then by offset: where a reader found them (this update or
        // an earlier one, or a saved index's) must not change the order they are shown in.
        std::unordered_map<std::string, std::size_t> rank;
        forEachFile([&](const FileState& f) { rank.emplace(f.path.string(), rank.size()); });
        std::vector<Diagnostic> problems = index.recordProblems.list();
        const auto key = [&](const Diagnostic& d) {
            const auto it = rank.find(d.file);
            return std::make_pair(it == rank.end() ? rank.size() : it->second,
                                  d.offset.value_or(UINT64_MAX));
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
    const auto& known = index.knownOrigin;
    if (known && known->traces == index.traces.size() &&
        known->executions == index.executions.size() && known->graphsRead == graphs.offset &&
        known->patterns == patternTexts(data->expected)) {
        data->knownOrigin = known->origin;
        data->knownPropagation = known->propagation;
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
    // The origin goes along (see IndexState::knownOrigin), when the latest snapshot is of the
    // index as it stands.
    const auto snapshot = latest();
    const std::optional<Origin>* origin = nullptr;
    const Propagation* propagation = nullptr;
    if (snapshot->traceCount() == d.index.traces.size() &&
        snapshot->executionCount() == d.index.executions.size()) {
        origin = &snapshot->origin();
        propagation = &snapshot->propagation(); // worked out with the origin, or brought along
    }
    std::string why;
    if (!saveIndexCache(d, key, {origin, propagation}, patternTexts(snapshot->data().expected),
                        file, *d.pool, why)) {
        if (error)
            *error = why;
        return false;
    }
    d.savedProgress = progress;
    pruneIndexCache(cache.directory, cache.maxFiles, file);
    if (cache.checksums) { // so that even the first reopen need not check it
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
