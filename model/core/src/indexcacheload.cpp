// SPDX-License-Identifier: GPL-3.0-or-later
// Reading saved indexes back, and every check that decides whether one can be used.
#include "cachefiles.hpp"
#include "filepages.hpp"
#include "indexcache.hpp"
#include "indexcachechecks.hpp"
#include "indexcacheformat.hpp"
#include "indexcachetrust.hpp"
#include "loaders.hpp"
#include "nanscope/format/crc32c.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;
using namespace indexfile;

// Reads a saved index into a reader's fresh state; see loadIndexCache.
class SidecarLoader
{
public:
    SidecarLoader(std::span<const std::byte> bytes, const PrivateCopy* copy,
                  const IndexCacheKey& key, const fs::path& logdir,
                  const DiscoveryOptions& discovery, ReaderState& state, ThreadPool& pool,
                  bool checksums, bool checkedBefore)
        : m_bytes(bytes), m_copy(copy), m_mapped(copy && copy->fileBacked()), m_key(key),
          m_logdir(logdir), m_discovery(discovery), m_state(state), m_pool(pool),
          m_checksums(checksums), m_checkedBefore(checkedBefore)
    {}

    bool load(std::shared_ptr<const void> owner, std::string& why)
    {
        // A file checked whole before and unchanged since (indexcachetrust.hpp) skips its arrays'
        // checksums, never the checks of what their entries index: a record can be forged, and
        // an index out of range would be read out of bounds.
        const bool ok = readHeader() && readKey() && readLayout() && readFiles() &&
                        replaySmallFiles() && readGraphPlaceholders() && readIndexTables() &&
                        readOrigin(owner) && readColumns(owner) && checkExecutions() &&
                        checkAlerts() && releaseChecked() && checkOrigin() && finish();
        if (!ok)
            why = m_why.empty() ? "it is damaged (an impossible value)" : m_why;
        return ok;
    }

private:
    bool fail(std::string why)
    {
        if (m_why.empty())
            m_why = std::move(why);
        return false;
    }
    bool damaged() { return fail("it is damaged (an impossible value)"); }
    bool checked() { return m_meta.ok() || damaged(); }

    bool readHeader()
    {
        if (m_bytes.size() < kHeaderBytes)
            return fail("it is too short to be a saved index");
        ArchiveReader h(m_bytes.first(kHeaderBytes));
        std::array<char, 8> magic{};
        for (char& c : magic)
            c = h.get<char>();
        if (magic != kMagic)
            return fail("it is not a saved index");
        if (h.get<std::uint32_t>() != kVersion)
            return fail("it was saved by another version of NaNscope");
        if (h.get<std::uint32_t>() != kByteOrder)
            return fail("it was saved on a machine of the other byte order");
        const auto offset = h.get<std::uint64_t>();
        const auto bytes = h.get<std::uint64_t>();
        const auto checksum = h.get<std::uint32_t>();
        const auto headerBytes = static_cast<std::size_t>(8 + 4 + 4 + 8 + 8 + 4);
        const auto headerChecksum = h.get<std::uint32_t>();
        if (m_checksums && headerChecksum != format::crc32c(m_bytes.data(), headerBytes))
            return fail("its header is damaged");
        if (offset < kHeaderBytes || offset > m_bytes.size() || bytes > m_bytes.size() - offset)
            return fail("it is truncated");
        const auto describe =
            m_bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(bytes));
        if (m_checksums && format::crc32c(describe.data(), describe.size()) != checksum)
            return fail("it is damaged (a checksum does not match)");
        m_meta = ArchiveReader(describe);
        return true;
    }

    bool readKey()
    {
        IndexCacheKey saved;
        saved.logdir = m_meta.getString();
        saved.runId = m_meta.getString();
        saved.maxMemoryBytes = m_meta.get<std::uint64_t>();
        saved.mainHost = m_meta.getString();
        if (!checked())
            return false;
        if (saved.logdir != m_key.logdir)
            return fail("it is the index of another logdir");
        if (saved != m_key)
            return fail("it was read with other options (run, main host or memory limit)");
        return true;
    }

    // The file sets must be the ones a fresh read would find first, in the same order.
    bool readLayout()
    {
        const std::string runId = m_meta.getString();
        const std::size_t sets = m_meta.count(8);
        std::vector<std::string> names;
        for (std::size_t i = 0; i < sets && m_meta.ok(); ++i)
            names.push_back(m_meta.getString());
        if (!checked())
            return false;
        if (names.empty())
            return damaged();
        LogdirLayout found = discoverLogdir(m_logdir, m_discovery);
        if (found.runId != runId || found.fileSets.size() < names.size())
            return fail("the logdir's runs or hosts changed");
        for (std::size_t i = 0; i < names.size(); ++i)
            if (found.fileSets[i].prefix.filename().string() != names[i])
                return fail("the logdir's runs or hosts changed");
        LogdirLayout& layout = m_state.layout;
        layout.directory = found.directory;
        layout.runId = found.runId;
        layout.tensorflowVersion = found.tensorflowVersion;
        layout.fileVersion = found.fileVersion;
        layout.startingWallTime = found.startingWallTime;
        for (std::size_t i = 0; i < names.size(); ++i)
            m_state.adoptFileSet(found.fileSets[i]);
        return true;
    }

    // Each file the index read must still hold, up to where it was read, what it held.
    bool readFiles()
    {
        const std::size_t count = m_meta.count(64);
        std::size_t expected = 0;
        m_state.forEachFile([&](const FileState&) { ++expected; });
        if (!checked() || count != expected)
            return damaged();
        for (std::size_t i = 0; i < count && m_meta.ok(); ++i)
            m_files.push_back(getFile(m_meta));
        if (!checked())
            return false;
        std::size_t i = 0;
        bool same = true;
        m_state.forEachFile([&](FileState& f) {
            const SavedFile& saved = m_files[i++];
            if (same && saved.wasRead() && saved.offset > 0)
                same = stillTheSame(f, saved);
        });
        return same;
    }

    // A file whose size, times, device and inode are as saved was not written since (a write
    // through the file system changes the change time, which no user can set back): its ends are
    // compared. The same file (device and inode) grown longer is compared by its ends and a
    // sample of its pieces in proportion to the growth (sampledPieces): an append is what a
    // followed run does, and reading all of it again would make the reopen cost a first open.
    // Any other (replaced, or rewritten to the same size) must hold, in every piece of what was
    // read, the bytes it held.
    bool stillTheSame(FileState& f, const SavedFile& saved)
    {
        const bool same = compareWithSaved(f, saved);
        if (m_files.size() > openFileBudget())
            f.handle.close(); // the update opens it again when it reads on
        return same;
    }

    bool compareWithSaved(FileState& f, const SavedFile& saved)
    {
        const std::string name = f.path.filename().string();
        if (!f.ensureOpen(*m_state.index.files))
            return fail(name + " can no longer be read");
        const FileStamp& was = saved.stamp;
        const std::uint64_t size = f.handle.size();
        if (size < saved.offset)
            return fail(name + " is shorter than what was read of it");
        const EndChecksums sums = endChecksums(f.handle, saved.offset);
        if (!sums.ok || sums.head != was.ends.head || sums.tail != was.ends.tail)
            return fail(name + " holds other data");
        const OpenFile::Identity identity = f.handle.identity();
        const bool sameFile = identity.known() && identity.device == was.identity.device &&
                              identity.inode == was.identity.inode;
        const bool unchanged = sameFile && was.identity.changeTime != 0 &&
                               identity.changeTime == was.identity.changeTime && size == was.size &&
                               f.handle.modificationTime() == was.modified;
        if (!unchanged && !sameContent(f, saved, sameFile && size > was.size))
            return fail(name + " holds other data");
        f.checkedContent = was.content;
        f.checkedBytes = saved.offset;
        return true;
    }

    // Whether what was read of `f` still holds the bytes it held: every piece of it, or a sample
    // when the file `grew`.
    bool sameContent(const FileState& f, const SavedFile& saved, bool grew)
    {
        const std::vector<std::uint32_t>& was = saved.stamp.content;
        if (grew)
            return piecesMatch(f.handle, saved.offset, was,
                               sampledPieces(was.size(), f.handle.size() - saved.stamp.size),
                               m_pool);
        const auto content = contentChecksums(f.handle, saved.offset, m_pool);
        return content && *content == was;
    }

    // The graph and code tables are rebuilt from the files as they are now, up to where the index
    // read them, with the problems found in them then (saved with the rest).
    bool replaySmallFiles()
    {
        IndexState& index = m_state.index;
        DiagnosticList saved = std::move(index.recordProblems);
        index.recordProblems = DiagnosticList(0);
        const auto replay = [&](FileState& f, std::size_t k, auto&& load) {
            const SavedFile& s = m_files[k];
            if (!s.wasRead())
                return true;
            f.readLimit = s.offset;
            load(f, index);
            f.readLimit = UINT64_MAX;
            m_replayedStops[k] = f.tensorBoardStop;
            return f.offset == s.offset;
        };
        const bool same = replay(m_state.sourceFiles, 0, loadSourceFiles) &&
                          replay(m_state.stackFrames, 1, loadStackFrames) &&
                          replay(m_state.graphs, 2, loadGraphs);
        index.recordProblems = std::move(saved);
        return same || fail("its source files, stack frames or graphs read differently");
    }

    bool readGraphPlaceholders()
    {
        const auto hash = m_meta.get<std::uint64_t>();
        GraphTable& graphs = m_state.index.graphs;
        const std::size_t undeclaredGraphs = m_meta.count(8);
        for (std::size_t i = 0; i < undeclaredGraphs && m_meta.ok(); ++i) {
            const std::string id = m_meta.getString();
            if (!graphs.findGraph(id))
                graphs.graphPlaceholder(id);
        }
        const std::size_t undeclaredOps = m_meta.count(16);
        for (std::size_t i = 0; i < undeclaredOps && m_meta.ok(); ++i) {
            const std::string graphId = m_meta.getString();
            const std::string name = m_meta.getString();
            const auto graph = graphs.findGraph(graphId);
            if (!graph)
                return fail("its graphs read differently");
            if (graphs.findOp(*graph, name) == kNoOp)
                graphs.opPlaceholder(*graph, name);
        }
        if (!checked())
            return false;
        if (graphStructureHash(graphs) != hash)
            return fail("its graphs read differently");
        m_state.index.graphsChanged = true;
        m_state.index.codeChanged = true;
        m_state.index.countOpsWithUnknownFrames();
        return true;
    }

    bool readIndexTables()
    {
        IndexState& index = m_state.index;
        const std::size_t devices = m_meta.count(8);
        if (devices == 0 || devices > kMaxTraceDevices)
            return damaged();
        index.traceDevices.clear();
        for (std::size_t i = 0; i < devices && m_meta.ok(); ++i)
            index.traceDevices.push_back(m_meta.getString());
        index.tracesOfUncountedDevices = m_meta.get<std::uint64_t>();
        const std::size_t segments = m_meta.count(12);
        for (std::size_t i = 0; i < segments && m_meta.ok(); ++i) {
            TraceSegment s;
            s.firstIndex = m_meta.get<std::uint64_t>();
            s.fileIndex = m_meta.get<std::uint32_t>();
            if (s.fileIndex >= m_state.traceFiles.size() ||
                (!index.segments.empty() && s.firstIndex < index.segments.back().firstIndex))
                return damaged();
            index.segments.push_back(s);
        }
        const std::size_t strings = m_meta.count(0); // read one by one, nothing sized from it
        for (std::size_t i = 1; i < strings && m_meta.ok(); ++i)
            if (index.strings.intern(m_meta.getString()) != i)
                return damaged(); // the same string twice
        if (strings == 0)
            return damaged();
        index.traceModes = m_meta.get<DebugModeSet>();
        index.executionModes = m_meta.get<DebugModeSet>();
        if (!getRecordProblems(m_meta, index.recordProblems))
            return damaged();
        const std::size_t undeclared = m_meta.count(12);
        for (std::size_t i = 0; i < undeclared && m_meta.ok(); ++i) {
            const auto op = m_meta.get<OpId>();
            const auto traces = m_meta.get<std::uint64_t>();
            if (op >= index.graphs.ops().size())
                return damaged();
            index.tracesOfUndeclaredOps[op] = traces;
        }
        index.clampedSlots = m_meta.get<std::uint64_t>();
        index.executionsOfUndeclaredGraphs = getUnknowns(m_meta);
        index.executionsWithUnknownFrames = getUnknowns(m_meta);
        if (!index.executionsAwaitingFrames.load(m_meta, index.executionsWithUnknownFrames.count))
            return damaged();
        if (m_meta.count(0) != index.otherHostExecutions.size())
            return damaged();
        return checked();
    }

    bool readOrigin(const std::shared_ptr<const void>& owner)
    {
        m_origin = getKnownOrigin(m_meta);
        // Each trace and execution takes at least its 8-byte wall time in the file.
        m_propagation = getKnownPropagation(m_meta, m_bytes.size() / 8, owner);
        return checked();
    }

    // Checked once the arrays are in: the events they name must be among them.
    bool checkOrigin()
    {
        if (m_propagation && !validPropagation(*m_propagation, m_state.index))
            return damaged();
        return !m_origin || !m_origin->origin || validOrigin(*m_origin->origin, m_state.index) ||
               damaged();
    }

    std::uint64_t boundOf(Bound bound) const
    {
        switch (bound) {
        case Bound::Ops:
            return m_state.index.graphs.ops().size();
        case Bound::TraceDevices:
            return m_state.index.traceDevices.size();
        case Bound::Strings:
            return m_state.index.strings.strings().size();
        case Bound::None:
            break;
        }
        return 0;
    }

    CheckedBytes checkedBytes() const
    {
        return {.verifyChecksums = m_checksums && !m_checkedBefore, .readThrough = m_copy};
    }

    bool readColumns(const std::shared_ptr<const void>& owner)
    {
        std::vector<ArrayBlock> blocks;
        std::vector<ColumnEntry> entries;
        bool ok = true;
        visitColumns(m_state, [&](auto& column, Bound bound) {
            using Array = std::remove_cvref_t<decltype(column)>;
            const ColumnEntry e = getColumnEntry(m_meta);
            if (!m_meta.ok() || !extentsFit<Array>(e, m_bytes.size())) {
                ok = false;
                return;
            }
            entries.push_back(e);
            if (m_checkedBefore && bound == Bound::None)
                return; // its checksums are spared, and nothing else is checked block by block
            for (const Extent& x : e.extents) {
                const std::uint64_t bytes = x.count * e.elementBytes;
                for (std::size_t k = 0; k < x.blockChecksums.size(); ++k) {
                    const std::uint64_t begin = k * kBlockBytes;
                    blocks.push_back(
                        {m_bytes.data() + x.offset + begin,
                         static_cast<std::size_t>(std::min(kBlockBytes, bytes - begin)),
                         x.blockChecksums[k], e.elementBytes, boundOf(bound)});
                }
            }
        });
        // The walk follows the entries when saved with them (indexcacheformat.hpp).
        m_walk = ok && !m_meta.atEnd() ? getSavedWalk(m_meta, owner) : nullptr;
        if (!ok || !checked())
            return damaged();
        if (!checkBlocks(blocks))
            return fail("it is damaged (a checksum does not match, or an entry is out of range)");
        m_entries = entries;
        std::size_t i = 0;
        visitColumns(m_state, [&](auto& column, Bound) {
            using T = std::remove_cvref_t<decltype(column[0])>;
            for (const Extent& x : entries[i].extents)
                column.adopt(reinterpret_cast<const T*>(m_bytes.data() + x.offset),
                             static_cast<std::size_t>(x.count), owner, m_mapped);
            ++i;
        });
        return true;
    }

    // On the pool's threads and this one: a few hundred megabytes take tens of milliseconds.
    bool checkBlocks(const std::vector<ArrayBlock>& blocks)
    {
        return allOnPool(m_pool, blocks.size(), [&, how = checkedBytes()](std::size_t k) {
            return checkArrayBlock(blocks[k], how);
        });
    }

    bool checkExecutions()
    {
        const auto check = [](const ExecutionColumns& e) {
            const std::size_t n = e.size();
            bool sameSizes = true;
            visitExecutionColumns(e, [&](const auto& column, Bound) {
                if (&column != static_cast<const void*>(&e.tensorIds) &&
                    &column != static_cast<const void*>(&e.outputHealth))
                    sameSizes = sameSizes && column.size() == n;
            });
            if (!sameSizes)
                return false;
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t ids = std::uint64_t{e.inputCount[i]} + e.outputCount[i];
                if (e.idsBegin[i] > e.tensorIds.size() ||
                    ids > e.tensorIds.size() - e.idsBegin[i] ||
                    e.healthBegin[i] > e.outputHealth.size() ||
                    e.healthCount[i] > e.outputHealth.size() - e.healthBegin[i])
                    return false;
            }
            return true;
        };
        if (!check(m_state.index.executions))
            return damaged();
        for (const auto& host : m_state.index.otherHostExecutions)
            if (!check(host))
                return damaged();
        bool sameTraceSizes = true;
        visitTraceColumns(m_state.index.traces, [&](const auto& column, Bound) {
            sameTraceSizes = sameTraceSizes && column.size() == m_state.index.traces.size();
        });
        if (!sameTraceSizes)
            return damaged();
        for (const auto& s : m_state.index.segments)
            if (s.firstIndex > m_state.index.traces.size())
                return damaged();
        return true;
    }

    // The pages the checks of executions and alerts read leave this process as the blocks' do.
    bool releaseChecked()
    {
        if (m_mapped)
            for (const ColumnEntry& e : m_entries)
                for (const Extent& x : e.extents)
                    releaseFilePages(m_bytes.data() + x.offset,
                                     static_cast<std::size_t>(x.count * e.elementBytes));
        return true;
    }

    // Every alert names an event of its own kind within the index; on the pool, as the blocks.
    bool checkAlerts()
    {
        // The alert arrays are the last two the file lists. They are read where they lie in the
        // copy, as their entries say: an array's last chunk, also copied to the heap by
        // adopt(), holds the same bytes.
        const std::size_t n = m_entries.size();
        if (n < 2)
            return damaged();
        const IndexState& index = m_state.index;
        const std::array arrays{
            std::tuple{&index.traceAlerts, EventSource::Graph, index.traces.size(), n - 2},
            std::tuple{&index.executionAlerts, EventSource::Eager, index.executions.size(), n - 1}};
        constexpr std::size_t perRun = kBlockBytes / sizeof(Alert);
        std::vector<AlertRun> runs;
        for (const auto& [alerts, source, events, entry] : arrays) {
            if (m_entries[entry].count() != alerts->size())
                return damaged();
            for (const Extent& x : m_entries[entry].extents) {
                const auto* first = reinterpret_cast<const Alert*>(m_bytes.data() + x.offset);
                for (std::uint64_t begin = 0; begin < x.count; begin += perRun)
                    runs.push_back(
                        {first + begin,
                         static_cast<std::size_t>(std::min<std::uint64_t>(perRun, x.count - begin)),
                         source, events});
            }
        }
        return allOnPool(m_pool, runs.size(),
                         [&, how = checkedBytes()](std::size_t k) {
                             return checkAlertRun(runs[k], how);
                         }) ||
               damaged();
    }

    bool finish()
    {
        if (!m_meta.atEnd())
            return damaged();
        std::size_t i = 0;
        m_state.forEachFile([&](FileState& f) { restoreFile(f, m_files[i++]); });
        // Where TensorBoard stops in the files read again is where it stops in them now: a
        // corrupt record at the end that became a torn one (cut in the middle) is no stop.
        const std::array<FileState*, 3> replayed{&m_state.sourceFiles, &m_state.stackFrames,
                                                 &m_state.graphs};
        for (std::size_t k = 0; k < replayed.size(); ++k)
            if (m_replayedStops[k])
                replayed[k]->tensorBoardStop = *m_replayedStops[k];
        m_state.savedIndex = std::make_shared<SavedIndexFile>();
        m_state.savedIndex->columns = m_entries;
        IndexState& index = m_state.index;
        if (m_origin)
            index.knownAnalysis = std::make_shared<const KnownAnalysis>(
                KnownAnalysis{.traces = index.traces.size(),
                              .executions = index.executions.size(),
                              .graphsRead = m_state.graphs.offset,
                              .origin = std::move(m_origin->origin),
                              .patterns = std::move(m_origin->patterns),
                              .propagation = std::move(m_propagation),
                              .walk = std::move(m_walk)});
        return true;
    }

    std::span<const std::byte> m_bytes;
    const PrivateCopy* m_copy; // null: bytes of the caller's
    bool m_mapped;             // they map files
    const IndexCacheKey& m_key;
    const fs::path& m_logdir;
    const DiscoveryOptions& m_discovery;
    ReaderState& m_state;
    ThreadPool& m_pool;
    bool m_checksums;
    bool m_checkedBefore;
    ArchiveReader m_meta{{}};
    std::vector<SavedFile> m_files;
    std::vector<ColumnEntry> m_entries;  // the arrays, once read
    std::optional<SavedOrigin> m_origin; // nullopt: not saved
    std::shared_ptr<const KnownPropagation> m_propagation;
    std::shared_ptr<const intentwalk::SavedWalkState> m_walk;
    // TensorBoard's stops in the source-file, stack-frame and graph files as read again (outer
    // nullopt: not read again).
    std::array<std::optional<std::optional<std::uint64_t>>, 3> m_replayedStops;
    std::string m_why;
};

} // namespace

bool loadIndexCache(std::span<const std::byte> bytes, std::shared_ptr<const void> owner,
                    const PrivateCopy* copy, const IndexCacheKey& key, const fs::path& logdir,
                    const DiscoveryOptions& discovery, ReaderState& state, ThreadPool& pool,
                    std::string& why, bool checksums, bool trusted)
{
    SidecarLoader loader(bytes, copy, key, logdir, discovery, state, pool, checksums, trusted);
    return loader.load(std::move(owner), why);
}

} // namespace nanscope::core
