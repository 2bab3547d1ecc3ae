// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/threadpriority.hpp"

#if defined(__linux__)
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace nanscope::core {
#if defined(__linux__)

namespace {

// Enough for the scheduler to give an interactive thread about nine tenths of a contended core
// (CFS weights 1024 against 110), not so much that the loader starves beside a busy build.
constexpr int kBackgroundNiceness = 10;

// A time slice short enough that a woken GUI thread takes a core from a background thread within
// half a millisecond (the kernel accepts 0.1 to 100 ms).
constexpr std::uint64_t kInteractiveSliceNs = 500'000;

id_t currentThreadId()
{
    return static_cast<id_t>(::syscall(SYS_gettid));
}

// sched_setattr's and sched_getattr's argument, as the kernel's ABI lays it out (its first
// version, 48 bytes); glibc has no declaration of it before 2.41.
struct SchedAttr
{
    std::uint32_t size = sizeof(SchedAttr);
    std::uint32_t policy = 0; // SCHED_OTHER
    std::uint64_t flags = 0;
    std::int32_t nice = 0;
    std::uint32_t priority = 0;
    std::uint64_t runtimeNs = 0;
    std::uint64_t deadlineNs = 0;
    std::uint64_t periodNs = 0;
};
static_assert(sizeof(SchedAttr) == 48);

} // namespace

void runAsInteractiveThread()
{
#if defined(SYS_sched_setattr)
    if (::sched_getscheduler(0) != SCHED_OTHER)
        return; // the user chose another policy for the program: it stays
    SchedAttr attr;
    attr.nice = currentThreadNiceness();
    attr.runtimeNs = kInteractiveSliceNs;
    (void)::syscall(SYS_sched_setattr, 0, &attr, 0U);
#endif
}

void yieldToInteractiveThreads()
{
    const int now = currentThreadNiceness();
#if defined(SYS_sched_setattr)
    // A thread started by an interactive one inherits its short slice: back to the default
    // (runtime 0), or the interactive thread would no longer be the one with the shorter slice.
    if (::sched_getscheduler(0) == SCHED_OTHER) {
        SchedAttr attr;
        attr.nice = std::min(now + kBackgroundNiceness, 19);
        if (::syscall(SYS_sched_setattr, 0, &attr, 0U) == 0)
            return;
    }
#endif
    // On Linux, PRIO_PROCESS with a thread id sets that thread's nice value alone.
    (void)::setpriority(PRIO_PROCESS, currentThreadId(), now + kBackgroundNiceness);
}

int currentThreadNiceness()
{
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, currentThreadId());
    return errno == 0 ? nice : 0;
}

std::uint64_t currentThreadSliceNs()
{
#if defined(SYS_sched_getattr)
    SchedAttr attr;
    if (::syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0U) == 0)
        return attr.runtimeNs;
#endif
    return 0;
}

#elif defined(_WIN32)

void runAsInteractiveThread() {}

void yieldToInteractiveThreads()
{
    (void)::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL);
}

std::uint64_t currentThreadSliceNs()
{
    return 0;
}

int currentThreadNiceness()
{
    return 0;
}

#else

void runAsInteractiveThread() {}

void yieldToInteractiveThreads() {}

std::uint64_t currentThreadSliceNs()
{
    return 0;
}

int currentThreadNiceness()
{
    return 0;
}

#endif

} // namespace nanscope::core
