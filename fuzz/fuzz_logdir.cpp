// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a whole logdir. The input is split into up to twelve files — the six of a main
// file set, then the six of a second host's — held in memory; then everything nanscope-report
// does runs on it: discovery, the reader (twice, the first time with a small byte budget when
// asked), alerts, origin and propagation, the details decoded on demand, and for the last
// snapshot the text report and the JSON document.
//
// Input: byte 0 = which of the six files are written as raw bytes (bit i for file i) instead of
// as payloads framed with valid CRCs; byte 1 = options (bit 0: two decoding threads; bit 1: a
// first update with a byte budget of 64 + 37 * (byte 1 >> 2)); then the files' contents
// separated by fuzz::kFileSeparator, each a list of payloads separated by kRecordSeparator.
//
// The files live in a core::MemoryFileSystem, never on disk: the reader runs the same code on it
// as on real files (discovery, the index, details read on demand), thousands of times a second.
// Amplification is a finding: the reader's memory limit here is 2 MiB, and an input whose
// reading makes the heap's peak rise by more than kMaxHeapGrowth aborts (HeapWatch, under
// AddressSanitizer); scripts/fuzz.sh also runs it with -rss_limit_mb and -malloc_limit_mb.
#include "exercise.hpp"
#include "fuzzinput.hpp"
#include "heapwatch.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace nanscope;
using namespace nanscope::core;

namespace {

constexpr std::uint64_t kMemoryLimit = 2u << 20;
// The limit, the records and chunk buffers being read (4 MiB each at most), a snapshot's copy of
// the index, the report: a fixed margin over the limit that no input may pass.
constexpr std::uint64_t kMaxHeapGrowth = 32u << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::uint8_t rawFiles = data[0];
    const std::uint8_t options = data[1];
    fuzz::HeapWatch::start();
    const std::filesystem::path dir = "/logdir";
    auto files = std::make_shared<MemoryFileSystem>();
    auto contents = fuzz::logdirFiles(fuzz::asText({data + 2, size - 2}), rawFiles);
    for (std::size_t i = 0; i < contents.size(); ++i)
        files->add(fuzz::logdirFilePath(dir, i), std::move(contents[i]));

    ReaderOptions readerOptions;
    readerOptions.discovery.fileSystem = files;
    readerOptions.threads = 1 + (options & 1);
    readerOptions.maxMemoryBytes = kMemoryLimit;
    LogdirReader reader(dir, readerOptions);
    if (options & 2) {
        const auto partial = reader.update({.maxTraceBytes = 64 + 37u * (options >> 2)});
        fuzz::exercise(*partial, false);
    }
    fuzz::exercise(*reader.update(), true);
    if (fuzz::HeapWatch::peakGrowth() > kMaxHeapGrowth) {
        std::fprintf(stderr, "amplification: the heap grew by %llu bytes for a %zu-byte input\n",
                     static_cast<unsigned long long>(fuzz::HeapWatch::peakGrowth()), size);
        std::abort();
    }
    return 0;
}
