// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's execution timeline, without its window of 50: a zoomable strip of every
// execution of the logdir, and the details of the focused one below it.
#pragma once

#include "nanscope/views/panel.hpp"

#include <QString>
#include <memory>

class QLabel;
class QToolButton;

namespace nanscope::widgets {
class TimelineStrip;
}

namespace nanscope::views {

class ExecutionDetailsView;
class ExecutionStripSource;

class ExecutionTimelinePanel : public Panel
{
    Q_OBJECT

public:
    explicit ExecutionTimelinePanel(Navigator* navigator, QWidget* parent = nullptr);
    ~ExecutionTimelinePanel() override;

    // For tests and the main window's status bar.
    widgets::TimelineStrip* strip() const { return m_strip; }
    // The toolbar's wall-time toggle.
    QToolButton* timeAxisButton() const { return m_timeAxis; }
    // The header's line: "6 executions · 2 with NaN/∞", with the host of several.
    QString summaryText() const;
    // The details of the focused execution as plain text ("" when no execution is focused).
    QString detailsText() const;
    // Whether the details' facts and outputs stand side by side (a wide pane) or stacked.
    bool detailsSideBySide() const;

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    void showFocus(const Focus& focus);
    void updateSummary();

    std::unique_ptr<ExecutionStripSource> m_source;
    widgets::TimelineStrip* m_strip = nullptr;
    ExecutionDetailsView* m_details = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_timeAxis = nullptr;
};

} // namespace nanscope::views
