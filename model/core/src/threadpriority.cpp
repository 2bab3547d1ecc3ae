// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/threadpriority.hpp"

#if defined(__linux__)
#include <cerrno>
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

id_t currentThreadId()
{
    return static_cast<id_t>(::syscall(SYS_gettid));
}

} // namespace

void yieldToInteractiveThreads()
{
    // On Linux, PRIO_PROCESS with a thread id sets that thread's nice value alone.
    const int now = currentThreadNiceness();
    (void)::setpriority(PRIO_PROCESS, currentThreadId(), now + kBackgroundNiceness);
}

int currentThreadNiceness()
{
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, currentThreadId());
    return errno == 0 ? nice : 0;
}

#elif defined(_WIN32)

void yieldToInteractiveThreads()
{
    (void)::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL);
}

int currentThreadNiceness()
{
    return 0;
}

#else

void yieldToInteractiveThreads() {}

int currentThreadNiceness()
{
    return 0;
}

#endif

} // namespace nanscope::core
