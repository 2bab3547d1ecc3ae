// SPDX-License-Identifier: GPL-3.0-or-later
// Qt's raster painter kept on the GUI thread.
//
// Qt splits every blended fill of 96 or more lines (a translucent or gradient brush, an
// antialiased shape: much of a styled window) into tasks of 64 lines on a thread pool and blocks
// the painting thread until all have run. For the few hundred lines of a widget that costs more
// than it saves: each task is a thread wake-up and a context switch, and the paint waits until
// pool threads get a core, which a training run that keeps every core busy makes long. Qt 6.4
// uses the global pool (QThreadPool::globalInstance()), so a long task there, or on a one-core
// machine any task at all, holds up painting until it ends.
//
// Newer Qt versions give these tasks a pool of their own and let a program turn it off
// (QT_NO_GUI_THREADPOOL), which this sets. Qt 6.4 has no such switch, but Qt fills on the calling
// thread when QThreadPool::contains() says that thread is one of the pool's own (as it does to
// keep the pool's threads from waiting on themselves). On ELF platforms this library therefore
// answers that question itself for the GUI thread, and asks Qt for every other thread.
#pragma once

namespace nanscope::widgets {

// Makes Qt's raster painter fill on the GUI thread, as above. Call it first in main(), before
// the QApplication is made (Qt reads QT_NO_GUI_THREADPOOL once); a value the user has set for
// QT_NO_GUI_THREADPOOL is left as it is.
void paintOnTheGuiThread();

// Whether paintOnTheGuiThread() has been called: until then Qt's painter is left as it is.
bool paintingOnTheGuiThread();

} // namespace nanscope::widgets
