// SPDX-License-Identifier: Apache-2.0
#include "exitregistry.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace nanscope::detail {
namespace {

struct Registry
{
    std::mutex mutex;
    std::map<ExitToken, std::function<void()>> entries;
    ExitToken next = 1;
};

Registry& registry()
{
    // Never destroyed, so that it outlives static recorders closed during static destruction.
    static auto* instance = new Registry;
    return *instance;
}

void closeAllAtExit()
{
    // Closing under the lock makes a concurrent unregisterAtExit (a recorder being destroyed)
    // wait until its close has finished.
    std::lock_guard lock(registry().mutex);
    for (auto& [token, closeFn] : registry().entries)
        closeFn();
    registry().entries.clear();
}

#if defined(__unix__) || defined(__APPLE__)
// fork(): the registry is held across it, so that the child gets it unlocked and whole. The
// child's copies of the recorders are the parent's: their flusher threads stayed in the parent and
// their files are the parent's, so closing them at the child's exit would join threads that do
// not exist (a hang) and write into the parent's files. The child forgets them.
void lockBeforeFork()
{
    registry().mutex.lock();
}
void unlockInParent()
{
    registry().mutex.unlock();
}
void forgetInChild()
{
    registry().entries.clear(); // raw pointers: nothing is closed or destroyed
    registry().mutex.unlock();
}
#endif

} // namespace

ExitToken registerAtExit(std::function<void()> closeFn)
{
    static const bool installed = [] {
#if defined(__unix__) || defined(__APPLE__)
        ::pthread_atfork(lockBeforeFork, unlockInParent, forgetInChild);
#endif
        return std::atexit(closeAllAtExit) == 0;
    }();
    (void)installed;
    std::lock_guard lock(registry().mutex);
    const ExitToken token = registry().next++;
    registry().entries.emplace(token, std::move(closeFn));
    return token;
}

void unregisterAtExit(ExitToken token)
{
    std::lock_guard lock(registry().mutex);
    registry().entries.erase(token);
}

} // namespace nanscope::detail
