// SPDX-License-Identifier: GPL-3.0-or-later
// The app on a large logdir: how long the event loop ever stalls while a 10 M-trace logdir
// loads, opened from the start page after its first second (goal: at most 16 ms, in that second
// too), how long until the first rows show, how long a jump to an arbitrary trace of the Graph
// Execution table takes, scroll, layout and paint included (goal: 16 ms), and what sorting its
// million alerts by op type costs the event loop (sorted on a worker thread), beside
// QSortFilterProxyModel sorting the same model on the GUI thread.
//
// Usage: nanscope_bench_app [--traces N] [--logdir DIR] [--keep] [--jumps J] [--index-cache DIR]
//                           [--spill DIR] [--no-proxy-sort]
//   --traces N   graph execution traces to generate (default 10'000'000)
//   --logdir DIR open this logdir instead of generating one (it is never deleted)
//   --keep       keep the generated logdir (its path is printed)
//   --jumps J    jumps to time (default 200)
//   --index-cache DIR  open from (and save to) the saved indexes in DIR, as the app does from
//                the user's cache directory; without it every open reads the whole logdir
//   --spill DIR  keep a large index's arrays in a file of DIR, as the app does in the user's
//                cache directory; without it they stay in memory
//   --no-proxy-sort  skip the QSortFilterProxyModel comparison (minutes at 10^7 alerts)
//
// The logdir is written by NaNscope's recorder in a child process: 60 ops in three graphs,
// FULL_HEALTH, step after step; at 90 % of the traces a Log meets a zero and everything after
// it is NaN. The window runs on the offscreen platform unless QT_QPA_PLATFORM says otherwise.
#include "benchlogdir.hpp"
#include "mainwindow.hpp"
#include "nanscope/core/threadpriority.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/graphexecutionpanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/inlinepainting.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSortFilterProxyModel>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace nanscope;
using nanscope::bench::residentKb;
using nanscope::bench::writeBenchLogdir;

namespace {

struct Options
{
    std::uint64_t traces = 10'000'000;
    fs::path logdir;
    bool keep = false;
    int jumps = 200;
    std::string indexCache;
    std::string spill;
    bool proxySort = true;
};

// Times every event the GUI thread handles, to name the receiver of the longest one.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Slow
    {
        double startMs;
        double ms;
        QString what;
    };

    bool notify(QObject* receiver, QEvent* event) override
    {
        // The loader's own thread may take its time; only the GUI thread's events count.
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (m_depth > 0 || !m_timing) {
            ++m_depth;
            const bool result = QApplication::notify(receiver, event);
            --m_depth;
            return result;
        }
        bool result = false;
        timeCall(QStringLiteral("%1 (event type %2)")
                     .arg(receiver->metaObject()->className())
                     .arg(event->type()),
                 [&] { result = QApplication::notify(receiver, event); });
        return result;
    }

    // Runs `work` and records it as an event: notify() for each event, the benchmark for calls
    // it makes itself outside any event. Events sent meanwhile are part of it.
    template <typename Work>
    void timeCall(const QString& what, Work&& work)
    {
        ++m_depth;
        QElapsedTimer timer;
        timer.start();
        const ThreadCounts before = threadCounts();
        std::forward<Work>(work)();
        const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        const ThreadCounts after = threadCounts();
        --m_depth;
        const double cpu = after.cpuMs - before.cpuMs;
        m_cpuMs += cpu;
        if (ms > 2 && m_clock)
            m_slow.push_back({static_cast<double>(m_clock->nsecsElapsed()) / 1e6 - ms, ms,
                              QStringLiteral("%1: %2 ms on the CPU (%3 in the kernel), %4 page "
                                             "faults, %5 preemptions, %6 waits")
                                  .arg(what)
                                  .arg(cpu, 0, 'f', 1)
                                  .arg(after.kernelMs - before.kernelMs, 0, 'f', 1)
                                  .arg(after.minorFaults - before.minorFaults)
                                  .arg(after.preemptions - before.preemptions)
                                  .arg(after.waits - before.waits)});
        if (ms > m_longestMs) {
            m_longestMs = ms;
            m_longest = what;
        }
    }

    double cpuMs() const { return m_cpuMs; }
    void setTiming(bool on, const QElapsedTimer* clock = nullptr)
    {
        m_timing = on;
        if (clock)
            m_clock = clock;
    }
    const std::vector<Slow>& slowEvents() const { return m_slow; }
    double longestMs() const { return m_longestMs; }
    QString longest() const { return m_longest; }

private:
    // What the kernel counts for this thread. The page faults it served, how often it was made
    // to wait for a core and how often it blocked (a lock, a system call) tell those apart from
    // an event's own work.
    struct ThreadCounts
    {
        double cpuMs = 0;
        double kernelMs = 0;
        long minorFaults = 0;
        long preemptions = 0;
        long waits = 0;
    };
    static ThreadCounts threadCounts()
    {
        ThreadCounts counts;
        timespec now{};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        counts.cpuMs =
            static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
        rusage usage{};
        if (::getrusage(RUSAGE_THREAD, &usage) == 0) {
            counts.kernelMs = static_cast<double>(usage.ru_stime.tv_sec) * 1e3 +
                              static_cast<double>(usage.ru_stime.tv_usec) / 1e3;
            counts.minorFaults = usage.ru_minflt;
            counts.preemptions = usage.ru_nivcsw;
            counts.waits = usage.ru_nvcsw;
        }
        return counts;
    }

    int m_depth = 0;
    bool m_timing = false;
    double m_longestMs = 0;
    QString m_longest;
    const QElapsedTimer* m_clock = nullptr;
    double m_cpuMs = 0;
    std::vector<Slow> m_slow;
};

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto at = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(at, values.size() - 1)];
}

Options parse(int argc, char** argv)
{
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--traces" && hasValue)
            options.traces = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--logdir" && hasValue)
            options.logdir = argv[++i];
        else if (arg == "--keep")
            options.keep = true;
        else if (arg == "--jumps" && hasValue)
            options.jumps = std::atoi(argv[++i]);
        else if (arg == "--index-cache" && hasValue)
            options.indexCache = argv[++i];
        else if (arg == "--spill" && hasValue)
            options.spill = argv[++i];
        else if (arg == "--no-proxy-sort")
            options.proxySort = false;
        else {
            std::fprintf(stderr,
                         "usage: %s [--traces N] [--logdir DIR] [--keep] [--jumps J] "
                         "[--index-cache DIR] [--spill DIR] [--no-proxy-sort]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    return options;
}

// A jump to `target`, then what the next frame does: the layouts the jump asked for, and the paint.
// Not inlined, so that a profiler can take a jump by this name (callgrind --toggle-collect).
[[gnu::noinline]] void jumpAndPaint(views::GraphExecutionPanel* panel, quint64 target)
{
    panel->goToIndex(target);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    panel->view()->viewport()->repaint();
}

} // namespace

int main(int argc, char** argv)
{
    const Options options = parse(argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    fs::path logdir = options.logdir;
    const bool generated = logdir.empty();
    if (generated) {
        logdir = fs::temp_directory_path() / ("nanscope-bench-app-" + std::to_string(::getpid()));
        std::printf("Writing %llu FULL_HEALTH traces to %s …\n",
                    static_cast<unsigned long long>(options.traces), logdir.c_str());
        QElapsedTimer writing;
        writing.start();
        if (!writeBenchLogdir(logdir, options.traces)) {
            std::fprintf(stderr, "could not write the logdir\n");
            return 1;
        }
        std::printf("  written in %.1f s\n", static_cast<double>(writing.elapsed()) / 1000.0);
    }
    // The generated logdir goes on every way out, unless asked to stay.
    struct Cleanup
    {
        fs::path dir;
        ~Cleanup()
        {
            std::error_code ec;
            if (!dir.empty())
                fs::remove_all(dir, ec);
        }
    } cleanup{generated && !options.keep ? logdir : fs::path()};

    // As the app's main does.
    widgets::paintOnTheGuiThread();
    TimedApplication app(argc, argv);
    core::runAsInteractiveThread();
    app::MainWindow window({.useSettings = false,
                            .indexCacheDirectory = QString::fromStdString(options.indexCache),
                            .spillDirectory = QString::fromStdString(options.spill)});
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    // The stall meter: a 1 ms timer; any longer gap between two of its ticks is time the event
    // loop could not answer the user.
    std::vector<double> gaps;
    std::vector<double> tickTimes;
    QElapsedTimer clock;
    qint64 lastTick = 0;
    QTimer meter;
    meter.setTimerType(Qt::PreciseTimer);
    meter.setInterval(1);
    QObject::connect(&meter, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        gaps.push_back(static_cast<double>(now - lastTick) / 1e6);
        tickTimes.push_back(static_cast<double>(now) / 1e6);
        lastTick = now;
    });

    // The start page's first second, as a user who then opens a logdir from it finds the window:
    // what the app does in its idle moments there (it readies the panels) is timed too.
    clock.start();
    meter.start();
    {
        QEventLoop startPage;
        QTimer::singleShot(1000, &startPage, &QEventLoop::quit);
        startPage.exec();
    }
    meter.stop();
    const double startPageStall = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
    gaps.clear();
    tickTimes.clear();
    lastTick = 0;

    double firstSnapshotMs = -1;
    double loadedMs = -1;
    QObject::connect(window.session(), &items::LogdirSession::snapshotChanged, [&] {
        if (firstSnapshotMs < 0)
            firstSnapshotMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    });
    QObject::connect(&window, &app::MainWindow::logdirLoaded,
                     [&] { loadedMs = static_cast<double>(clock.nsecsElapsed()) / 1e6; });

    clock.start();
    meter.start();
    app.setTiming(true, &clock);
    // Called outside any event, as a menu's action would call it inside one: timed as one.
    app.timeCall(QStringLiteral("MainWindow::openLogdir (a call)"),
                 [&] { window.openLogdir(QString::fromStdString(logdir.string())); });
    // A loop of its own: QCoreApplication::quit() would close the window too.
    QEventLoop loading;
    QTimer idle;
    idle.setInterval(20);
    QObject::connect(&idle, &QTimer::timeout, [&] {
        if (loadedMs >= 0 && !window.isBusy())
            loading.quit();
    });
    idle.start();
    loading.exec();
    const double idleMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    meter.stop();
    idle.stop();
    app.setTiming(false);

    const auto mib = [](const char* field) {
        return static_cast<double>(bench::statusKb(field)) / 1024.0;
    };
    // What the open took, before any jump or sort.
    const double loadedRss = mib("VmRSS");
    const double loadedAnon = mib("RssAnon");
    const double loadedFile = mib("RssFile");
    const double loadedPeak = mib("VmHWM");
    const auto snapshot = window.navigator()->snapshot();
    if (!snapshot || snapshot->traceCount() == 0) {
        std::fprintf(stderr, "nothing was read\n");
        return 1;
    }
    const quint64 traces = snapshot->traceCount();

    // Jumps to random traces: go to index, then paint the table now, as the next frame would.
    views::GraphExecutionPanel* panel = window.graphExecutionPanel();
    std::mt19937_64 random(42);
    std::vector<double> jumps;
    for (int i = 0; i < options.jumps; ++i) {
        const quint64 target = random() % traces;
        QElapsedTimer jump;
        jump.start();
        jumpAndPaint(panel, target);
        if (i == 0 && !panel->view()->viewport()->isVisible()) {
            std::fprintf(stderr, "the table is not visible\n");
            return 1;
        }
        jumps.push_back(static_cast<double>(jump.nsecsElapsed()) / 1e6);
        if (panel->currentTrace() != static_cast<qint64>(target)) {
            std::fprintf(stderr, "the jump to #%llu did not land\n",
                         static_cast<unsigned long long>(target));
            return 1;
        }
    }

    const double longest = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
    const double gapQuantile99 = quantile(gaps, 0.99);
    const std::vector<double> loadGaps = gaps;
    const std::vector<double> loadTicks = tickTimes;

    // The alert list sorted by op type, as a click on its header does; the stall meter runs.
    views::AlertsPanel* alerts = window.alertsPanel();
    gaps.clear();
    tickTimes.clear();
    clock.restart();
    lastTick = 0;
    meter.start();
    alerts->view()->sortByColumn(items::AlertModel::OpTypeColumn, Qt::DescendingOrder);
    QEventLoop sorting;
    QObject::connect(&idle, &QTimer::timeout, [&] {
        if (!alerts->isBusy())
            sorting.quit();
    });
    idle.start();
    sorting.exec();
    const double sortedMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    meter.stop();
    idle.stop();
    const double sortStall = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
    // The same sort by the proxy the list used before, on this thread.
    double proxyMs = 0;
    if (options.proxySort) {
        QSortFilterProxyModel proxy;
        proxy.setSortRole(items::SortRole);
        proxy.setSourceModel(alerts->model());
        QElapsedTimer proxySort;
        proxySort.start();
        proxy.sort(items::AlertModel::OpTypeColumn, Qt::DescendingOrder);
        proxyMs = static_cast<double>(proxySort.nsecsElapsed()) / 1e6;
    }
    std::printf("\nLogdir: %llu graph traces, %llu alerts, index %.0f MiB\n",
                static_cast<unsigned long long>(traces),
                static_cast<unsigned long long>(snapshot->alertCount()),
                static_cast<double>(snapshot->indexBytes()) / (1 << 20));
    std::printf("App RSS once loaded  %6.0f MiB (own memory %.0f, mapped files %.0f), peak %.0f "
                "MiB\n",
                loadedRss, loadedAnon, loadedFile, loadedPeak);
    std::printf("App RSS at the end   %6.0f MiB (own memory %.0f, mapped files %.0f), peak %.0f "
                "MiB%s\n",
                mib("VmRSS"), mib("RssAnon"), mib("RssFile"), mib("VmHWM"),
                options.proxySort ? " (with the proxy's sort)" : "");
    std::printf("%-48s %10s\n", "measure", "value");
    std::printf("%-48s %8.0f ms\n", "first snapshot on screen (rows visible)", firstSnapshotMs);
    std::printf("%-48s %8.0f ms\n", "whole logdir read", loadedMs);
    std::printf("%-48s %8.0f ms\n", "origin, alert counts and marks worked out", idleMs);
    std::printf("%-48s %8.1f ms   (goal <= 16)\n", "longest event-loop stall, start page's 1st s",
                startPageStall);
    std::printf("%-48s %8.1f ms   (goal <= 16)\n", "longest event-loop stall while loading",
                longest);
    std::printf("%-48s %8.1f ms\n", "event-loop gap, 99th percentile", gapQuantile99);
    std::printf("%-48s %8.1f ms   (goal <= 10) in %s\n", "longest single event while loading",
                app.longestMs(), qPrintable(app.longest()));
    std::printf("%-48s %8.0f ms   of %.0f ms\n", "GUI thread busy while loading (CPU)", app.cpuMs(),
                idleMs);
    if (std::getenv("NANSCOPE_BENCH_VERBOSE") && !loadGaps.empty()) {
        const auto worst = std::max_element(loadGaps.begin(), loadGaps.end()) - loadGaps.begin();
        const double end = loadTicks[static_cast<std::size_t>(worst)];
        const double begin = end - loadGaps[static_cast<std::size_t>(worst)];
        const auto printEvents = [&app](const char* heading, auto&& chosen) {
            std::printf("  %s:\n", heading);
            for (const auto& e : app.slowEvents())
                if (chosen(e))
                    std::printf("    %8.1f ms  %6.1f ms  %s\n", e.startMs, e.ms,
                                qPrintable(e.what));
        };
        std::printf("  the longest gap, %.1f … %.1f ms:\n", begin, end);
        printEvents("held by",
                    [&](const auto& e) { return e.startMs + e.ms > begin && e.startMs < end; });
        printEvents("every event over 4 ms while loading", [](const auto& e) { return e.ms > 4; });
    }
    if (!jumps.empty()) { // --jumps 0 measures the load only
        std::printf("%-48s %8.2f ms   (goal <= 16)\n", "jump to a random row + paint, median",
                    quantile(jumps, 0.5));
        std::printf("%-48s %8.2f ms\n", "jump to a random row + paint, 90th percentile",
                    quantile(jumps, 0.9));
        std::printf("%-48s %8.2f ms\n", "jump to a random row + paint, worst",
                    *std::max_element(jumps.begin(), jumps.end()));
    }

    std::printf("%-48s %8.0f ms   for %d alerts\n", "alerts sorted by op type, until shown",
                sortedMs, alerts->model()->rowCount());
    std::printf("%-48s %8.1f ms   (goal <= 16)\n", "longest event-loop stall while sorting",
                sortStall);
    if (options.proxySort)
        std::printf("%-48s %8.0f ms   (%.0f x the stall above)\n",
                    "the same sort by QSortFilterProxyModel (GUI)", proxyMs,
                    proxyMs / std::max(sortStall, 0.001));

    // The goals, each beside its figure, with the ratio figure / goal (at most 1 meets it).
    std::printf("\n%-48s %9s %9s %6s\n", "goal", "figure", "goal", "ratio");
    const auto goal = [](const char* what, double value, double target, const char* unit) {
        std::printf("%-48s %6.1f %-2s %6.1f %-2s %6.2f %s\n", what, value, unit, target, unit,
                    value / target, value <= target ? "met" : "not met");
    };
    goal("longest event-loop stall, start page's first second", startPageStall, 16, "ms");
    goal("longest event-loop stall while loading", longest, 16, "ms");
    goal("longest single event while loading", app.longestMs(), 10, "ms");
    if (!jumps.empty()) {
        goal("jump to a random row + paint, median", quantile(jumps, 0.5), 16, "ms");
        goal("jump to a random row + paint, worst", *std::max_element(jumps.begin(), jumps.end()),
             16, "ms");
    }
    goal("longest event-loop stall while sorting alerts", sortStall, 16, "ms");
    // The memory goal is for 10^8 traces (--traces 100000000 --spill DIR); a smaller logdir's
    // figure says little about it (a fixed part of it is Qt's), so it is shown as measured.
    const std::string peakWhat =
        "peak RSS of the load (" + std::to_string(traces / 1'000'000) + " M traces)";
    goal(peakWhat.c_str(), loadedPeak / 1024.0, 2, "GiB");

    window.close();
    if (generated && options.keep)
        std::printf("Kept the logdir: %s\n", logdir.c_str());
    return 0;
}
