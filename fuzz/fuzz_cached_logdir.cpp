// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a logdir changed after its index was saved. The logdir is the index_cache
// target's fixed one (cachelogdir.hpp, in memory); its index is saved once, and each input edits
// one of its files. A reader that reopens it from the saved index must show exactly what a
// reader of the files shows (the report, every count, alert and the origin): a cache may miss,
// it must never answer differently. A difference aborts, with both reports.
//
// Input: byte 0 picks the file (in name order), byte 1 the edit, bytes 2-3 an offset
// (little-endian, taken modulo what it indexes), the rest the edit's bytes:
//   0 overwrite at the offset, 1 insert at the offset, 2 cut the file at the offset, 3 append;
//   4 replace the payload of the offset-th record with the rest, framed with valid CRCs (a record
//     rewritten in place, as a tool that edits a logdir would leave it); 5 append such a record.
#include "cachelogdir.hpp"
#include "fuzzinput.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/format/record.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>

using namespace nanscope;
using namespace nanscope::core;
namespace fs = std::filesystem;

namespace {

ReaderOptions optionsFor(std::shared_ptr<const FileSystem> files, const fs::path& cache)
{
    ReaderOptions options;
    options.discovery.fileSystem = std::move(files);
    options.threads = 1;
    options.maxMemoryBytes = fuzz::kCacheLogdirMemoryLimit;
    options.indexCache.directory = cache;
    options.indexCache.minLogdirBytes = 0;
    return options;
}

std::string shown(LogdirReader& reader)
{
    return renderText(buildReport(*reader.update()));
}

std::string contentOf(const FileSystem& files, const fs::path& path)
{
    std::string error;
    const auto file = files.open(path, error);
    if (!file)
        return {};
    std::string bytes(file->size(), '\0');
    bytes.resize(file->readAt(0, bytes.data(), bytes.size()));
    return bytes;
}

// The saved index of the unchanged logdir, as files of the cache directory: put back before each
// input, since a reader may note there that it used them.
struct Setup
{
    fs::path cache = fuzz::scratchDirectory() / "cached-logdir";
    std::map<std::string, std::string> saved;
    std::vector<fs::path> logdirFiles;

    Setup()
    {
        fs::remove_all(cache);
        const auto files = fuzz::indexCacheLogdir(fuzz::kCacheLogdirPath);
        LogdirReader reader(fuzz::kCacheLogdirPath, optionsFor(files, cache));
        reader.update();
        if (!reader.saveIndex()) {
            std::fprintf(stderr, "the fixed logdir's index could not be saved\n");
            std::abort();
        }
        for (const auto& entry : fs::directory_iterator(cache)) {
            std::ifstream in(entry.path(), std::ios::binary);
            saved[entry.path().filename().string()] = {std::istreambuf_iterator<char>(in), {}};
        }
        std::vector<FileSystem::Entry> entries;
        std::string error;
        files->list(fuzz::kCacheLogdirPath, entries, error);
        for (const auto& e : entries)
            logdirFiles.push_back(fuzz::kCacheLogdirPath / e.name);
        std::sort(logdirFiles.begin(), logdirFiles.end());
    }

    void restoreCache() const
    {
        fs::remove_all(cache);
        fs::create_directories(cache);
        for (const auto& [name, bytes] : saved)
            fuzz::writeFile(cache / name, bytes);
    }
};

std::string reframed(std::string_view file, std::size_t which, std::string_view payload)
{
    const std::vector<std::string> payloads = fuzz::payloadsOf(file);
    std::string out;
    for (std::size_t k = 0; k < payloads.size(); ++k)
        format::appendRecord(out, k == which % payloads.size() ? payload : payloads[k]);
    return out;
}

std::string edited(std::string file, std::uint8_t edit, std::size_t offset, std::string_view rest)
{
    const std::size_t at = file.empty() ? 0 : offset % (file.size() + 1);
    switch (edit % 6) {
    case 0:
        file.replace(at, std::min(rest.size(), file.size() - at), rest);
        break;
    case 1:
        file.insert(at, rest);
        break;
    case 2:
        file.resize(at);
        break;
    case 3:
        file.append(rest);
        break;
    case 4:
        if (!fuzz::payloadsOf(file).empty())
            file = reframed(file, offset, rest);
        break;
    default:
        format::appendRecord(file, rest);
        break;
    }
    return file;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const Setup setup;
    if (size < 4 || setup.logdirFiles.empty())
        return 0;
    const std::string_view input = fuzz::asText({data, size});
    const fs::path& path = setup.logdirFiles[data[0] % setup.logdirFiles.size()];
    const std::size_t offset = data[2] | (std::size_t{data[3]} << 8);
    auto files = fuzz::indexCacheLogdir(fuzz::kCacheLogdirPath);
    files->add(path, edited(contentOf(*files, path), data[1], offset, input.substr(4)));

    setup.restoreCache();
    LogdirReader cached(fuzz::kCacheLogdirPath, optionsFor(files, setup.cache));
    LogdirReader fresh(fuzz::kCacheLogdirPath, optionsFor(files, {}));
    const std::string fromCache = shown(cached);
    const std::string fromFiles = shown(fresh);
    if (fromCache != fromFiles) {
        std::fprintf(stderr,
                     "the saved index (%s) answers otherwise than the files:\n--- cached\n%s\n"
                     "--- read\n%s\n",
                     cached.indexCacheStatus().c_str(), fromCache.c_str(), fromFiles.c_str());
        std::abort();
    }
    return 0;
}
