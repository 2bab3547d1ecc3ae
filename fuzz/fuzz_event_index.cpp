// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: decoding DebugEvents and indexing one file of a logdir. The input's first byte
// picks the file kind (source files, stack frames, graphs, executions, graph execution traces);
// the rest are record payloads separated by fuzz::kRecordSeparator, framed with valid CRCs, so
// that every mutation reaches the decoders: the hand-written wire reader, the tensor parser and
// health rules, libprotobuf for the rare records, and the index builders. The file is held in
// memory (core::MemoryFileSystem); the index has a memory limit of 2 MiB, and a heap that grows
// by more than 32 MiB while one input is indexed is a finding (amplification; see heapwatch.hpp).
#include "fuzzinput.hpp"
#include "heapwatch.hpp"
#include "indexstate.hpp"
#include "loaders.hpp"
#include "recorddecoding.hpp"
#include "threadpool.hpp"

#include <cstdlib>

using namespace nanscope;
using namespace nanscope::core;

namespace {

void decodeDirectly(std::string_view payloads)
{
    DecodedTrace trace;
    DecodedExecution execution;
    EventKind kind;
    for (const auto payload : fuzz::split(payloads, fuzz::kRecordSeparator)) {
        (void)decodeTrace(payload, trace);
        (void)decodeExecution(payload, execution);
        if (execution.alerts.size() > execution.outputHealth.size())
            std::abort();
        (void)peekEvent(payload, kind);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    static ThreadPool pool(1);
    const std::string_view payloads = fuzz::asText({data + 1, size - 1});
    decodeDirectly(payloads);

    fuzz::HeapWatch::start();
    const std::filesystem::path path = "/events";
    auto files = std::make_shared<MemoryFileSystem>();
    files->add(path, fuzz::frameAll(payloads));
    IndexState index;
    index.files = files;
    index.maxMemoryBytes = 2u << 20;
    index.maxRecordBytes = index.maxMemoryBytes / 4;
    index.maxDecodedBytes = index.maxMemoryBytes / 4;
    FileState file;
    file.path = path;
    // Twice: the second pass finds nothing new and must change nothing.
    for (int pass = 0; pass < 2; ++pass) {
        switch (data[0] % 5) {
        case 0:
            loadSourceFiles(file, index);
            break;
        case 1:
            loadStackFrames(file, index);
            break;
        case 2:
            loadGraphs(file, index);
            break;
        case 3:
            loadExecutions(file, index, pool);
            break;
        default:
            (void)loadTraces(file, 0, index, pool, UINT64_MAX);
            break;
        }
    }
    // Every trace names an op of the table, every alert an indexed event.
    const auto& ops = index.graphs.ops();
    for (std::size_t i = 0; i < index.traces.size(); ++i)
        if (index.traces.op[i] >= ops.size())
            std::abort();
    for (std::size_t i = 0; i < index.traceAlerts.size(); ++i)
        if (index.traceAlerts[i].event.index >= index.traces.size())
            std::abort();
    for (std::size_t i = 0; i < index.executionAlerts.size(); ++i)
        if (index.executionAlerts[i].event.index >= index.executions.size())
            std::abort();
    for (GraphIndex g = 0; g < index.graphs.graphs().size(); ++g)
        (void)index.graphs.chain(g);
    if (fuzz::HeapWatch::peakGrowth() > (32u << 20))
        std::abort(); // amplification
    return 0;
}
