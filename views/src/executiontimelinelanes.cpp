// SPDX-License-Identifier: GPL-3.0-or-later
// The Execution Timeline's lanes, one per host: how they are made, stacked and kept compact,
// and the wall-time axis they share.
#include "executiontimelinelanes.hpp"

#include "executionstripsource.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/views/executiontimelinepanel.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/timelinestrip.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

namespace nanscope::views {
namespace {

const QColor kMarkerColour(0xc5, 0x22, 0x1f);

} // namespace

LanesArea::LanesArea(QWidget* lanes, QWidget* parent) : QScrollArea(parent)
{
    setWidget(lanes);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Never taller than the lanes: the details below take what is left.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
}

void LanesArea::setLeastHeight(int height)
{
    m_least = height;
    updateGeometry();
}

QSize LanesArea::sizeHint() const
{
    return widget()->sizeHint();
}

QSize LanesArea::minimumSizeHint() const
{
    return {widget()->minimumSizeHint().width(), std::min(sizeHint().height(), m_least)};
}

QColor ExecutionTimelinePanel::markerColour()
{
    return kMarkerColour;
}

QString ExecutionTimelinePanel::laneName(std::size_t lane) const
{
    return m_lanes.size() > 1 ? m_lanes.at(lane).name->text() : QString();
}

QRect ExecutionTimelinePanel::laneRect(std::size_t lane) const
{
    QRect rect;
    for (const QWidget* part :
         {m_lanes.at(lane).header, static_cast<QWidget*>(m_lanes.at(lane).strip)})
        if (part->isVisibleTo(this))
            rect |= QRect(part->mapTo(this, QPoint()), part->size());
    return rect;
}

void ExecutionTimelinePanel::setLaneCount(std::size_t count)
{
    count = std::max<std::size_t>(count, 1);
    while (m_lanes.size() > count) {
        delete m_lanes.back().header;
        delete m_lanes.back().strip;
        m_lanes.pop_back();
    }
    while (m_lanes.size() < count) {
        const std::size_t host = m_lanes.size();
        Lane lane;
        lane.source = std::make_unique<ExecutionStripSource>(host);
        // The host's name, and "No executions" beside it for a host that ran none: one line
        // instead of an empty strip.
        lane.header = new QWidget(m_lanesBox);
        auto* header = new QHBoxLayout(lane.header);
        header->setContentsMargins(6, 2, 6, 0);
        header->setSpacing(8);
        lane.name = widgets::plainLabel({}, lane.header);
        QFont bold = lane.name->font();
        bold.setBold(true);
        lane.name->setFont(bold);
        lane.empty = widgets::plainLabel(QStringLiteral("No executions"), lane.header);
        lane.empty->setForegroundRole(QPalette::PlaceholderText);
        header->addWidget(lane.name);
        header->addWidget(lane.empty);
        header->addStretch(1);
        lane.strip = new widgets::TimelineStrip(m_lanesBox);
        lane.strip->setCategories(ExecutionStripSource::categories());
        lane.strip->setMarkerColour(kMarkerColour);
        lane.strip->setPlaceholderText(QStringLiteral("No executions"));
        lane.strip->setToolTip({}); // items have their own
        if (m_timeAxis)
            lane.strip->setTimeAxis(m_timeAxis->isChecked());
        connect(lane.strip, &widgets::TimelineStrip::itemActivated, this,
                [this, host](quint64 item) { activate(host, item); });
        connect(lane.strip, &widgets::TimelineStrip::viewChanged, this,
                [this, host] { followLane(host); });
        if (host == 0) { // TensorFlow's executions: the ones patterns apply to
            lane.strip->setContextMenuPolicy(Qt::CustomContextMenu);
            connect(lane.strip, &QWidget::customContextMenuRequested, this,
                    &ExecutionTimelinePanel::showContextMenu);
        }
        m_lanesBox->layout()->addWidget(lane.header);
        m_lanesBox->layout()->addWidget(lane.strip);
        m_lanes.push_back(std::move(lane));
    }
    setFocusProxy(m_lanes.front().strip);
}

// More executions of the same logdir: reads only the new ones.
void ExecutionTimelinePanel::updateLane(Lane& lane, const items::SnapshotPtr& snapshot)
{
    const items::SnapshotPtr previous = lane.source->snapshot();
    const std::size_t host = lane.source->host();
    const std::uint64_t before = previous ? previous->hostExecutionCount(host) : 0;
    const bool grows =
        items::sameLogdir(previous, snapshot) && snapshot->hostExecutionCount(host) >= before;
    lane.source->setSnapshot(snapshot);
    std::vector<std::uint64_t> markers =
        grows ? lane.strip->markers() : std::vector<std::uint64_t>();
    lane.source->appendAlertExecutions(markers, grows ? before : 0);
    if (grows)
        lane.strip->itemsAppended();
    else
        lane.strip->setSource(lane.source.get());
    lane.strip->setMarkers(std::move(markers));
    const auto& sets = snapshot ? snapshot->layout().fileSets : std::vector<core::FileSet>();
    lane.name->setText(host < sets.size() ? items::fromStd(sets[host].hostName) : QString());
}

void ExecutionTimelinePanel::layOutLanes()
{
    // One lane: the strip alone, its placeholder when empty. Several: each under its host's
    // name, compact, an empty one a line; down to the tallest lane and two lines more, the
    // rest scrolls.
    const bool several = m_lanes.size() > 1;
    int tallest = 0;
    for (const Lane& lane : m_lanes) {
        const bool empty = lane.strip->itemCount() == 0;
        lane.header->setVisible(several);
        lane.empty->setVisible(several && empty);
        lane.strip->setVisible(!several || !empty);
        lane.strip->setCompact(several);
        int height = several ? lane.header->sizeHint().height() : 0;
        if (!lane.strip->isHidden())
            height += lane.strip->sizeHint().height();
        tallest = std::max(tallest, height);
    }
    const int line = several ? m_lanes.front().header->sizeHint().height() : 0;
    m_lanesArea->setLeastHeight(tallest + 2 * line);
    m_lanesBox->layout()->activate();
    m_lanesArea->updateGeometry();
}

std::size_t ExecutionTimelinePanel::leadingLane() const
{
    // The lane last clicked in, unless it has nothing to show: a hidden strip keeps no width.
    if (m_activeLane < m_lanes.size() && m_lanes[m_activeLane].strip->itemCount() > 0)
        return m_activeLane;
    for (std::size_t lane = 0; lane < m_lanes.size(); ++lane)
        if (m_lanes[lane].strip->itemCount() > 0)
            return lane;
    return 0;
}

void ExecutionTimelinePanel::shareTimeAxis()
{
    // One wall-time axis for every lane, from the earliest execution of any host to the latest,
    // as many item widths long as the busiest host has executions (its items keep their width).
    std::optional<widgets::TimelineStrip::TimeFrame> frame;
    double first = std::numeric_limits<double>::infinity();
    double latest = -first;
    std::uint64_t most = 0;
    std::size_t withItems = 0;
    for (const Lane& lane : m_lanes) {
        const auto span = lane.strip->timeSpan();
        if (!span)
            continue;
        ++withItems;
        first = std::min(first, span->first);
        latest = std::max(latest, span->latest);
        most = std::max(most, lane.strip->itemCount());
    }
    if (withItems > 1 && latest > first) {
        const double length = static_cast<double>(std::max<std::uint64_t>(most, 2));
        frame = widgets::TimelineStrip::TimeFrame{first, (latest - first) / (length - 1), length};
    }
    m_sharedAxis = frame.has_value();
    for (const Lane& lane : m_lanes)
        lane.strip->setTimeFrame(frame);
    followLane(leadingLane());
}

void ExecutionTimelinePanel::followLane(std::size_t lane)
{
    // On the shared axis, one zoom and scroll for all: what ran at the same time lines up.
    if (m_aligning || !m_sharedAxis || !m_timeAxis->isChecked() || lane >= m_lanes.size() ||
        m_lanes[lane].strip->itemCount() == 0)
        return;
    const widgets::TimelineScale& scale = m_lanes[lane].strip->scale();
    for (std::size_t other = 0; other < m_lanes.size(); ++other)
        if (other != lane)
            m_lanes[other].strip->setView(scale.pixelsPerItem, scale.scroll);
}

void ExecutionTimelinePanel::setTimeAxis(bool on)
{
    m_aligning = true;
    for (const Lane& lane : m_lanes)
        lane.strip->setTimeAxis(on);
    m_aligning = false;
    followLane(leadingLane());
}

} // namespace nanscope::views
