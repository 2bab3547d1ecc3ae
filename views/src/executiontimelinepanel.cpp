// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/executiontimelinepanel.hpp"

#include "executiondescription.hpp"
#include "executiondetailsview.hpp"
#include "executionstripsource.hpp"
#include "executiontimelinelanes.hpp"
#include "expectedpattern.hpp"
#include "legend.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintooltip.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "snapshotjob.hpp"
#include "viewhelpers.hpp"

#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace nanscope::views {

ExecutionTimelinePanel::ExecutionTimelinePanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent)
{
    m_analysis = std::make_unique<SnapshotJob<SetAsideMarkers>>(
        [this](SetAsideMarkers result) { showSetAside(std::move(result)); });
    m_lanesBox = new QWidget(this);
    auto* lanesLayout = new QVBoxLayout(m_lanesBox);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(0);
    m_lanesArea = new LanesArea(m_lanesBox, this);
    setLaneCount(1);

    QHBoxLayout* bar = buildToolBar();
    m_details = new ExecutionDetailsView(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_lanesArea);
    layout->addWidget(m_details, 1);

    snapshotChanged(navigator->snapshot());
}

ExecutionTimelinePanel::~ExecutionTimelinePanel() = default;

// The summary, the legend, then the buttons that move between alerts, zoom and pick the axis.
QHBoxLayout* ExecutionTimelinePanel::buildToolBar()
{
    m_summary = widgets::plainLabel({}, this);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    Legend* legend = buildLegend();
    const std::vector<QToolButton*> buttons = buildAlertAndZoomButtons();
    buildTimeAxisButton();

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 4, 2);
    bar->setSpacing(2);
    bar->addWidget(m_summary, 1);
    bar->addWidget(legend);
    bar->addSpacing(12);
    for (QToolButton* button : buttons)
        bar->addWidget(button);
    bar->addWidget(m_timeAxis);
    return bar;
}

// The strip's colours by kind of execution, and the mark of one that raised an alert.
Legend* ExecutionTimelinePanel::buildLegend()
{
    std::vector<LegendEntry> legendEntries;
    for (const widgets::TimelineCategory& category : ExecutionStripSource::categories())
        legendEntries.push_back({category.colour, category.colour.darker(130), category.name});
    legendEntries.push_back({markerColour(), QColor(), QStringLiteral("raised an alert"), true});
    return new Legend(legendEntries, this);
}

// ◀ Alert, Alert ▶, −, + and Fit, in that order.
std::vector<QToolButton*> ExecutionTimelinePanel::buildAlertAndZoomButtons()
{
    auto* previousAlert =
        toolButton(QStringLiteral("◀ Alert"),
                   QStringLiteral("Previous execution with NaN/∞ (Ctrl+Left)"), this);
    auto* nextAlert = toolButton(QStringLiteral("Alert ▶"),
                                 QStringLiteral("Next execution with NaN/∞ (Ctrl+Right)"), this);
    auto* zoomOut = toolButton(QStringLiteral("−"), QStringLiteral("Zoom out (-)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), QStringLiteral("Zoom in (+, Ctrl+wheel)"), this);
    auto* fit = toolButton(QStringLiteral("Fit"), QStringLiteral("Show every execution (0)"), this);
    // Alerts are looked for in the lane last clicked in; zooming applies to every lane.
    const auto activeLane = [this] {
        return m_lanes[std::min(m_activeLane, m_lanes.size() - 1)].strip;
    };
    connect(previousAlert, &QToolButton::clicked, this,
            [activeLane] { activeLane()->previousMarker(); });
    connect(nextAlert, &QToolButton::clicked, this, [activeLane] { activeLane()->nextMarker(); });
    // On the shared time axis the leading lane zooms and the others follow it (followLane).
    const auto everyLane = [this](void (widgets::TimelineStrip::*action)()) {
        return [this, action] {
            if (m_sharedAxis && m_timeAxis->isChecked()) {
                (m_lanes[leadingLane()].strip->*action)();
                return;
            }
            for (const Lane& lane : m_lanes)
                (lane.strip->*action)();
        };
    };
    connect(zoomOut, &QToolButton::clicked, this, everyLane(&widgets::TimelineStrip::zoomOut));
    connect(zoomIn, &QToolButton::clicked, this, everyLane(&widgets::TimelineStrip::zoomIn));
    connect(fit, &QToolButton::clicked, this, everyLane(&widgets::TimelineStrip::fit));
    return {previousAlert, nextAlert, zoomOut, zoomIn, fit};
}

void ExecutionTimelinePanel::buildTimeAxisButton()
{
    // Index order shows what ran after what; wall time shows where the time went (a slow step,
    // a pause before the NaN).
    // With several hosts, the index order lines up executions of each host that ran at
    // unrelated times; on the time axis the lanes share one clock.
    m_timeAxis = toolButton(QStringLiteral("Time"),
                            QStringLiteral("Place executions by wall time instead of by index; "
                                           "the lanes of several hosts share the time axis, so "
                                           "that what ran at the same time lines up"),
                            this);
    m_timeAxis->setCheckable(true);
    connect(m_timeAxis, &QToolButton::toggled, this, &ExecutionTimelinePanel::setTimeAxis);
}

// The analysis' markers, unless the lane has moved on to another snapshot meanwhile.
void ExecutionTimelinePanel::showSetAside(SetAsideMarkers result)
{
    Lane& lane = m_lanes.front();
    if (result.snapshot != lane.source->snapshot())
        return;
    lane.source->setAnalysed(result.snapshot);
    lane.strip->setMarkers(std::move(result.markers));
    lane.strip->categoriesChanged(result.setAside);
    updateSummary();
}

void ExecutionTimelinePanel::activate(std::size_t lane, std::uint64_t item)
{
    m_activeLane = lane;
    if (lane == 0) {
        m_otherHostItem.reset();
        navigator()->focusExecution(item);
        showFocus(navigator()->focus()); // also when the Navigator's focus did not change
        return;
    }
    m_otherHostItem = std::make_pair(lane, item);
    showOtherHostExecution();
}

// Shows m_otherHostItem; false (and forgets it) when the snapshot no longer has it.
bool ExecutionTimelinePanel::showOtherHostExecution()
{
    const items::SnapshotPtr& snapshot = m_lanes.front().source->snapshot();
    if (!m_otherHostItem || !snapshot) {
        m_otherHostItem.reset();
        return false;
    }
    const auto [host, item] = *m_otherHostItem;
    if (host >= m_lanes.size() || item >= snapshot->hostExecutionCount(host)) {
        m_otherHostItem.reset();
        return false;
    }
    for (std::size_t lane = 0; lane < m_lanes.size(); ++lane)
        m_lanes[lane].strip->setCurrent(lane == host ? std::optional(item) : std::nullopt);
    ExecutionDescription description = describeExecution(*snapshot, host, item);
    description.fields.emplace_back(
        QStringLiteral("Focus"),
        QStringLiteral("not moved: only the first host's executions (%1) can be focused, as "
                       "they are TensorFlow's list; this host's stack frames and source files "
                       "are not read, so the other panels keep what they show")
            .arg(items::fromStd(snapshot->layout().fileSets.front().hostName)));
    m_details->showDescription(description);
    return true;
}

QString ExecutionTimelinePanel::detailsText() const
{
    return m_details->text();
}

bool ExecutionTimelinePanel::detailsSideBySide() const
{
    return m_details->sideBySide();
}

void ExecutionTimelinePanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    if (!items::sameLogdir(m_lanes.front().source->snapshot(), snapshot))
        m_otherHostItem.reset();
    setLaneCount(snapshot ? snapshot->layout().fileSets.size() : 1);
    for (Lane& lane : m_lanes)
        updateLane(lane, snapshot);
    m_activeLane = std::min(m_activeLane, m_lanes.size() - 1);
    layOutLanes();
    shareTimeAxis();
    updateSummary();
    if (!showOtherHostExecution())
        showFocus(navigator()->focus());
    analyse(snapshot);
}

QString ExecutionTimelinePanel::expectedPatternForExecution(std::uint64_t item) const
{
    const items::SnapshotPtr& snapshot = m_lanes.front().source->snapshot();
    return snapshot ? expectedPatternFor(*snapshot, {core::EventSource::Eager, item}) : QString();
}

void ExecutionTimelinePanel::treatExecutionAsExpected(std::uint64_t item)
{
    const QString pattern = expectedPatternForExecution(item);
    if (!pattern.isEmpty())
        Q_EMIT treatAsExpectedRequested(pattern);
}

// `position` in the strip's viewport (a scroll area maps its context menu events there).
void ExecutionTimelinePanel::showContextMenu(const QPoint& position)
{
    widgets::TimelineStrip* strip = m_lanes.front().strip;
    const auto item = strip->itemAt(position);
    const QString pattern = item ? expectedPatternForExecution(*item) : QString();
    if (pattern.isEmpty())
        return;
    QMenu menu(this);
    connect(addTreatAsExpectedAction(menu, pattern), &QAction::triggered, this,
            [this, i = *item] { treatExecutionAsExpected(i); });
    menu.exec(strip->viewport()->mapToGlobal(position));
}

// As the Alerts panel, only a finished read is analysed: a partial one would walk the whole
// index again at every batch.
void ExecutionTimelinePanel::analyse(const items::SnapshotPtr& snapshot)
{
    if (!snapshot || !snapshot->complete() || snapshot->alertCount() == 0) {
        m_analysis->cancel();
        return;
    }
    m_analysis->request(snapshot, [snapshot](const core::Snapshot& s, const std::atomic_bool&) {
        (void)s.propagation();
        ExecutionStripSource source(0);
        source.setSnapshot(snapshot);
        source.setAnalysed(snapshot);
        SetAsideMarkers result{snapshot, {}, {}};
        source.appendAlertExecutions(result.markers, 0);
        for (std::uint64_t i = 0; i < s.executionCount(); ++i)
            if (source.setAside(i))
                result.setAside.push_back(i);
        return result;
    });
}

void ExecutionTimelinePanel::focusChanged(const Focus& focus)
{
    m_otherHostItem.reset();
    showFocus(focus);
}

QString ExecutionTimelinePanel::summaryText() const
{
    return m_summary->text();
}

void ExecutionTimelinePanel::updateSummary()
{
    std::uint64_t count = 0;
    std::size_t alerts = 0;
    for (const Lane& lane : m_lanes) {
        count += lane.source->itemCount();
        alerts += lane.strip->markers().size();
    }
    const QLocale locale;
    QString text = count == 1 ? QStringLiteral("1 execution")
                              : QStringLiteral("%1 executions").arg(locale.toString(count));
    if (m_lanes.size() > 1)
        text += QStringLiteral(" on %1 hosts").arg(m_lanes.size());
    if (alerts > 0)
        text += QStringLiteral(" · %1 with NaN/∞").arg(locale.toString(qulonglong(alerts)));
    // TensorFlow's reader reads the first host's executions only; so do the report's totals,
    // the alerts and the root cause. The other lanes are NaNscope's own reading.
    const items::SnapshotPtr& snapshot = m_lanes.front().source->snapshot();
    QString toolTip;
    if (snapshot && m_lanes.size() > 1)
        toolTip = QStringLiteral("This logdir has %1 hosts, one lane each. TensorFlow's reader "
                                 "reads the executions of the first one (%2) only: the report's "
                                 "counts, the Alerts panel and the root cause count those alone.")
                      .arg(m_lanes.size())
                      .arg(items::fromStd(snapshot->layout().fileSets.front().hostName));
    m_summary->setText(snapshot ? text : QString());
    m_summary->setToolTip(widgets::plainToolTip(toolTip));
}

void ExecutionTimelinePanel::showFocus(const Focus& focus)
{
    const items::SnapshotPtr& snapshot = m_lanes.front().source->snapshot();
    for (std::size_t lane = 1; lane < m_lanes.size(); ++lane)
        m_lanes[lane].strip->setCurrent(std::nullopt);
    widgets::TimelineStrip* first = m_lanes.front().strip;
    if (snapshot && focus.event && focus.event->source == core::EventSource::Eager &&
        focus.event->index < snapshot->executionCount()) {
        first->setCurrent(focus.event->index);
        m_details->showDescription(describeExecution(*snapshot, 0, focus.event->index));
        return;
    }
    first->setCurrent(std::nullopt);
    std::uint64_t otherHosts = 0;
    for (std::size_t lane = 1; lane < m_lanes.size(); ++lane)
        otherHosts += m_lanes[lane].source->itemCount();
    if (!snapshot)
        m_details->showMessage(QStringLiteral("No logdir is open."));
    else if (snapshot->executionCount() == 0 && otherHosts == 0)
        m_details->showMessage(
            QStringLiteral("This logdir has no executions: no eager op or function call was "
                           "recorded (graph executions are listed in Graph Executions)."));
    else if (focus.event && focus.event->source == core::EventSource::Graph)
        m_details->showMessage(
            QStringLiteral("Graph execution #%1 is focused. Click an execution in the strip, "
                           "or press ←\u00A0→ in it, to see its details.")
                .arg(focus.event->index));
    else
        m_details->showMessage(QStringLiteral("Click an execution in the strip, or press ← → "
                                              "Home End in it, to see its details."));
}

} // namespace nanscope::views
