// SPDX-License-Identifier: GPL-3.0-or-later
// Thread pools for the views' long work: scans of whole snapshots, tensor exports, graph layouts.
//
// Never QThreadPool::globalInstance(): Qt's raster painter (6.4) splits large blended fills into
// tasks on that pool and blocks the painting thread until they have run, so a long task there
// holds up the window's painting until it ends. On a one-core machine the global pool has one
// thread, and any long task in it stops the window. The app keeps its painting off every pool
// (widgets/inlinepainting.hpp), but these panels also paint in programs that do not.
#pragma once

#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

class QThreadPool;

namespace nanscope::views {

// A new pool of at most `maxThreads` threads, named `name` for debuggers and profilers. Made once
// per kind of work and kept for the program's life (a function-local static).
QThreadPool* newBackgroundPool(const QString& name, int maxThreads);

// Lowers the calling pool thread's priority below the GUI thread's, once per thread
// (core::yieldToInteractiveThreads): the window goes first when cores are short.
void yieldToTheGuiThread();

// Runs `work` on `pool` from a thread that yields to the GUI thread.
template <typename Work>
auto runInBackground(QThreadPool* pool, Work work)
{
    return QtConcurrent::run(pool, [work = std::move(work)]() mutable {
        yieldToTheGuiThread();
        return work();
    });
}

} // namespace nanscope::views
