// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a logdir followed while it is written. Its files first hold a prefix of what they
// will hold, cut anywhere (inside a record too, as a writer's buffer flushes); a reader reads
// them and works out the origin, then the files grow in place to their whole content in one or
// two more steps, the reader reading again after each. Its last snapshot must show exactly what a
// reader of the whole files shows (the report, every count, alert and the origin): following a
// logdir may never answer otherwise than opening it afterwards. A difference aborts, with both
// reports.
//
// A second host's files are empty until the last step. Traces are numbered in the order they are
// read, as by TensorFlow's reader, so a second host's traces read before the main host's last
// ones come earlier than in the logdir read whole: a true difference, not a fault.
//
// The reader keeps its analyses' walks (an index cache directory is set, as in the app and the
// report), so each step's analysis goes on from the last one's.
//
// Input: byte 0 and the files as the logdir target takes them (fuzz_logdir.cpp), except that
// byte 1's options are: bit 0 two decoding threads; bit 1 a middle step, halfway between the
// prefix and the whole; bit 2 no analysis after the first step (the next goes on from none);
// bit 3 the first step reads traces under a byte budget of 64 + 37 * (byte 1 >> 4), as the
// app's first snapshots do, and the next reads the rest of that prefix; then bytes 2-7: for each of
// the six kinds of file, how much of the main host's file the first step holds, in 255ths (0: the
// file is there and empty).
#include "fuzzinput.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kHeaderBytes = 8;

ReaderOptions optionsFor(std::shared_ptr<const FileSystem> files, std::uint8_t options)
{
    static const fs::path cache = fuzz::scratchDirectory() / "followed-logdir-cache";
    ReaderOptions reader;
    reader.discovery.fileSystem = std::move(files);
    reader.threads = 1 + (options & 1);
    reader.indexCache.directory = cache; // never saved into: the reader keeps its walks
    return reader;
}

std::string shown(const Snapshot& snapshot)
{
    return renderText(buildReport(snapshot));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < kHeaderBytes)
        return 0;
    const std::uint8_t rawFiles = data[0];
    const std::uint8_t options = data[1];
    const std::uint8_t* firstShare = data + 2;
    const fs::path dir = "/logdir";

    const std::vector<std::string> whole =
        fuzz::logdirFiles(fuzz::asText({data + kHeaderBytes, size - kHeaderBytes}), rawFiles);

    auto followed = std::make_shared<MemoryFileSystem>();
    std::vector<std::size_t> held(whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        held[i] = i < 6 ? whole[i].size() * firstShare[i] / 255 : 0;
        followed->add(fuzz::logdirFilePath(dir, i), whole[i].substr(0, held[i]));
    }
    LogdirReader reader(dir, optionsFor(followed, options));
    if (options & 8)
        (void)reader.update({.maxTraceBytes = 64 + 37u * (options >> 4)})->origin();
    const auto first = reader.update();
    if (!(options & 4))
        (void)first->origin();

    const auto growTo = [&](auto target) {
        for (std::size_t i = 0; i < whole.size(); ++i) {
            const std::size_t to = target(i);
            followed->append(fuzz::logdirFilePath(dir, i),
                             std::string_view(whole[i]).substr(held[i], to - held[i]));
            held[i] = to;
        }
    };
    if (options & 2) {
        growTo(
            [&](std::size_t i) { return i < 6 ? held[i] + (whole[i].size() - held[i]) / 2 : 0; });
        (void)reader.update()->origin();
    }
    growTo([&](std::size_t i) { return whole[i].size(); });
    const std::string fromFollowing = shown(*reader.update());

    auto files = std::make_shared<MemoryFileSystem>();
    for (std::size_t i = 0; i < whole.size(); ++i)
        files->add(fuzz::logdirFilePath(dir, i), whole[i]);
    LogdirReader fresh(dir, optionsFor(files, options));
    const std::string fromFiles = shown(*fresh.update());
    if (fromFollowing != fromFiles) {
        std::fprintf(stderr,
                     "following the logdir answers otherwise than reading it whole:\n"
                     "--- followed\n%s\n--- read whole\n%s\n",
                     fromFollowing.c_str(), fromFiles.c_str());
        std::abort();
    }
    return 0;
}
