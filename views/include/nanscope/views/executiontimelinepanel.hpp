// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's execution timeline, without its window of 50: a zoomable strip of every
// execution of the logdir, one lane per host when it has several, and the details of the
// focused one below it.
#pragma once

#include "nanscope/views/panel.hpp"

#include <QColor>
#include <QRect>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace nanscope::widgets {
class TimelineStrip;
}

namespace nanscope::views {

class ExecutionDetailsView;
class ExecutionStripSource;
class LanesArea;
class Legend;
template <typename T>
class SnapshotJob;

class ExecutionTimelinePanel : public Panel
{
    Q_OBJECT

public:
    explicit ExecutionTimelinePanel(Navigator* navigator, QWidget* parent = nullptr);
    ~ExecutionTimelinePanel() override;

    // For tests and the main window's status bar: the first host's strip.
    widgets::TimelineStrip* strip() const { return m_lanes.front().strip; }
    // One lane per host (LogdirLayout::fileSets), the first host on top; one lane when there is
    // one host (or no logdir).
    std::size_t laneCount() const { return m_lanes.size(); }
    widgets::TimelineStrip* laneStrip(std::size_t lane) const { return m_lanes.at(lane).strip; }
    // The host name over a lane; "" (and hidden) when there is one lane.
    QString laneName(std::size_t lane) const;
    // Where a lane is drawn, its host's name included, in the panel's coordinates.
    QRect laneRect(std::size_t lane) const;
    // The toolbar's wall-time toggle. With several hosts the lanes share one wall-time axis,
    // zoomed and scrolled together.
    QToolButton* timeAxisButton() const { return m_timeAxis; }
    // The header's line: "6 executions · 2 with NaN/∞" ("… on 2 hosts" for several).
    QString summaryText() const;
    // The details of the focused execution as plain text ("" when no execution is focused).
    QString detailsText() const;
    // Whether the details' facts and outputs stand side by side (a wide pane) or stacked.
    bool detailsSideBySide() const;
    // What "Treat as Expected" in the first lane's context menu adds for an execution
    // ("aten::log:-inf"); empty for one with no non-finite output.
    QString expectedPatternForExecution(std::uint64_t item) const;
    // The menu's action: asks for the execution's pattern to be expected.
    void treatExecutionAsExpected(std::uint64_t item);

Q_SIGNALS:
    void treatAsExpectedRequested(const QString& pattern);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    struct Lane
    {
        QWidget* header = nullptr; // the name, and "No executions" for a host that ran none
        QLabel* name = nullptr;
        QLabel* empty = nullptr;
        widgets::TimelineStrip* strip = nullptr;
        std::unique_ptr<ExecutionStripSource> source;
    };

    static QColor markerColour();
    QHBoxLayout* buildToolBar();
    Legend* buildLegend();
    std::vector<QToolButton*> buildAlertAndZoomButtons();
    void buildTimeAxisButton();
    void setLaneCount(std::size_t count);
    void updateLane(Lane& lane, const items::SnapshotPtr& snapshot);
    void layOutLanes();
    std::size_t leadingLane() const;
    void shareTimeAxis();
    void followLane(std::size_t lane);
    void setTimeAxis(bool on);
    void activate(std::size_t lane, std::uint64_t item);
    void showFocus(const Focus& focus);
    bool showOtherHostExecution();
    void updateSummary();
    void analyse(const items::SnapshotPtr& snapshot);
    void showContextMenu(const QPoint& position);

    // The first lane's alert markers without the executions whose values were set aside, worked
    // out with the snapshot's propagation off the GUI thread.
    struct SetAsideMarkers
    {
        items::SnapshotPtr snapshot;
        std::vector<std::uint64_t> markers;
        std::vector<std::uint64_t> setAside; // non-finite executions drawn as plain ops now
    };
    void showSetAside(SetAsideMarkers result);
    std::unique_ptr<SnapshotJob<SetAsideMarkers>> m_analysis;
    std::vector<Lane> m_lanes;
    QWidget* m_lanesBox = nullptr;
    LanesArea* m_lanesArea = nullptr;
    bool m_sharedAxis = false; // the lanes have one wall-time frame
    bool m_aligning = false;   // every lane is switching axes: none leads yet
    // The lane the alert buttons move in: the last one clicked in.
    std::size_t m_activeLane = 0;
    // An execution of a host other than the first, shown in the details: the Navigator's focus
    // names TensorFlow's executions only (the first host's), so it stays where it was.
    std::optional<std::pair<std::size_t, std::uint64_t>> m_otherHostItem;
    ExecutionDetailsView* m_details = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_timeAxis = nullptr;
};

} // namespace nanscope::views
