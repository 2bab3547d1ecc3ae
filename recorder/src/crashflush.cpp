// SPDX-License-Identifier: Apache-2.0
// Async-signal safety. The handler runs on the crashing thread while other threads may still run,
// and the crash may have damaged the heap. So it:
// - allocates nothing, takes no blocking lock and calls no stdio: it reaches the writers through a
//   fixed array of atomic pointers, try-locks each file and circular buffer (a file whose lock is
//   held may be half-way through a change and is skipped, with the files after it), checks the
//   CRCs of what it writes, and writes with write() (ftruncate() on a failed write);
// - runs the flush once per process (a second crashing thread goes straight to the chaining);
// - then behaves as if it had never been installed: it calls the previous handler, or restores
//   the default action and raises the signal again, so core dumps, exit statuses and the
//   program's own crash handlers work as before.
// The writers' unregistering waits until no handler is inside them.
// try_lock (pthread_mutex_trylock) is not on POSIX's list of async-signal-safe functions, but it
// never blocks and only compares-and-swaps the lock word, which is why it is used.
#include "crashflush.hpp"

#include "eventwriter.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <thread>

namespace nanscope::detail {
namespace {

constexpr std::array<int, 5> kSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr std::size_t kMaxWriters = 64;

std::array<std::atomic<EventWriter*>, kMaxWriters> g_writers{};
std::atomic<int> g_handlersInside{0};
std::atomic<bool> g_flushed{false};
std::array<struct sigaction, kSignals.size()> g_previous{};

std::size_t signalIndex(int sig)
{
    for (std::size_t i = 0; i < kSignals.size(); ++i)
        if (kSignals[i] == sig)
            return i;
    return 0;
}

void flushAll()
{
    g_handlersInside.fetch_add(1);
    for (auto& slot : g_writers)
        if (EventWriter* writer = slot.load())
            writer->flushFromSignal();
    g_handlersInside.fetch_sub(1);
}

void onFatalSignal(int sig, siginfo_t* info, void* context)
{
    const int savedErrno = errno;
    if (!g_flushed.exchange(true))
        flushAll();
    const struct sigaction& previous = g_previous[signalIndex(sig)];
    errno = savedErrno;
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(sig, info, context);
        return;
    }
    if (previous.sa_handler == SIG_IGN)
        return;
    if (previous.sa_handler != SIG_DFL) {
        previous.sa_handler(sig);
        return;
    }
    // The default action: restore it and raise the signal again. It is blocked while this
    // handler runs, so it is delivered on return; a fault would also recur at the instruction.
    struct sigaction defaults
    {};
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    sigaction(sig, &defaults, nullptr);
    raise(sig);
}

void install()
{
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
        struct sigaction action
        {};
        action.sa_sigaction = onFatalSignal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(kSignals[i], &action, &g_previous[i]);
    }
}

} // namespace

void registerCrashFlush(EventWriter* writer)
{
    static std::once_flag installed;
    std::call_once(installed, install);
    for (auto& slot : g_writers) {
        EventWriter* expected = nullptr;
        if (slot.compare_exchange_strong(expected, writer))
            return;
    }
    // More than kMaxWriters recorders at once: the others are simply not flushed on a crash.
}

void unregisterCrashFlush(EventWriter* writer)
{
    for (auto& slot : g_writers) {
        EventWriter* expected = writer;
        slot.compare_exchange_strong(expected, nullptr);
    }
    while (g_handlersInside.load() > 0)
        std::this_thread::yield();
}

} // namespace nanscope::detail
