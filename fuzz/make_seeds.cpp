// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-fuzz-seeds: seed corpora for the fuzz targets, made from real logdirs.
//
//   nanscope-fuzz-seeds --out DIR [--demo PATH_TO_nanscope-demo-mlp] [--max-bytes N] [LOGDIR...]
//
// With --demo it first records the demo in five tensor debug modes (short runs at once, events
// written as they come, plus one run with a circular buffer) and uses those logdirs too. It
// writes DIR/record_framing, DIR/event_index, DIR/logdir and DIR/followed_logdir in the targets'
// input formats (fuzzinput.hpp); no seed is larger than --max-bytes (default 64 KiB): records are
// dropped from the end of a file until it fits. DIR/index_cache gets the saved index of the
// index_cache target's fixed logdir (cachelogdir.hpp).
#include "cachelogdir.hpp"
#include "fuzzinput.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;
using nanscope::fuzz::kSuffixes;

namespace {

std::string readFile(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeSeed(const fs::path& dir, const std::string& name, const std::string& bytes)
{
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// The file set prefixes of a logdir: suffix → path, for the set of each metadata file.
std::vector<std::map<std::string, fs::path>> fileSets(const fs::path& logdir)
{
    std::vector<std::map<std::string, fs::path>> sets;
    for (const auto& entry : fs::directory_iterator(logdir)) {
        const auto name = entry.path().filename().string();
        const std::string tail = ".metadata";
        if (name.size() <= tail.size() ||
            name.compare(name.size() - tail.size(), tail.size(), tail))
            continue;
        const auto prefix = entry.path().string().substr(0, entry.path().string().size() - 9);
        std::map<std::string, fs::path> set;
        for (const auto suffix : kSuffixes)
            set.emplace(std::string(suffix), fs::path(prefix + "." + std::string(suffix)));
        sets.push_back(std::move(set));
    }
    return sets;
}

// Seeds are committed to the repository: no path or name of the machine that made them.
std::string anonymized(const std::string& payload)
{
    nanscope::tfdbg::DebugEvent event;
    if (!event.ParseFromString(payload))
        return payload;
    if (event.has_source_file()) {
        auto* f = event.mutable_source_file();
        f->set_file_path("/src/" + fs::path(f->file_path()).filename().string());
        f->set_host_name("host");
    } else if (event.has_graph_op_creation()) {
        event.mutable_graph_op_creation()->mutable_code_location()->set_host_name("host");
    } else if (event.has_execution()) {
        event.mutable_execution()->mutable_code_location()->set_host_name("host");
    } else {
        return payload;
    }
    return event.SerializeAsString();
}

// As many whole payloads from the start as fit in `budget` bytes, the first always.
std::vector<std::string> leadingPayloads(const std::vector<std::string>& payloads,
                                         std::size_t budget)
{
    std::vector<std::string> out;
    std::size_t used = 0;
    for (const auto& p : payloads) {
        if (!out.empty() && used + p.size() + 8 > budget)
            break;
        if (p.size() > budget)
            break;
        used += p.size() + 8;
        out.push_back(p);
    }
    return out;
}

std::string reframe(const std::vector<std::string>& payloads)
{
    std::string out;
    for (const auto& p : payloads)
        nanscope::format::appendRecord(out, p);
    return out;
}

void seedsFrom(const fs::path& logdir, const std::string& label, const fs::path& out,
               std::size_t maxBytes)
{
    int setNumber = 0;
    for (const auto& set : fileSets(logdir)) {
        const std::string name = label + "-" + std::to_string(setNumber++);
        std::vector<std::string> parts;
        for (std::size_t i = 0; i < 6; ++i) {
            const std::string suffix(kSuffixes[i]);
            auto payloads = nanscope::fuzz::payloadsOf(readFile(set.at(suffix)));
            for (auto& p : payloads)
                p = anonymized(p);
            // Framing: the leading whole records of the file as they are on disk.
            const auto framing = leadingPayloads(payloads, maxBytes - 1);
            if (!framing.empty())
                writeSeed(out / "record_framing", name + "." + suffix,
                          std::string(1, '\0') + reframe(framing));
            // Decoding one file: kinds 0-4 are the five data files.
            const auto some = leadingPayloads(payloads, maxBytes - 1);
            if (i > 0 && !some.empty())
                writeSeed(out / "event_index", name + "." + suffix,
                          std::string(1, char(i - 1)) +
                              nanscope::fuzz::join(some, nanscope::fuzz::kRecordSeparator));
            // The whole logdir: an equal share of the budget per file.
            parts.push_back(nanscope::fuzz::join(leadingPayloads(payloads, (maxBytes - 2) / 6 - 16),
                                                 nanscope::fuzz::kRecordSeparator));
        }
        const std::string files = nanscope::fuzz::join(parts, nanscope::fuzz::kFileSeparator);
        writeSeed(out / "logdir", name, std::string(2, '\0') + files);
        // Followed in three steps, from every file cut at about half, with the metadata whole
        // or not written yet.
        using namespace std::string_literals;
        writeSeed(out / "followed_logdir", name + "-half", "\0\2\xff\x80\x80\x80\x80\x80"s + files);
        writeSeed(out / "followed_logdir", name + "-metadata-later",
                  "\0\2\0\x80\x80\x80\x80\x80"s + files);
    }
}

pid_t start(const std::vector<std::string>& args)
{
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return error == 0 ? pid : -1;
}

bool succeeded(pid_t pid)
{
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

} // namespace

int main(int argc, char** argv)
{
    fs::path out;
    std::string demo;
    std::size_t maxBytes = 64 * 1024;
    std::vector<fs::path> logdirs;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (arg == "--demo" && i + 1 < argc)
            demo = argv[++i];
        else if (arg == "--max-bytes" && i + 1 < argc)
            maxBytes = std::strtoull(argv[++i], nullptr, 10);
        else
            logdirs.emplace_back(arg);
    }
    if (out.empty() || maxBytes < 256 || (demo.empty() && logdirs.empty())) {
        std::fprintf(stderr, "usage: %s --out DIR [--demo PATH] [--max-bytes N] [LOGDIR...]\n",
                     argv[0]);
        return 2;
    }
    for (const auto& logdir : logdirs)
        seedsFrom(logdir, logdir.filename().string(), out, maxBytes);
    if (!demo.empty()) {
        const fs::path work = out / "demo-logdirs";
        struct Run
        {
            std::string label, mode, buffer;
        };
        const Run runs[] = {
            {"no-tensor", "NO_TENSOR", "-1"},     {"concise", "CONCISE_HEALTH", "-1"},
            {"full-health", "FULL_HEALTH", "-1"}, {"shape", "SHAPE", "-1"},
            {"full-tensor", "FULL_TENSOR", "-1"}, {"circular", "FULL_HEALTH", "50"}};
        // All at once: in sanitizer builds each run takes several seconds, mostly making data.
        std::vector<pid_t> pids;
        for (const auto& r : runs) {
            const fs::path logdir = work / r.label;
            fs::remove_all(logdir);
            pids.push_back(start({demo, "--dump_dir", logdir.string(), "--dump_tensor_debug_mode",
                                  r.mode, "--dump_circular_buffer_size", r.buffer, "--max_steps",
                                  "3", "--train_batch_size", "4"}));
        }
        for (std::size_t i = 0; i < pids.size(); ++i) {
            if (!succeeded(pids[i])) {
                std::fprintf(stderr, "%s: the demo failed (%s)\n", argv[0], runs[i].label.c_str());
                return 1;
            }
            seedsFrom(work / runs[i].label, "demo-" + runs[i].label, out, maxBytes);
        }
        fs::remove_all(work);
    }
    const std::string savedIndex = nanscope::fuzz::savedIndexOfCacheLogdir();
    if (savedIndex.empty()) {
        std::fprintf(stderr, "%s: the fixed logdir's index could not be saved\n", argv[0]);
        return 1;
    }
    writeSeed(out / "index_cache", "fixed-logdir", savedIndex);
    std::size_t count = 0;
    for (const auto& target :
         {"record_framing", "event_index", "logdir", "followed_logdir", "index_cache"})
        if (fs::is_directory(out / target))
            for ([[maybe_unused]] const auto& e : fs::directory_iterator(out / target))
                ++count;
    std::printf("%zu seeds in %s\n", count, out.c_str());
    return 0;
}
