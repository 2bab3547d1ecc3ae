// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a large FULL_HEALTH logdir: time to a full index, memory per trace, time to the first
// alert and to the origin, against decoding every record with libprotobuf. Then a TensorFlow-shaped
// logdir (half an execution per trace, executions carrying tensor_protos), timed through
// `nanscope-report --json` as a user runs it, read whole and reopened from its saved index. Each
// goal is printed beside its figure with the
// ratio figure / goal (at most 1 meets it), and the CPU time beside the wall time: on a shared
// machine the wall time includes waiting for a core.
//
// Usage: nanscope_bench_core [--traces N] [--logdir DIR] [--keep] [--threads T]
//                            [--tf-traces N] [--tf-logdir DIR] [--tf-reader-seconds S]
//   --traces N     graph execution traces to generate (default 10'000'000)
//   --logdir DIR   read this logdir instead of generating one (it is never deleted)
//   --keep         keep the generated logdirs (their paths are printed)
//   --threads T    decoding threads besides the reading one (default: hardware threads - 1)
//   --tf-traces N  traces of the TensorFlow-shaped logdir (default 1'000'000; 0: skip it)
//   --tf-logdir DIR  read this TensorFlow-shaped logdir instead of generating one
//   --tf-reader-seconds S  what TensorFlow's own reader took on that logdir (measured apart, with
//                  its Python tooling), to print the ratio against it
//
// The logdir is made with NaNscope's recorder in a child process (so that the recorder's memory
// does not count): 60 ops in three graphs, repeated step after step; at 90 % of the traces a Log
// meets a zero (-inf), and from there on the loss and the update are NaN.
#include "benchlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "originanalysis.hpp"
#include "tensorflowlogdir.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <span>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace nanscope;
using nanscope::bench::residentKb;
using nanscope::bench::writeBenchLogdir;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kRepetitions = 3;

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

// User + system time of this process (all its threads) or of its waited-for children.
double cpuSeconds(int who = RUSAGE_SELF)
{
    rusage usage{};
    ::getrusage(who, &usage);
    auto s = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6;
    };
    return s(usage.ru_utime) + s(usage.ru_stime);
}

// The goals of the reading work (see the README's performance notes).
constexpr double kGoalIndexSeconds = 0.5;       // 10 M FULL_HEALTH traces, warm
constexpr double kGoalTensorFlowShaped = 0.25;  // 1 M traces + 0.5 M executions, report --json
constexpr double kGoalTensorFlowRatio = 190;    // times faster than TensorFlow's reader
constexpr double kGoalTensorFlowReopened = 0.1; // the same report, from its saved index

// Peak resident set size (kB), and a way to reset it between measurements.
std::uint64_t peakRssKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtoull(line.c_str() + 6, nullptr, 10);
    return 0;
}

bool resetPeakRss()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    return static_cast<bool>(clear);
}

struct Options
{
    std::uint64_t traces = 10'000'000;
    fs::path logdir;
    bool keep = false;
    unsigned threads = 0;
    std::uint64_t tfTraces = 1'000'000;
    fs::path tfLogdir;
    double tfReaderSeconds = 0;
};

fs::path traceFile(const fs::path& dir)
{
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".graph_execution_traces")
            return e.path();
    return {};
}

// TensorBoard's way, minus Python: every record (CRCs checked) parsed into a full DebugEvent.
// The file is read in large chunks, so that the time is libprotobuf's, not the file's.
std::uint64_t decodeEverything(const fs::path& file, std::uint64_t& nonFinite)
{
    std::ifstream in(file, std::ios::binary);
    std::vector<std::byte> buffer;
    std::size_t filled = 0;
    tfdbg::DebugEvent event;
    std::uint64_t count = 0;
    constexpr std::size_t kChunk = 4u << 20;
    for (;;) {
        if (buffer.size() < filled + kChunk)
            buffer.resize(filled + kChunk);
        in.read(reinterpret_cast<char*>(buffer.data() + filled), kChunk);
        const auto got = static_cast<std::size_t>(in.gcount());
        filled += got;
        const auto bytes = std::span<const std::byte>(buffer.data(), filled);
        std::uint64_t at = 0;
        for (;;) {
            const auto record = format::parseRecord(bytes, at);
            if (record.status != format::RecordStatus::Ok)
                break;
            if (!event.ParseFromArray(record.payload.data(),
                                      static_cast<int>(record.payload.size())))
                return count;
            const auto& content = event.graph_execution_trace().tensor_proto().tensor_content();
            double v[11] = {};
            std::memcpy(v, content.data(), std::min<std::size_t>(content.size(), sizeof v));
            nonFinite += (v[5] + v[6] + v[7]) > 0;
            ++count;
            at = record.nextOffset;
        }
        std::memmove(buffer.data(), buffer.data() + at, filled - at);
        filled -= static_cast<std::size_t>(at);
        if (got == 0)
            return count;
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string one, five;
    in >> one >> five;
    return one + " " + five;
}

struct Timed
{
    double wall = 0;
    double cpu = 0;
};

// One `nanscope-report --json DIR` as a user runs it (output to /dev/null): wall and CPU time.
// Started with posix_spawn, not fork: forking this process, which holds a 10 M-trace index, would
// copy its page tables and add tens of milliseconds to every run. Without `indexCache` every run
// reads the whole logdir; with it, the report saves the index there and reopens it from there.
Timed runReport(const fs::path& dir, const fs::path& indexCache = {})
{
    std::fflush(nullptr);
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const std::string path = dir.string();
    const std::string cache = indexCache.string();
    std::vector<char*> argv{const_cast<char*>(NANSCOPE_REPORT_EXE), const_cast<char*>("--json")};
    if (indexCache.empty()) {
        argv.push_back(const_cast<char*>("--no-index-cache"));
    } else {
        argv.push_back(const_cast<char*>("--index-cache"));
        argv.push_back(const_cast<char*>(cache.c_str()));
    }
    argv.push_back(const_cast<char*>(path.c_str()));
    argv.push_back(nullptr);
    const double cpu0 = cpuSeconds(RUSAGE_CHILDREN);
    const auto t0 = Clock::now();
    pid_t child = 0;
    const int spawned =
        ::posix_spawn(&child, NANSCOPE_REPORT_EXE, &actions, nullptr, argv.data(), environ);
    int status = 0;
    if (spawned == 0)
        ::waitpid(child, &status, 0);
    Timed t{seconds(t0, Clock::now()), cpuSeconds(RUSAGE_CHILDREN) - cpu0};
    ::posix_spawn_file_actions_destroy(&actions);
    // 0: no alert, 1: alerts; anything else means the report failed.
    if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
        std::fprintf(stderr, "nanscope-report --json %s failed (status %d)\n", dir.c_str(), status);
    return t;
}

// "figure  goal  figure/goal" for the goals table; a ratio at most 1 meets the goal.
// The origin analysis as snapshots run it (the walk, then the count replaying its log) against
// the count walking every event again (a log budget of 0), interleaved, medians of 3; and
// whether both gave the same origin, counts and hops.
struct AnalysisTimes
{
    double replayed = 0;
    double twoWalks = 0;
    bool same = true;
};

AnalysisTimes timeAnalysis(const core::Snapshot& snapshot)
{
    const auto& patterns = snapshot.data().expected;
    std::vector<double> replayed;
    std::vector<double> twoWalks;
    AnalysisTimes times;
    for (int r = 0; r < 3; ++r) {
        auto t0 = Clock::now();
        const auto a = core::analyseNonFinite(snapshot, patterns);
        replayed.push_back(seconds(t0, Clock::now()));
        t0 = Clock::now();
        const auto b = core::analyseNonFinite(snapshot, patterns, 0);
        twoWalks.push_back(seconds(t0, Clock::now()));
        const auto& p = a.propagation;
        const auto& q = b.propagation;
        times.same = times.same && a.origin.has_value() == b.origin.has_value() &&
                     (!a.origin || a.origin->event == b.origin->event) &&
                     p.traceHops == q.traceHops && p.executionHops == q.executionHops &&
                     p.producers == q.producers && p.entries == q.entries &&
                     p.propagators == q.propagators && p.intendedEvents == q.intendedEvents &&
                     p.setAside.size() == q.setAside.size();
    }
    times.replayed = median(replayed);
    times.twoWalks = median(twoWalks);
    return times;
}

void printGoal(const char* what, double value, double goal, const char* unit)
{
    std::printf("%-58s %8.3f %s %8.3f %s %6.2f %s\n", what, value, unit, goal, unit, value / goal,
                value <= goal ? "met" : "not met");
}

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--traces")
            o.traces = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--logdir")
            o.logdir = value();
        else if (a == "--keep")
            o.keep = true;
        else if (a == "--threads")
            o.threads = static_cast<unsigned>(std::strtoul(value().c_str(), nullptr, 10));
        else if (a == "--tf-traces")
            o.tfTraces = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--tf-logdir")
            o.tfLogdir = value();
        else if (a == "--tf-reader-seconds")
            o.tfReaderSeconds = std::strtod(value().c_str(), nullptr);
        else {
            std::fprintf(stderr, "usage: nanscope_bench_core [--traces N] [--logdir DIR] [--keep] "
                                 "[--threads T] [--tf-traces N] [--tf-logdir DIR] "
                                 "[--tf-reader-seconds S]\n");
            std::exit(2);
        }
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    Options options = parse(argc, argv);
    const bool generated = options.logdir.empty();
    if (generated) {
        options.logdir =
            fs::temp_directory_path() / ("nanscope-bench-core-" + std::to_string(::getpid()));
        std::printf("generating %llu FULL_HEALTH traces in %s ...\n",
                    static_cast<unsigned long long>(options.traces), options.logdir.c_str());
        const auto t0 = Clock::now();
        if (!writeBenchLogdir(options.logdir, options.traces)) {
            std::fprintf(stderr, "generation failed\n");
            return 1;
        }
        std::printf("generated in %.1f s\n", seconds(t0, Clock::now()));
    }
    const fs::path traces = traceFile(options.logdir);
    const std::uint64_t fileBytes = traces.empty() ? 0 : fs::file_size(traces);
    const unsigned threads =
        options.threads ? options.threads : std::max(2u, std::thread::hardware_concurrency()) - 1;
    // Warm the page cache, as a second look at a logdir would find it.
    {
        std::uint64_t ignored = 0;
        decodeEverything(traces, ignored);
    }

    const std::uint64_t baselineRss = residentKb();
    const bool canResetPeak = resetPeakRss();
    std::vector<double> indexTimes;
    std::shared_ptr<const core::Snapshot> snapshot;
    std::uint64_t peakKb = 0;
    std::vector<double> indexCpu;
    for (int r = 0; r < kRepetitions; ++r) {
        snapshot.reset();
        resetPeakRss();
        core::LogdirReader reader(options.logdir, {.threads = threads});
        const double cpu0 = cpuSeconds();
        const auto t0 = Clock::now();
        snapshot = reader.update();
        indexTimes.push_back(seconds(t0, Clock::now()));
        indexCpu.push_back(cpuSeconds() - cpu0);
        peakKb = std::max(peakKb, peakRssKb());
    }
    const std::uint64_t n = snapshot->traceCount();
    const double indexTime = median(indexTimes);
    const double indexCpuTime = median(indexCpu);
    const double bytesPerTrace = n ? static_cast<double>(snapshot->indexBytes()) / n : 0;
    const double peakPerTrace =
        n ? (static_cast<double>(peakKb) - static_cast<double>(baselineRss)) * 1024.0 / n : 0;

    double oneThread = indexTime;
    if (threads != 1) {
        core::LogdirReader reader(options.logdir, {.threads = 1});
        const auto t0 = Clock::now();
        auto s = reader.update();
        oneThread = seconds(t0, Clock::now());
    }

    // First alert while reading in 64 MiB steps, as a GUI that shows progress would.
    double firstAlertStreaming = 0;
    {
        core::LogdirReader reader(options.logdir, {.threads = threads});
        const auto t0 = Clock::now();
        std::shared_ptr<const core::Snapshot> s;
        do
            s = reader.update({.maxTraceBytes = 64u << 20});
        while (s->alertCount() == 0 && !s->complete());
        firstAlertStreaming = seconds(t0, Clock::now());
    }
    auto t0 = Clock::now();
    const auto firstAlert = snapshot->tensorBoardFirstAlert();
    const double firstAlertAfterIndex = seconds(t0, Clock::now());
    t0 = Clock::now();
    const auto& origin = snapshot->origin();
    const double originTime = seconds(t0, Clock::now());
    t0 = Clock::now();
    const auto& propagation = snapshot->propagation();
    const double propagationTime = seconds(t0, Clock::now());
    const AnalysisTimes analysis = timeAnalysis(*snapshot);

    std::uint64_t baselineNonFinite = 0;
    t0 = Clock::now();
    const std::uint64_t baselineCount = decodeEverything(traces, baselineNonFinite);
    const double baselineTime = seconds(t0, Clock::now());

    std::printf("\nNaNscope core benchmark: %llu traces, %.2f GB trace file, %u decoding "
                "thread(s) + 1 reading thread, %u hardware threads\n",
                static_cast<unsigned long long>(n), fileBytes / 1e9, threads,
                std::thread::hardware_concurrency());
    std::printf("%-48s %14s\n", "measure", "value");
    std::printf("%-48s %14.3f s\n", "full index (median of 3)", indexTime);
    std::printf("%-48s %14.3f s\n", "full index, CPU time of all threads (median)", indexCpuTime);
    std::printf("%-48s %14.3f s\n", "full index, 1 decoding + 1 reading thread", oneThread);
    std::printf("%-48s %14.1f M/s\n", "traces indexed per second", n / indexTime / 1e6);
    std::printf("%-48s %14.1f B\n", "index arrays per trace", bytesPerTrace);
    std::printf("%-48s %14.1f MB\n", "peak RSS while indexing (VmHWM)", peakKb / 1024.0);
    std::printf("%-48s %14.1f B\n", "peak RSS above baseline per trace", peakPerTrace);
    std::printf("%-48s %14.3f s\n", "first alert, reading in 64 MiB steps", firstAlertStreaming);
    std::printf("%-48s %14.6f s\n", "first alert after the index", firstAlertAfterIndex);
    std::printf("%-48s %14.3f s\n", "origin after the index", originTime);
    std::printf("%-48s %14.3f s\n", "propagation (all hop counts)", propagationTime);
    std::printf("%-48s %14.3f s\n", "origin analysis, walk + replayed log (median)",
                analysis.replayed);
    std::printf("%-48s %14.3f s\n", "origin analysis, two walks (median)", analysis.twoWalks);
    std::printf("%-48s %14.2f x  (%s)\n", "two walks / walk + replayed log",
                analysis.twoWalks / std::max(1e-9, analysis.replayed),
                analysis.same ? "same answers" : "ANSWERS DIFFER");
    std::printf("%-48s %14.3f s\n", "libprotobuf decode of every record, 1 thread", baselineTime);
    std::printf("%-48s %14.1f x\n", "baseline / NaNscope index (1 decoding thread)",
                baselineTime / oneThread);
    std::printf("%-48s %14.1f x\n", "baseline / NaNscope index", baselineTime / indexTime);
    std::printf("\nalerts %llu (TensorBoard's count %llu); first alert: trace #%llu\n",
                static_cast<unsigned long long>(snapshot->alertCount()),
                static_cast<unsigned long long>(snapshot->tensorBoardAlertCount()),
                static_cast<unsigned long long>(firstAlert ? firstAlert->event.index : 0));
    if (origin)
        std::printf("origin: %s \"%s\" at trace #%llu (%s); %llu producers, %llu entries, "
                    "%llu propagators\n",
                    origin->opType.c_str(), origin->opName.c_str(),
                    static_cast<unsigned long long>(origin->event.index), origin->hint.rule.c_str(),
                    static_cast<unsigned long long>(propagation.producers),
                    static_cast<unsigned long long>(propagation.entries),
                    static_cast<unsigned long long>(propagation.propagators));
    std::printf("baseline decoded %llu records, %llu non-finite\n",
                static_cast<unsigned long long>(baselineCount),
                static_cast<unsigned long long>(baselineNonFinite));
    if (!canResetPeak)
        std::printf("(could not reset VmHWM; the peak may include earlier phases)\n");
    for (const auto& d : snapshot->diagnostics())
        std::printf("diagnostic: %s: %s\n", std::string(core::toString(d.severity)).c_str(),
                    d.message.c_str());

    if (generated && !options.keep) {
        std::error_code ec;
        fs::remove_all(options.logdir, ec);
    } else if (generated) {
        std::printf("kept %s\n", options.logdir.c_str());
    }

    // The TensorFlow-shaped logdir, through the report as a user runs it.
    Timed report;
    double reopened = 0; // the TF-shaped report from its saved index, wall
    std::uint64_t tfBytes = 0;
    std::uint64_t tfTraceCount = 0;
    if (options.tfTraces > 0 || !options.tfLogdir.empty()) {
        const bool tfGenerated = options.tfLogdir.empty();
        if (tfGenerated) {
            options.tfLogdir =
                fs::temp_directory_path() / ("nanscope-bench-tf-" + std::to_string(::getpid()));
            fs::create_directories(options.tfLogdir);
            test::writeLargeTensorFlowLogdir(
                options.tfLogdir, test::TensorFlowStack::TutorialModule, options.tfTraces);
        }
        for (const auto& e : fs::directory_iterator(options.tfLogdir))
            tfBytes += e.file_size();
        runReport(options.tfLogdir); // warms the page cache
        std::vector<double> walls, cpus;
        for (int r = 0; r < 5; ++r) {
            const Timed t = runReport(options.tfLogdir);
            walls.push_back(t.wall);
            cpus.push_back(t.cpu);
        }
        report = {median(walls), median(cpus)};
        // Reopened from its saved index: saved by the first run, then five reopens.
        const fs::path cache =
            fs::temp_directory_path() / ("nanscope-bench-core-index-" + std::to_string(::getpid()));
        runReport(options.tfLogdir, cache);
        ::sync(); // the saved index's writeback is not the reopen's
        walls.clear();
        for (int r = 0; r < 5; ++r)
            walls.push_back(runReport(options.tfLogdir, cache).wall);
        reopened = median(walls);
        std::error_code removed;
        fs::remove_all(cache, removed);
        core::LogdirReader reader(options.tfLogdir, {.threads = threads});
        const auto s = reader.update();
        tfTraceCount = s->traceCount();
        std::printf("\nTensorFlow-shaped logdir: %llu traces, %llu executions, %.0f MB\n",
                    static_cast<unsigned long long>(s->traceCount()),
                    static_cast<unsigned long long>(s->executionCount()), tfBytes / 1e6);
        std::printf("%-48s %14.3f s\n", "nanscope-report --json (median of 5)", report.wall);
        std::printf("%-48s %14.3f s\n", "nanscope-report --json, CPU time (median of 5)",
                    report.cpu);
        std::printf("%-48s %14.3f s\n", "reopened from its saved index (median of 5)", reopened);
        if (tfGenerated && !options.keep) {
            std::error_code ec;
            fs::remove_all(options.tfLogdir, ec);
        } else if (tfGenerated) {
            std::printf("kept %s\n", options.tfLogdir.c_str());
        }
    }

    std::printf("\nGoals (figure / goal: at most 1 meets it; %u hardware threads, load average "
                "at the end %s)\n",
                std::thread::hardware_concurrency(), loadAverage().c_str());
    std::printf("%-58s %10s %10s %6s\n", "measure", "figure", "goal", "ratio");
    const double scale = n ? 10'000'000.0 / static_cast<double>(n) : 0;
    printGoal("full index per 10 M traces, wall", indexTime * scale, kGoalIndexSeconds, "s");
    printGoal("full index per 10 M traces, CPU / 2 (2 free cores floor)", indexCpuTime * scale / 2,
              kGoalIndexSeconds, "s");
    if (report.wall > 0 && tfTraceCount > 0) {
        // The goal is for 1 M traces: a smaller or larger logdir is scaled to it.
        const double tfScale = 1'000'000.0 / static_cast<double>(tfTraceCount);
        printGoal("TF-shaped report --json per 1 M traces, wall", report.wall * tfScale,
                  kGoalTensorFlowShaped, "s");
        printGoal("TF-shaped report --json per 1 M traces, CPU / 2", report.cpu * tfScale / 2,
                  kGoalTensorFlowShaped, "s");
        printGoal("TF-shaped report reopened from its saved index, per 1 M", reopened * tfScale,
                  kGoalTensorFlowReopened, "s");
        if (options.tfReaderSeconds > 0)
            std::printf("%-58s %8.0f x %8.0f x %6.2f %s\n", "TensorFlow's reader / nanscope-report",
                        options.tfReaderSeconds / report.wall, kGoalTensorFlowRatio,
                        kGoalTensorFlowRatio / (options.tfReaderSeconds / report.wall),
                        options.tfReaderSeconds / report.wall >= kGoalTensorFlowRatio ? "met"
                                                                                      : "not met");
    }
    return 0;
}
