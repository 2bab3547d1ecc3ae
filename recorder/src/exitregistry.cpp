// SPDX-License-Identifier: Apache-2.0
#include "exitregistry.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

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

} // namespace

ExitToken registerAtExit(std::function<void()> closeFn)
{
    static const bool installed = [] {
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
