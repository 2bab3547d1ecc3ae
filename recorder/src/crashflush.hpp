// SPDX-License-Identifier: Apache-2.0
// The opt-in fatal-signal handler (RecorderOptions::flushOnCrash): on SIGSEGV, SIGBUS, SIGFPE,
// SIGILL or SIGABRT it writes what the registered recorders hold in memory, then hands the signal
// to whatever handled it before.
#pragma once

namespace nanscope::detail {

class EventWriter;

// Installs the handler on first use. A writer must be unregistered before it is destroyed.
void registerCrashFlush(EventWriter* writer);
void unregisterCrashFlush(EventWriter* writer);

} // namespace nanscope::detail
