// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcachetesting.hpp"

#include "logdirbuilder.hpp"
#include "nanscope/core/report.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <thread>
#include <vector>

namespace nanscope::test {

namespace fs = std::filesystem;

core::ReaderOptions cachedIn(const fs::path& cache, std::shared_ptr<const core::FileSystem> files)
{
    core::ReaderOptions options;
    options.indexCache.directory = cache;
    options.indexCache.minLogdirBytes = 0;
    options.discovery.fileSystem = std::move(files);
    return options;
}

std::string fingerprint(const core::Snapshot& s)
{
    std::ostringstream out;
    out << core::renderText(core::buildReport(s));
    for (std::uint64_t i = 0; i < s.traceCount(); ++i) {
        const core::TraceDigest t = s.trace(i);
        out << 't' << t.wallTime << ' ' << t.fileIndex << ' ' << t.offset << ' ' << t.op << ' '
            << t.outputSlot << ' ' << int(t.mode) << ' ' << int(t.health.bits) << ' ' << t.device
            << '\n';
    }
    for (std::uint64_t i = 0; i < s.executionCount(); ++i) {
        const core::ExecutionDigest e = s.execution(i);
        out << 'e' << e.wallTime << ' ' << e.offset << ' ' << e.opType << ' ' << e.graphId << ' '
            << e.modulePath << ' ' << int(e.mode) << ' ' << int(e.health.bits) << ' '
            << e.numInputIds << ' ' << e.numOutputIds << ' ' << e.numTensorValues << '\n';
    }
    for (std::uint64_t k = 0; k < s.alertCount(); ++k) {
        const core::Alert a = s.alert(k);
        out << 'a' << int(a.event.source) << ' ' << a.event.index << ' ' << a.outputSlot << ' '
            << a.nan << ' ' << a.negativeInfinity << ' ' << a.positiveInfinity << '\n';
    }
    for (const auto& op : s.graphs().ops())
        out << 'o' << op.name << ' ' << op.type << ' ' << op.declared << '\n';
    return out.str();
}

std::string readFresh(const fs::path& logdir)
{
    core::LogdirReader reader(logdir);
    return fingerprint(*reader.update());
}

fs::path onlySavedIndex(const fs::path& cache)
{
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(cache))
        if (entry.path().extension() == ".nsidx")
            found.push_back(entry.path());
    REQUIRE(found.size() == 1);
    return found.front();
}

std::string framedOneOpTrace(std::uint64_t i, bool nonFinite)
{
    return framed(
        events::trace(static_cast<double>(i), "g", "r", 0, 2, events::curtHealth(1, nonFinite)));
}

fs::path traceFileOf(const fs::path& logdir)
{
    for (const auto& e : fs::directory_iterator(logdir))
        if (e.path().extension() == ".graph_execution_traces")
            return e.path();
    return {};
}

void letChangesAge()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
}

} // namespace nanscope::test
