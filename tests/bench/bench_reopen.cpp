// SPDX-License-Identifier: GPL-3.0-or-later
// Reopening a large logdir from its saved index, and the memory an index of its size takes.
//
// Each measurement runs in a fresh process (this program run again), so that its peak resident
// set is its own: the first open (read everything, then save the index, which checks the new file
// whole and notes that it did, see indexcachetrust.hpp), five reopens from the saved index
// (counts, alerts and the origin shown), five reopens after 1 % more traces were appended (read
// on top of the index; the last one saves, appending to the saved index), a reopen of that,
// nanscope-report on the reopened logdir as a user runs it, and a reader that follows the logdir as
// the app does while it grows by 1 % three times, opened from the saved index and opened without
// one. What this program writes is on disk before each measurement (settle). Each goal is printed
// beside its figure with the ratio figure / goal (at most 1 meets it).
//
// Usage: nanscope_bench_reopen [--traces N] [--logdir DIR] [--keep] [--index-cache DIR]
//   --traces N     graph execution traces to generate (default 10'000'000)
//   --logdir DIR   reopen this logdir instead of generating one (never written to: the append
//                  step is skipped)
//   --keep         keep the generated logdir (its path is printed)
//   --index-cache DIR  an empty or new directory to save the index in and keep it (for
//                  nanscope_bench_app --index-cache); by default a temporary one, deleted
#include "benchlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace nanscope;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kGoalReopenSeconds = 0.1;
constexpr double kGoalPeakGiB = 2.0; // at 10^8 traces
constexpr int kReopens = 5;
constexpr int kFollowRounds = 3;

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

double peakRssMiB()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// What one child process measured.
struct Measured
{
    double readSeconds = 0;     // to a snapshot with counts, alerts and the origin
    double analysisSeconds = 0; // of it, the origin's (none: brought by the saved index)
    double saveSeconds = 0;
    double peakMiB = 0;
    std::uint64_t traces = 0;
    std::uint64_t alerts = 0;
    std::string status;
};

// In the child: opens the logdir with the saved indexes in `cache`, shows what the app's first
// screen shows, saves the index (when it changed and `save`), and prints the figures on one line.
int child(const fs::path& logdir, const fs::path& cache, bool save)
{
    core::ReaderOptions options;
    options.indexCache.directory = cache;
    options.spill.directory = cache; // as the app and the report spill to the user's cache
    const auto t0 = Clock::now();
    core::LogdirReader reader(logdir, options);
    const auto snapshot = reader.update();
    const auto read = Clock::now();
    const bool hasOrigin = snapshot->origin().has_value();
    const std::uint64_t alerts = snapshot->alertCount();
    const auto t1 = Clock::now();
    std::string error;
    if (save && !reader.saveIndex(&error))
        std::fprintf(stderr, "saving the index failed: %s\n", error.c_str());
    const auto t2 = Clock::now();
    std::string status = reader.indexCacheStatus();
    std::replace(status.begin(), status.end(), ' ', '_');
    std::printf("%.6f %.6f %.6f %.1f %llu %llu %d %s\n", seconds(t0, t1), seconds(read, t1),
                seconds(t1, t2), peakRssMiB(),
                static_cast<unsigned long long>(snapshot->traceCount()),
                static_cast<unsigned long long>(alerts), hasOrigin ? 1 : 0, status.c_str());
    return 0;
}

// Runs this program as a child on `logdir` and reads back its line; `save`: the child saves the
// index after it measured.
Measured measure(const fs::path& logdir, const fs::path& cache, bool save = true)
{
    Measured m;
    const std::string command = "/proc/" + std::to_string(::getpid()) + "/exe " +
                                (save ? "--child '" : "--child-read '") + logdir.string() + "' '" +
                                cache.string() + "'";
    std::fflush(nullptr);
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return m;
    char status[512] = {};
    unsigned long long traces = 0;
    unsigned long long alerts = 0;
    int origin = 0;
    if (std::fscanf(pipe, "%lf %lf %lf %lf %llu %llu %d %511s", &m.readSeconds, &m.analysisSeconds,
                    &m.saveSeconds, &m.peakMiB, &traces, &alerts, &origin, status) != 8)
        std::fprintf(stderr, "the measuring process failed\n");
    ::pclose(pipe);
    m.traces = traces;
    m.alerts = alerts;
    m.status = status;
    std::replace(m.status.begin(), m.status.end(), '_', ' ');
    return m;
}

// nanscope-report on the logdir as a user runs it, reopened from `cache`: wall seconds.
double runReport(const fs::path& logdir, const fs::path& cache)
{
    std::fflush(nullptr);
    const auto t0 = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen("/dev/null", "w", stdout))
            ::_exit(127);
        ::execl(NANSCOPE_REPORT_EXE, NANSCOPE_REPORT_EXE, "--json", "--index-cache", cache.c_str(),
                logdir.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return seconds(t0, Clock::now());
}

// Writes what this program wrote to disk before a measurement: the kernel's writeback of a
// logdir or an index just written, on the same disk, would otherwise land in the next
// measurement (a reopen right after an append took 0.54 s once, 0.19 s the next time).
void settle()
{
    ::sync();
}

fs::path traceFile(const fs::path& logdir)
{
    for (const auto& e : fs::directory_iterator(logdir))
        if (e.path().extension() == ".graph_execution_traces")
            return e.path();
    return {};
}

// Appends a copy of the last `count` trace records of the logdir's trace file (whole records:
// their offsets come from an index).
bool appendTraces(const fs::path& logdir, std::uint64_t count)
{
    core::LogdirReader reader(logdir);
    const auto s = reader.update();
    if (s->traceCount() < count)
        return false;
    const fs::path file = traceFile(logdir);
    const std::uint64_t from = s->trace(s->traceCount() - count).offset;
    const std::uint64_t size = fs::file_size(file);
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(from));
    std::string tail(size - from, '\0');
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out.write(tail.data(), static_cast<std::streamsize>(tail.size()));
    return static_cast<bool>(out);
}

// In the child: the app following the logdir, opened with the saved indexes in `cache` (from
// its own when there is one), as it grows by 1 % `rounds` times; prints the seconds each new
// snapshot took to read and analyse.
int followChild(const fs::path& logdir, const fs::path& cache, int rounds)
{
    core::ReaderOptions options;
    options.indexCache.directory = cache;
    options.spill.directory = cache;
    core::LogdirReader reader(logdir, options);
    auto snapshot = reader.update();
    snapshot->origin();
    const std::uint64_t extra = snapshot->traceCount() / 100;
    for (int round = 0; round < rounds; ++round) {
        if (!appendTraces(logdir, extra))
            return 1;
        const auto t0 = Clock::now();
        snapshot = reader.update();
        snapshot->origin();
        snapshot->alertCount();
        std::printf("%.6f\n", seconds(t0, Clock::now()));
    }
    return 0;
}

// Runs followChild in a child process: the seconds of each round.
std::vector<double> measureFollow(const fs::path& logdir, const fs::path& cache, int rounds)
{
    const std::string command = "/proc/" + std::to_string(::getpid()) + "/exe --follow-child '" +
                                logdir.string() + "' '" + cache.string() + "' " +
                                std::to_string(rounds);
    std::fflush(nullptr);
    std::vector<double> out;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        double s = 0;
        while (std::fscanf(pipe, "%lf", &s) == 1)
            out.push_back(s);
        ::pclose(pipe);
    }
    if (out.size() != static_cast<std::size_t>(rounds))
        std::fprintf(stderr, "the following process failed\n");
    return out;
}

void printGoal(const char* what, double value, double goal, const char* unit)
{
    std::printf("%-52s %9.3f %s %8.3f %s %6.2f %s\n", what, value, unit, goal, unit, value / goal,
                value <= goal ? "met" : "not met");
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 4 && std::strcmp(argv[1], "--child") == 0)
        return child(argv[2], argv[3], true);
    if (argc == 4 && std::strcmp(argv[1], "--child-read") == 0)
        return child(argv[2], argv[3], false);
    if (argc == 5 && std::strcmp(argv[1], "--follow-child") == 0)
        return followChild(argv[2], argv[3], std::atoi(argv[4]));
    std::uint64_t traces = 10'000'000;
    fs::path logdir;
    bool keep = false;
    fs::path cache;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--traces" && i + 1 < argc)
            traces = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--logdir" && i + 1 < argc)
            logdir = argv[++i];
        else if (a == "--keep")
            keep = true;
        else if (a == "--index-cache" && i + 1 < argc)
            cache = argv[++i];
        else {
            std::fprintf(stderr, "usage: nanscope_bench_reopen [--traces N] [--logdir DIR] "
                                 "[--keep] [--index-cache DIR]\n");
            return 2;
        }
    }
    const bool generated = logdir.empty();
    const std::string tag = std::to_string(::getpid());
    if (generated) {
        logdir = fs::temp_directory_path() / ("nanscope-bench-reopen-" + tag);
        std::printf("generating %llu FULL_HEALTH traces in %s ...\n",
                    static_cast<unsigned long long>(traces), logdir.c_str());
        if (!bench::writeBenchLogdir(logdir, traces)) {
            std::fprintf(stderr, "generation failed\n");
            return 1;
        }
    }
    const bool temporaryCache = cache.empty();
    if (temporaryCache)
        cache = fs::temp_directory_path() / ("nanscope-bench-reopen-cache-" + tag);
    else if (fs::exists(cache) && !fs::is_empty(cache)) {
        std::fprintf(stderr, "%s is not empty: the first open must find no saved index\n",
                     cache.c_str());
        return 2;
    }

    settle();
    const Measured first = measure(logdir, cache);
    settle();
    std::uint64_t sidecarBytes = 0;
    for (const auto& e : fs::directory_iterator(cache))
        sidecarBytes += e.file_size();
    std::vector<Measured> reopens;
    for (int r = 0; r < kReopens; ++r)
        reopens.push_back(measure(logdir, cache));
    std::vector<double> reopenSeconds;
    std::vector<double> reopenPeak;
    for (const auto& m : reopens) {
        reopenSeconds.push_back(m.readSeconds);
        reopenPeak.push_back(m.peakMiB);
    }
    std::vector<double> reportSeconds;
    for (int r = 0; r < kReopens; ++r)
        reportSeconds.push_back(runReport(logdir, cache));

    Measured appended;         // median reopen of kReopens, the last one saving
    Measured reopenedAppended; // the index as the save after the append left it
    std::uint64_t appendedSidecarBytes = 0;
    const std::uint64_t extra = first.traces / 100;
    if (generated && extra > 0 && appendTraces(logdir, extra)) {
        settle();
        std::vector<Measured> runs;
        for (int r = 0; r < kReopens; ++r)
            runs.push_back(measure(logdir, cache, r + 1 == kReopens));
        appended = runs.back();
        std::sort(runs.begin(), runs.end(), [](const Measured& a, const Measured& b) {
            return a.readSeconds < b.readSeconds;
        });
        appended.readSeconds = runs[runs.size() / 2].readSeconds;
        appended.analysisSeconds = runs[runs.size() / 2].analysisSeconds;
        settle();
        for (const auto& e : fs::directory_iterator(cache))
            appendedSidecarBytes += e.file_size();
        reopenedAppended = measure(logdir, cache);
    }
    // Following, opened from the saved index, and opened first (a cache without it).
    std::vector<double> followed;
    std::vector<double> followedFirst;
    if (appended.traces > 0) {
        followed = measureFollow(logdir, cache, kFollowRounds);
        const fs::path none = cache / "empty";
        fs::create_directories(none);
        followedFirst = measureFollow(logdir, none, kFollowRounds);
    }

    const double logdirGiB = [&] {
        std::uint64_t bytes = 0;
        for (const auto& e : fs::directory_iterator(logdir))
            bytes += e.file_size();
        return static_cast<double>(bytes) / (1u << 30);
    }();
    std::printf("\nlogdir: %llu traces, %.2f GiB; saved index %.1f MiB (%.1f bytes per trace)\n",
                static_cast<unsigned long long>(first.traces), logdirGiB,
                static_cast<double>(sidecarBytes) / (1u << 20),
                first.traces ? static_cast<double>(sidecarBytes) / first.traces : 0.0);
    std::printf("%-52s %9.3f s  (%s)\n", "first open: index, alerts, origin", first.readSeconds,
                first.status.c_str());
    std::printf("%-52s %9.3f s\n", "first open: saving the index and checking it",
                first.saveSeconds);
    std::printf("%-52s %9.1f MiB\n", "first open: peak RSS", first.peakMiB);
    std::printf("%-52s %9.3f s  (%s; %llu traces, %llu alerts)\n", "reopen (median of 5)",
                median(reopenSeconds), reopens.front().status.c_str(),
                static_cast<unsigned long long>(reopens.front().traces),
                static_cast<unsigned long long>(reopens.front().alerts));
    std::printf("%-52s %9.3f s\n", "reopen, fastest",
                *std::min_element(reopenSeconds.begin(), reopenSeconds.end()));
    std::printf("%-52s %9.1f MiB\n", "reopen: peak RSS (median)", median(reopenPeak));
    std::printf("%-52s %9.3f s\n", "nanscope-report --json, reopened (median of 5)",
                median(reportSeconds));
    if (appended.traces > 0) {
        std::printf("%-52s %9.3f s  (%s; %llu traces)\n", "reopen after 1 % more (median of 5)",
                    appended.readSeconds, appended.status.c_str(),
                    static_cast<unsigned long long>(appended.traces));
        std::printf("%-52s %9.3f s  (the walk and count of what was appended, or of every event)\n",
                    "reopen after 1 % more: of it, the origin's analysis",
                    appended.analysisSeconds);
        std::printf("%-52s %9.3f s  (saved index now %.1f MiB)\n",
                    "reopen after 1 % more: saving the index again", appended.saveSeconds,
                    static_cast<double>(appendedSidecarBytes) / (1u << 20));
        std::printf("%-52s %9.3f s  (%s)\n", "reopen of the index saved again",
                    reopenedAppended.readSeconds, reopenedAppended.status.c_str());
    }
    for (const auto& [rounds, how] :
         {std::pair{&followed, "saved index"}, std::pair{&followedFirst, "opened first"}})
        for (std::size_t round = 0; round < rounds->size(); ++round)
            std::printf("%-52s %9.3f s\n",
                        ("following (" + std::string(how) + "): 1 % more, read, analysed (" +
                         std::to_string(round + 1) + ")")
                            .c_str(),
                        (*rounds)[round]);
    std::printf("%-52s %9.1f x\n", "first open / reopen",
                first.readSeconds / std::max(1e-9, median(reopenSeconds)));

    std::printf("\n%-52s %9s   %8s   %6s\n", "goal", "figure", "goal", "ratio");
    printGoal("reopen: counts, alerts and origin shown", median(reopenSeconds), kGoalReopenSeconds,
              "s");
    if (appended.traces > 0) // in proportion to what was appended
        printGoal("reopen after 1 % more traces", appended.readSeconds, kGoalReopenSeconds, "s");
    // Each in proportion to what arrived since the snapshot before.
    for (const auto& [rounds, what] :
         {std::pair{&followed, "following (saved index): 1 % more, slowest"},
          std::pair{&followedFirst, "following (opened first): 1 % more, slowest"}})
        if (!rounds->empty())
            printGoal(what, *std::max_element(rounds->begin(), rounds->end()), kGoalReopenSeconds,
                      "s");
    const double scale = first.traces ? 1e8 / static_cast<double>(first.traces) : 0;
    printGoal("reopen: peak RSS per 10^8 traces", median(reopenPeak) * scale / 1024, kGoalPeakGiB,
              "GiB");
    printGoal("first open: peak RSS per 10^8 traces", first.peakMiB * scale / 1024, kGoalPeakGiB,
              "GiB");

    std::error_code ec;
    if (temporaryCache)
        fs::remove_all(cache, ec);
    if (generated && !keep)
        fs::remove_all(logdir, ec);
    else if (generated)
        std::printf("kept %s\n", logdir.c_str());
    return 0;
}
