// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's central area: the banner across the top, and under it either NaNscope's
// start page or the panels (their docks' host window) in its place.
#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>

class QDockWidget;
class QStackedWidget;

namespace nanscope::widgets {
class Banner;
class StartPage;
} // namespace nanscope::widgets

namespace nanscope::app {

class CentralArea : public QWidget
{
    Q_OBJECT

public:
    explicit CentralArea(QWidget* panels, QWidget* parent = nullptr);

    widgets::Banner* banner() const { return m_banner; }
    widgets::StartPage* startPage() const { return m_startPage; }
    void showPanels(bool panels);
    bool isShowingStartPage() const;
    // Whether every dock of the panels has been made ready for its first showing (see
    // prepareNextDock).
    bool panelsPrepared() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void scheduleNextDock();
    void prepareNextDock();

    widgets::Banner* m_banner = nullptr;
    widgets::StartPage* m_startPage = nullptr;
    QWidget* m_panels = nullptr;
    QStackedWidget* m_pages = nullptr;
    bool m_preparing = false;   // the docks to prepare were listed
    bool m_stepPending = false; // a step waits for an idle moment
    QList<QPointer<QDockWidget>> m_unprepared;
};

} // namespace nanscope::app
