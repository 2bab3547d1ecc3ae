// SPDX-License-Identifier: GPL-3.0-or-later
// Background threads that yield to a program's interactive ones. The app reads a logdir on a
// loader thread and a decoding pool that can keep every core busy; on a 2-core machine the GUI
// thread then waited for a core, and its events took two to three times their CPU time (the
// event loop stalled for 60-90 ms while 10 M traces loaded). A lower priority costs the loader
// nothing when the GUI is idle, and lets the GUI run first when it is not.
#pragma once

#include <cstdint>

namespace nanscope::core {

// Lowers the calling thread's scheduling priority a notch below the program's other threads:
// on Linux its nice value rises by 10 (threads have their own), on Windows it runs below normal.
// Elsewhere it does nothing. It cannot be undone by an unprivileged program: call it only on a
// thread that does background work for the rest of its life.
void yieldToInteractiveThreads();

// Asks for short time slices for the calling thread, which handles the user's input: on Linux
// 6.12 and later (EEVDF with per-task slices) a woken thread with a shorter slice than the running
// one takes its core at once, where a nice value alone left the GUI thread waiting up to a
// background thread's whole slice (3-4 ms measured on 2 cores) before each event. Its share of
// the CPU is unchanged. Threads it starts inherit the slice; yieldToInteractiveThreads gives it
// back. Older kernels and other systems ignore it.
void runAsInteractiveThread();

// The calling thread's nice value on Linux (-20 … 19); 0 elsewhere. For tests and diagnostics.
int currentThreadNiceness();

// The calling thread's time slice in nanoseconds on Linux 6.12 and later (sched_getattr); 0 where
// the kernel reports none. For tests and diagnostics.
std::uint64_t currentThreadSliceNs();

} // namespace nanscope::core
