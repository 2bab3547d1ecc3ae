// SPDX-License-Identifier: GPL-3.0-or-later
// The panels' docks by name, and their default arrangement as data (the table in
// docklayout.cpp): Debugger V2's Alerts | Execution Timeline over Graph Structure | Graph
// Execution on top, Source | Stack Trace below; Executions in a tab beside Graph Execution (the
// window raises it for a run of executions only, such as PyTorch's), Tensor in a tab beside Stack
// Trace (raised for a run recorded in FULL_TENSOR mode).
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QtGlobal>
#include <array>
#include <cstddef>
#include <optional>
#include <span>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace nanscope::app {

enum class Dock {
    Alerts,
    ExecutionTimeline,
    GraphStructure,
    GraphExecution,
    Executions,
    Source,
    StackTrace,
    Tensor
};
inline constexpr std::size_t kDockCount = 8;

// One dock of the default layout. Each area is a row of columns, left to right in the order of
// the table: a dock opens the next column of its area, or goes under another dock of its area
// (`under`; in the order of the table too). The shares are parts of the size of the window the
// docks live in: a row's widths add up to 1, a column's heights to its area's height, and the
// areas' heights to 1. A dock `tabbedWith` an earlier one takes no room of its own: it is a tab
// beside it, with its shares.
struct DockSpec
{
    Dock dock;
    const char* objectName;  // saved layouts find their docks by it: never rename one
    const char* title;       // untranslated; DockLayout::title() translates it
    Qt::DockWidgetArea area; // the top or the bottom area
    std::optional<Dock> under;
    double width;
    double height;
    std::optional<Dock> tabbedWith = {};
};

// The table, in the order of Dock (which is also the order of View › Panels).
std::span<const DockSpec, kDockCount> defaultDocks();
const DockSpec& dockSpec(Dock dock);

// The docks' own main window (the host), the docks made from the table, and the default layout
// applied to them.
class DockLayout
{
public:
    explicit DockLayout(QWidget* parent);

    QMainWindow* host() const { return m_host; }

    // Puts `panel` into a new dock with the table's object name and title; the panel's own
    // title, when it has one, names the dock from then on ("Alerts (34)").
    QDockWidget* addDock(Dock dock, QWidget* panel);
    QDockWidget* dock(Dock dock) const { return m_docks[static_cast<std::size_t>(dock)]; }
    // In the order of the table.
    QList<QDockWidget*> docks() const;
    // Shows the dock and brings it to the front of its tabs.
    void reveal(Dock dock) const;
    // Brings the dock to the front of its tabs if it is shown (a dock the user closed stays
    // closed).
    void raiseIfShown(Dock dock) const;

    // Every dock where the table puts it, none floating or hidden.
    void arrange();
    // The table's shares of the host's size (which needs to be laid out).
    void applyDefaultSizes();

    // The arrangement the user made, to keep across runs; restoring one saved for another table
    // (an older layout version) fails and changes nothing.
    QByteArray saveState() const;
    bool restoreState(const QByteArray& state);

    static QString title(Dock dock);

private:
    QMainWindow* m_host;
    std::array<QDockWidget*, kDockCount> m_docks{};
};

} // namespace nanscope::app
