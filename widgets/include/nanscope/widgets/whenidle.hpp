// SPDX-License-Identifier: GPL-3.0-or-later
// Work that may wait: run once the event loop has nothing more urgent to do.
#pragma once

#include <functional>

class QObject;

namespace nanscope::widgets {

// Runs `step` on `context`'s thread after the events already waiting (input, paints, results of
// other threads) have been handled; not at all if `context` is destroyed first. A step that
// schedules the next this way lets the event loop answer the user between the two.
//
// QTimer::singleShot(0, …) is not that: Qt turns it into a queued call, and queued calls run in one
// batch with every other event posted before them, so a few "idle" steps of 4 ms each and a paint
// make one stall of 15 ms. This uses a zero timer, which the event loop runs only when it is idle.
void whenIdle(QObject* context, std::function<void()> step);

} // namespace nanscope::widgets
