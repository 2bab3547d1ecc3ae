// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window keeps across runs in the application's settings: its geometry and
// toolbar, the docks' arrangement, the stack trace's framework patterns, and the reader's memory
// limit.
#pragma once

#include <QRect>
#include <QStringList>
#include <QtGlobal>

class QMainWindow;

namespace nanscope::views {
class StackTracePanel;
}

namespace nanscope::app {

class DockLayout;

// Where the first window goes on a screen whose free area is `available`: all of it on a small
// screen (up to 1600×1000), otherwise 85 % of it up to 2560×1600, centred.
QRect defaultWindowGeometry(const QRect& available);

class WindowSettings
{
public:
    // `enabled` false: nothing is read or written (screenshots, tests).
    explicit WindowSettings(bool enabled) : m_enabled(enabled) {}

    // False when no saved arrangement of the docks was restored: the default layout applies.
    bool restore(QMainWindow* window, DockLayout& docks, views::StackTracePanel* stackTrace) const;
    void save(const QMainWindow* window, const DockLayout& docks) const;
    void saveFrameworkPatterns(const QStringList& patterns) const;

    // The reader's memory limit in bytes: the setting "reader/maxMemoryMiB" (as nanscope-report's
    // --max-memory: 1 to 2^24 MiB), or the default of core::kDefaultMaxMemoryBytes when it is
    // absent, disabled or out of range.
    quint64 maxMemoryBytes() const;

private:
    bool m_enabled;
};

} // namespace nanscope::app
