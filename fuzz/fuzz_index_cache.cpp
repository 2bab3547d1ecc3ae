// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a saved index (model/core/src/indexcache.hpp). The input is the file a reader
// finds in its cache directory for one fixed logdir (cachelogdir.hpp, held in memory); the reader
// opens the logdir with it, then everything the app and the report ask of the snapshot runs,
// every trace and execution included. A saved index that does not fit is a miss (the logdir is
// read from the start); no input may crash, hang or make the reader allocate what a count in it
// claims.
//
// The checksums are off here (IndexCacheOptions::checksums): with them, almost every mutation
// would stop at the first one, and the checks behind them (every count and index against what it
// counts and indexes) would never run. A seed is nanscope-fuzz-seeds' index_cache output: the
// logdir's real saved index.
#include "cachelogdir.hpp"
#include "exercise.hpp"
#include "fuzzinput.hpp"
#include "heapwatch.hpp"
#include "indexcache.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <cstdio>
#include <cstdlib>

using namespace nanscope;
using namespace nanscope::core;

namespace {

// The fixed logdir is a few kilobytes: anything near this is amplification.
constexpr std::uint64_t kMaxHeapGrowth = 32u << 20;

struct Setup
{
    std::shared_ptr<MemoryFileSystem> files = fuzz::indexCacheLogdir(fuzz::kCacheLogdirPath);
    std::filesystem::path cache = fuzz::scratchDirectory() / "index-cache";
    std::filesystem::path file;

    Setup()
    {
        std::filesystem::create_directories(cache);
        const IndexCacheKey key{
            std::filesystem::absolute(fuzz::kCacheLogdirPath).lexically_normal().string(), "",
            fuzz::kCacheLogdirMemoryLimit};
        file = indexCacheFile(cache, key);
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const Setup setup;
    fuzz::writeFile(setup.file, fuzz::asText({data, size}));
    fuzz::HeapWatch::start();
    ReaderOptions options;
    options.discovery.fileSystem = setup.files;
    options.threads = 1;
    options.maxMemoryBytes = fuzz::kCacheLogdirMemoryLimit;
    options.indexCache.directory = setup.cache;
    options.indexCache.checksums = false;
    LogdirReader reader(fuzz::kCacheLogdirPath, options);
    const auto s = reader.update();
    fuzz::exercise(*s, true);
    for (std::uint64_t i = 0; i < s->traceCount(); ++i)
        (void)s->trace(i);
    for (std::size_t host = 0; host < s->layout().fileSets.size(); ++host)
        for (std::uint64_t i = 0; i < s->hostExecutionCount(host); ++i)
            (void)s->hostExecution(host, i);
    if (fuzz::HeapWatch::peakGrowth() > kMaxHeapGrowth) {
        std::fprintf(stderr, "amplification: the heap grew by %llu bytes for a %zu-byte input\n",
                     static_cast<unsigned long long>(fuzz::HeapWatch::peakGrowth()), size);
        std::abort();
    }
    return 0;
}
