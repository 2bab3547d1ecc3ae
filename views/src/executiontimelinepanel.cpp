// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/executiontimelinepanel.hpp"

#include "executiondescription.hpp"
#include "executiondetailsview.hpp"
#include "executionstripsource.hpp"
#include "legend.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintooltip.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "viewhelpers.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

namespace nanscope::views {

ExecutionTimelinePanel::ExecutionTimelinePanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent), m_source(std::make_unique<ExecutionStripSource>())
{
    m_strip = new widgets::TimelineStrip(this);
    m_strip->setCategories(ExecutionStripSource::categories());
    m_strip->setMarkerColour(QColor(0xc5, 0x22, 0x1f));
    m_strip->setPlaceholderText(QStringLiteral("No executions"));
    m_strip->setToolTip({}); // items have their own
    connect(m_strip, &widgets::TimelineStrip::itemActivated, this,
            [this](quint64 item) { this->navigator()->focusExecution(item); });

    m_summary = widgets::plainLabel({}, this);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    std::vector<LegendEntry> legendEntries;
    for (const widgets::TimelineCategory& category : ExecutionStripSource::categories())
        legendEntries.push_back({category.colour, category.colour.darker(130), category.name});
    legendEntries.push_back(
        {QColor(0xc5, 0x22, 0x1f), QColor(), QStringLiteral("raised an alert"), true});
    auto* legend = new Legend(legendEntries, this);

    auto* previousAlert =
        toolButton(QStringLiteral("◀ Alert"),
                   QStringLiteral("Previous execution with NaN/∞ (Ctrl+Left)"), this);
    auto* nextAlert = toolButton(QStringLiteral("Alert ▶"),
                                 QStringLiteral("Next execution with NaN/∞ (Ctrl+Right)"), this);
    auto* zoomOut = toolButton(QStringLiteral("−"), QStringLiteral("Zoom out (-)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), QStringLiteral("Zoom in (+, Ctrl+wheel)"), this);
    auto* fit = toolButton(QStringLiteral("Fit"), QStringLiteral("Show every execution (0)"), this);
    connect(previousAlert, &QToolButton::clicked, m_strip, &widgets::TimelineStrip::previousMarker);
    connect(nextAlert, &QToolButton::clicked, m_strip, &widgets::TimelineStrip::nextMarker);
    connect(zoomOut, &QToolButton::clicked, m_strip, &widgets::TimelineStrip::zoomOut);
    connect(zoomIn, &QToolButton::clicked, m_strip, &widgets::TimelineStrip::zoomIn);
    connect(fit, &QToolButton::clicked, m_strip, &widgets::TimelineStrip::fit);
    // Index order shows what ran after what; wall time shows where the time went (a slow step,
    // a pause before the NaN).
    m_timeAxis =
        toolButton(QStringLiteral("Time"),
                   QStringLiteral("Place executions by wall time instead of by index"), this);
    m_timeAxis->setCheckable(true);
    connect(m_timeAxis, &QToolButton::toggled, m_strip, &widgets::TimelineStrip::setTimeAxis);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 4, 2);
    bar->setSpacing(2);
    bar->addWidget(m_summary, 1);
    bar->addWidget(legend);
    bar->addSpacing(12);
    for (QToolButton* button : {previousAlert, nextAlert, zoomOut, zoomIn, fit, m_timeAxis})
        bar->addWidget(button);

    m_details = new ExecutionDetailsView(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_strip);
    layout->addWidget(m_details, 1);

    setFocusProxy(m_strip);
    snapshotChanged(navigator->snapshot());
}

ExecutionTimelinePanel::~ExecutionTimelinePanel() = default;

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
    // More executions of the same logdir: read only the new ones.
    const items::SnapshotPtr previous = m_source->snapshot();
    const bool grows = items::sameLogdir(previous, snapshot) &&
                       snapshot->executionCount() >= previous->executionCount();
    m_source->setSnapshot(snapshot);
    std::vector<std::uint64_t> markers = grows ? m_strip->markers() : std::vector<std::uint64_t>();
    m_source->appendAlertExecutions(markers, grows ? previous->executionCount() : 0);
    if (grows)
        m_strip->itemsAppended();
    else
        m_strip->setSource(m_source.get());
    m_strip->setMarkers(std::move(markers));
    updateSummary();
    showFocus(navigator()->focus());
}

void ExecutionTimelinePanel::focusChanged(const Focus& focus)
{
    showFocus(focus);
}

QString ExecutionTimelinePanel::summaryText() const
{
    return m_summary->text();
}

void ExecutionTimelinePanel::updateSummary()
{
    const std::uint64_t count = m_source->itemCount();
    const QLocale locale;
    QString text = count == 1 ? QStringLiteral("1 execution")
                              : QStringLiteral("%1 executions").arg(locale.toString(count));
    const std::size_t alerts = m_strip->markers().size();
    if (alerts > 0)
        text += QStringLiteral(" · %1 with NaN/∞").arg(locale.toString(qulonglong(alerts)));
    // Of several hosts, executions are read from the first one's files, as TensorFlow's reader
    // does: say whose they are rather than draw a lane per host with all but one empty.
    const items::SnapshotPtr& snapshot = m_source->snapshot();
    QString toolTip;
    if (snapshot && snapshot->layout().fileSets.size() > 1) {
        text += QStringLiteral(" · %1").arg(
            items::fromStd(snapshot->layout().fileSets.front().hostName));
        toolTip = QStringLiteral("This logdir has %1 hosts; like TensorFlow's reader, NaNscope "
                                 "reads the executions of the first one (%2). Graph Execution "
                                 "shows every host's traces.")
                      .arg(snapshot->layout().fileSets.size())
                      .arg(items::fromStd(snapshot->layout().fileSets.front().hostName));
    }
    m_summary->setText(snapshot ? text : QString());
    m_summary->setToolTip(widgets::plainToolTip(toolTip));
}

void ExecutionTimelinePanel::showFocus(const Focus& focus)
{
    const items::SnapshotPtr& snapshot = m_source->snapshot();
    if (snapshot && focus.event && focus.event->source == core::EventSource::Eager &&
        focus.event->index < snapshot->executionCount()) {
        m_strip->setCurrent(focus.event->index);
        m_details->showDescription(describeExecution(*snapshot, focus.event->index));
        return;
    }
    m_strip->setCurrent(std::nullopt);
    if (!snapshot)
        m_details->showMessage(QStringLiteral("No logdir is open."));
    else if (snapshot->executionCount() == 0)
        m_details->showMessage(
            QStringLiteral("This logdir has no executions: no eager op or function call was "
                           "recorded (graph executions are listed in Graph Executions)."));
    else if (focus.event && focus.event->source == core::EventSource::Graph)
        m_details->showMessage(
            QStringLiteral("Graph execution #%1 is focused. Click an execution in the strip, "
                           "or press ← → Home End in it, to see an execution's details.")
                .arg(focus.event->index));
    else
        m_details->showMessage(QStringLiteral("Click an execution in the strip, or press ← → "
                                              "Home End in it, to see its details."));
}

} // namespace nanscope::views
