// SPDX-License-Identifier: GPL-3.0-or-later
#include "readerdiagnostics.hpp"

#include "nanscope/core/plaintext.hpp"
#include "readerstate.hpp"

#include <algorithm>
#include <string>

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

} // namespace

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
    // By graph id and name, not in the table's order: that is the order in which records named
    // them, which differs between a logdir read whole and one followed while it was written.
    const auto idOf = [&graphs](GraphIndex g) -> std::string_view {
        return graphs.graph(g).id;
    };
    std::vector<const OpInfo*> undeclared;
    for (const auto& op : graphs.ops())
        if (!op.declared)
            undeclared.push_back(&op);
    constexpr std::size_t kListedOps = 20;
    const auto listedEnd = undeclared.begin() + std::min(undeclared.size(), kListedOps);
    std::partial_sort(undeclared.begin(), listedEnd, undeclared.end(),
                      [&idOf](const OpInfo* a, const OpInfo* b) {
                          return std::pair(idOf(a->graph), std::string_view(a->name)) <
                                 std::pair(idOf(b->graph), std::string_view(b->name));
                      });
    for (auto it = undeclared.begin(); it != listedEnd; ++it) {
        const OpInfo& op = **it;
        const auto id = static_cast<OpId>(&op - graphs.ops().data());
        const auto traced = index.tracesOfUndeclaredOps.find(id);
        const std::uint64_t traces =
            traced == index.tracesOfUndeclaredOps.end() ? 0 : traced->second;
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       std::to_string(traces) + " traces name op " + quotedName(op.name) +
                           " of graph " + graphLabel(graphs.graph(op.graph)) +
                           ", which no GraphOpCreation declares; they are kept with an unknown "
                           "op type (TensorFlow's reader stops at the first)"});
    }
    if (undeclared.size() > kListedOps)
        out.push_back({Severity::Warning, graphsPath, std::nullopt,
                       std::to_string(undeclared.size() - kListedOps) +
                           " more undeclared ops are named by traces"});
    std::vector<const GraphInfo*> byId;
    for (const auto& g : graphs.graphs())
        if (!g.declared || (!g.outerId.empty() && g.outer == kNoGraph))
            byId.push_back(&g);
    std::sort(byId.begin(), byId.end(),
              [](const GraphInfo* a, const GraphInfo* b) { return a->id < b->id; });
    for (const GraphInfo* g : byId) {
        if (!g->declared)
            out.push_back({Severity::Warning, graphsPath, std::nullopt,
                           "graph id " + quotedName(g->id) +
                               " is used by ops or traces but no DebuggedGraph declares it"});
        else
            out.push_back({Severity::Warning, graphsPath, std::nullopt,
                           "graph " + graphLabel(*g) + " names outer graph " +
                               quotedName(g->outerId) + ", which is not declared"});
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

} // namespace nanscope::core
