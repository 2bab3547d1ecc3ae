// SPDX-License-Identifier: GPL-3.0-or-later
#include "backgroundpool.hpp"

#include "nanscope/core/threadpriority.hpp"

#include <QThreadPool>

namespace nanscope::views {

QThreadPool* newBackgroundPool(const QString& name, int maxThreads)
{
    auto* pool = new QThreadPool;
    pool->setMaxThreadCount(maxThreads);
    pool->setObjectName(name);
    return pool;
}

void yieldToTheGuiThread()
{
    // Once per thread, for its whole life: a lowered priority cannot be raised again.
    thread_local const bool yielded = (core::yieldToInteractiveThreads(), true);
    (void)yielded;
}

} // namespace nanscope::views
