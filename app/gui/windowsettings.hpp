// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window keeps across runs in the application's settings: its geometry and
// toolbar, the docks' arrangement and the stack trace's framework patterns.
#pragma once

#include <QStringList>

class QMainWindow;

namespace nanscope::views {
class StackTracePanel;
}

namespace nanscope::app {

class DockLayout;

class WindowSettings
{
public:
    // `enabled` false: nothing is read or written (screenshots, tests).
    explicit WindowSettings(bool enabled) : m_enabled(enabled) {}

    // False when no saved arrangement of the docks was restored: the default layout applies.
    bool restore(QMainWindow* window, DockLayout& docks, views::StackTracePanel* stackTrace) const;
    void save(const QMainWindow* window, const DockLayout& docks) const;
    void saveFrameworkPatterns(const QStringList& patterns) const;

private:
    bool m_enabled;
};

} // namespace nanscope::app
