// SPDX-License-Identifier: GPL-3.0-or-later
#include "docklayout.hpp"

#include "nanscope/widgets/layoutboundary.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <algorithm>
#include <map>

namespace nanscope::app {
namespace {

// Saved layouts of another version are ignored: change it with the arrangement in the table.
constexpr int kLayoutVersion = 3; // 2: Executions beside Graph Execution; 3: Tensor

constexpr auto Top = Qt::TopDockWidgetArea;
constexpr auto Bottom = Qt::BottomDockWidgetArea;

// Alerts | Execution Timeline over Graph Structure | Graph Execution on top (60% of the height),
// Source | Stack Trace below. Executions is a tab beside Graph Execution: a run has mostly one
// or the other (graph traces, or eager executions), and each needs the full height. Tensor is a
// tab beside Stack Trace, which is mostly empty space (a stack of a few frames), where Source
// beside it is read together with the other panels.
// clang-format off
using enum Dock;
constexpr std::array<DockSpec, kDockCount> kDocks{{
    // dock             object name              title
    //                  area    under              width  height
    {Alerts,            "alertsDock",            QT_TRANSLATE_NOOP("Dock", "Alerts"),
                        Top,    {},                0.20,  0.60},
    {ExecutionTimeline, "executionTimelineDock", QT_TRANSLATE_NOOP("Dock", "Execution Timeline"),
                        Top,    {},                0.32,  0.22},
    {GraphStructure,    "graphStructureDock",    QT_TRANSLATE_NOOP("Dock", "Graph Structure"),
                        Top,    ExecutionTimeline, 0.32,  0.38},
    {GraphExecution,    "graphExecutionDock",    QT_TRANSLATE_NOOP("Dock", "Graph Execution"),
                        Top,    {},                0.48,  0.60},
    {Executions,        "executionsDock",        QT_TRANSLATE_NOOP("Dock", "Executions"),
                        Top,    {},                0.48,  0.60,  GraphExecution},
    {Source,            "sourceDock",            QT_TRANSLATE_NOOP("Dock", "Source"),
                        Bottom, {},                0.60,  0.40},
    {StackTrace,        "stackTraceDock",        QT_TRANSLATE_NOOP("Dock", "Stack Trace"),
                        Bottom, {},                0.40,  0.40},
    {Tensor,            "tensorDock",            QT_TRANSLATE_NOOP("Dock", "Tensor"),
                        Bottom, {},                0.40,  0.40,  StackTrace},
}};
// clang-format on

constexpr std::size_t indexOf(Dock dock)
{
    return static_cast<std::size_t>(dock);
}

// The dock at the top of the spec's column.
constexpr Dock columnOf(const DockSpec& spec)
{
    return spec.under.value_or(spec.dock);
}

// Whether the dock takes room of its own (a tab does not).
constexpr bool placed(const DockSpec& spec)
{
    return !spec.tabbedWith;
}

constexpr double columnHeight(Dock column)
{
    double height = 0;
    for (const DockSpec& spec : kDocks)
        if (placed(spec) && columnOf(spec) == column)
            height += spec.height;
    return height;
}

constexpr bool near(double a, double b)
{
    return a - b < 1e-9 && b - a < 1e-9;
}

// The table is in the order of Dock, a dock goes only under an earlier column of its own area,
// and the shares add up.
constexpr bool isConsistent()
{
    for (std::size_t i = 0; i < kDocks.size(); ++i)
        if (indexOf(kDocks[i].dock) != i || (kDocks[i].area != Top && kDocks[i].area != Bottom))
            return false;
    double areas = 0;
    for (const Qt::DockWidgetArea area : {Top, Bottom}) {
        double width = 0;
        double height = -1;
        for (const DockSpec& spec : kDocks) {
            if (spec.area != area)
                continue;
            if (spec.tabbedWith) {
                // A tab of an earlier dock that has room of its own, with its shares.
                const DockSpec& beside = kDocks[indexOf(*spec.tabbedWith)];
                if (indexOf(*spec.tabbedWith) >= indexOf(spec.dock) || beside.tabbedWith ||
                    spec.under || beside.area != area || !near(beside.width, spec.width) ||
                    !near(beside.height, spec.height))
                    return false;
                continue;
            }
            if (spec.under) {
                const DockSpec& column = kDocks[indexOf(*spec.under)];
                if (indexOf(*spec.under) >= indexOf(spec.dock) || column.under ||
                    column.area != area || !near(column.width, spec.width))
                    return false;
                continue;
            }
            width += spec.width;
            if (height >= 0 && !near(height, columnHeight(spec.dock)))
                return false;
            height = columnHeight(spec.dock);
        }
        if (height >= 0 && !near(width, 1))
            return false;
        areas += std::max(height, 0.0);
    }
    return near(areas, 1);
}
static_assert(isConsistent(), "the default dock layout does not add up");

} // namespace

std::span<const DockSpec, kDockCount> defaultDocks()
{
    return kDocks;
}

const DockSpec& dockSpec(Dock dock)
{
    return kDocks[indexOf(dock)];
}

DockLayout::DockLayout(QWidget* parent) : m_host(new QMainWindow(parent, Qt::Widget))
{
    m_host->setObjectName(QStringLiteral("dockHost"));
    m_host->setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks |
                           QMainWindow::AllowTabbedDocks);
}

QByteArray DockLayout::saveState() const
{
    return m_host->saveState(kLayoutVersion);
}

bool DockLayout::restoreState(const QByteArray& state)
{
    return m_host->restoreState(state, kLayoutVersion);
}

QString DockLayout::title(Dock dock)
{
    return QCoreApplication::translate("Dock", dockSpec(dock).title);
}

QDockWidget* DockLayout::addDock(Dock which, QWidget* panel)
{
    const QString name = title(which);
    auto* dock = new QDockWidget(name, m_host);
    dock->setObjectName(QString::fromLatin1(dockSpec(which).objectName));
    dock->setWidget(new widgets::LayoutBoundary(panel));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    QObject::connect(panel, &QWidget::windowTitleChanged, dock, [dock, name](const QString& title) {
        dock->setWindowTitle(title.isEmpty() ? name : title);
    });
    m_docks[indexOf(which)] = dock;
    return dock;
}

QList<QDockWidget*> DockLayout::docks() const
{
    return {m_docks.begin(), m_docks.end()};
}

void DockLayout::reveal(Dock which) const
{
    dock(which)->show();
    dock(which)->raise();
}

void DockLayout::raiseIfShown(Dock which) const
{
    if (!dock(which)->isHidden())
        dock(which)->raise();
}

void DockLayout::arrange()
{
    for (QDockWidget* dock : m_docks) {
        dock->setFloating(false);
        m_host->removeDockWidget(dock);
    }
    // Each area's row first; a column is split once its row is whole.
    std::map<Qt::DockWidgetArea, QDockWidget*> lastColumn;
    for (const DockSpec& spec : kDocks) {
        if (spec.under || !placed(spec))
            continue;
        QDockWidget*& left = lastColumn[spec.area];
        if (left)
            m_host->splitDockWidget(left, dock(spec.dock), Qt::Horizontal);
        else
            m_host->addDockWidget(spec.area, dock(spec.dock));
        left = dock(spec.dock);
    }
    std::array<QDockWidget*, kDockCount> lastInColumn = m_docks;
    for (const DockSpec& spec : kDocks) {
        if (!spec.under || !placed(spec))
            continue;
        QDockWidget*& above = lastInColumn[indexOf(*spec.under)];
        m_host->splitDockWidget(above, dock(spec.dock), Qt::Vertical);
        above = dock(spec.dock);
    }
    for (const DockSpec& spec : kDocks)
        if (spec.tabbedWith)
            m_host->tabifyDockWidget(dock(*spec.tabbedWith), dock(spec.dock));
    for (QDockWidget* dock : m_docks) {
        dock->setFloating(false);
        dock->show();
    }
    // The docks that take room of their own in front of their tabs.
    for (const DockSpec& spec : kDocks)
        if (spec.tabbedWith)
            dock(*spec.tabbedWith)->raise();
}

void DockLayout::applyDefaultSizes()
{
    const int width = std::max(m_host->width(), 960);
    const int height = std::max(m_host->height(), 600);
    const auto part = [](int total, double share) {
        return static_cast<int>(total * share);
    };
    QList<QDockWidget*> areas; // the first dock of each
    QList<int> areaHeights;
    for (const Qt::DockWidgetArea area : {Top, Bottom}) {
        QList<Dock> columns;
        QList<QDockWidget*> row;
        QList<int> widths;
        for (const DockSpec& spec : kDocks) {
            if (spec.area == area && !spec.under && placed(spec)) {
                columns << spec.dock;
                row << dock(spec.dock);
                widths << part(width, spec.width);
            }
        }
        if (row.isEmpty())
            continue;
        m_host->resizeDocks(row, widths, Qt::Horizontal);
        for (const Dock top : std::as_const(columns)) {
            QList<QDockWidget*> column;
            QList<int> heights;
            for (const DockSpec& spec : kDocks) {
                if (placed(spec) && columnOf(spec) == top) {
                    column << dock(spec.dock);
                    heights << part(height, spec.height);
                }
            }
            if (column.size() > 1)
                m_host->resizeDocks(column, heights, Qt::Vertical);
        }
        areas << row.first();
        areaHeights << part(height, columnHeight(columns.first()));
    }
    m_host->resizeDocks(areas, areaHeights, Qt::Vertical);
}

} // namespace nanscope::app
