// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/comparepanel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/runcomparisonmodel.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/timelinestrip.hpp"
#include "runstripsource.hpp"
#include "snapshotjob.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <utility>

namespace nanscope::views {

using items::fromStd;

namespace {

QString listName(core::EventSource list)
{
    return list == core::EventSource::Graph ? ComparePanel::tr("graph execution traces")
                                            : ComparePanel::tr("executions");
}

// "830 aligned, 120 only in A, 0 only in B; first in one run only: A's trace #28 Const".
QString summaryText(const core::SequenceComparison& s, core::EventSource list)
{
    QString text = ComparePanel::tr("%1: %2 in A, %3 in B; %4 aligned, %5 only in A, %6 only in B")
                       .arg(listName(list))
                       .arg(s.countA)
                       .arg(s.countB)
                       .arg(s.aligned)
                       .arg(s.onlyInA)
                       .arg(s.onlyInB);
    text[0] = text[0].toUpper();
    if (s.firstUnmatched)
        // One arg() for all: an op name from the logdir that holds "%4" stays as it is.
        text += ComparePanel::tr(". First op in one run only: %1's #%2 %3 (step %4)")
                    .arg(*s.firstUnmatchedSide == core::RunSide::A ? QStringLiteral("A")
                                                                   : QStringLiteral("B"),
                         QString::number(s.firstUnmatched->event.index),
                         fromStd(s.firstUnmatched->opName.empty() ? s.firstUnmatched->opType
                                                                  : s.firstUnmatched->opName),
                         QString::number(s.firstUnmatched->step));
    if (s.thresholdCut)
        text += ComparePanel::tr(". The threshold was applied to the first %1 pairs only")
                    .arg(s.healthReads);
    return text;
}

widgets::TimelineStrip* makeStrip(QWidget* parent)
{
    auto* strip = new widgets::TimelineStrip(parent);
    strip->setCategories(RunStripSource::categories());
    strip->setPlaceholderText(ComparePanel::tr("Nothing to show"));
    return strip;
}

} // namespace

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), m_job(std::make_unique<SnapshotJob<Result>>(
                           [this](Result result) { deliver(std::move(result)); })),
      m_model(new items::RunComparisonModel(this))
{
    auto* layout = new QVBoxLayout(this);
    m_headline = widgets::selectableLabel(tr("Nothing compared yet"), this);
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_summary = widgets::selectableLabel({}, this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_headline);
    layout->addWidget(m_summary);

    auto* listRow = new QHBoxLayout;
    listRow->addWidget(widgets::plainLabel(tr("Show:"), this));
    m_listChoice = new QComboBox(this);
    m_listChoice->addItem(tr("Graph execution traces"), int(core::EventSource::Graph));
    m_listChoice->addItem(tr("Executions"), int(core::EventSource::Eager));
    listRow->addWidget(m_listChoice);
    listRow->addStretch();
    layout->addLayout(listRow);

    m_labelA = widgets::plainLabel({}, this);
    m_stripA = makeStrip(this);
    m_labelB = widgets::plainLabel({}, this);
    m_stripB = makeStrip(this);
    for (QWidget* w : {static_cast<QWidget*>(m_labelA), static_cast<QWidget*>(m_stripA),
                       static_cast<QWidget*>(m_labelB), static_cast<QWidget*>(m_stripB)})
        layout->addWidget(w);

    m_records = new QTableView(this);
    m_records->setModel(m_model);
    m_records->setItemDelegate(new widgets::PlainTextDelegate(m_records));
    m_records->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_records->verticalHeader()->hide();
    m_records->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_records->setToolTip(tr("Double-click run A's record to show it in the main window"));
    layout->addWidget(m_records, 1);

    connect(m_listChoice, &QComboBox::activated, this, [this](int index) {
        showList(static_cast<core::EventSource>(m_listChoice->itemData(index).toInt()));
    });
    connect(m_records, &QAbstractItemView::doubleClicked, this,
            [this](const QModelIndex& index) { activateRecord(index.column()); });
    connect(m_stripA, &widgets::TimelineStrip::itemActivated, this, [this](quint64 item) {
        m_stripA->setCurrent(item);
        Q_EMIT eventActivated(core::RunSide::A, {m_list, item});
    });
    connect(m_stripB, &widgets::TimelineStrip::itemActivated, this, [this](quint64 item) {
        m_stripB->setCurrent(item);
        Q_EMIT eventActivated(core::RunSide::B, {m_list, item});
    });
    updateList();
}

ComparePanel::~ComparePanel()
{
    // The strips hold the sources: they go first.
    m_stripA->setSource(nullptr);
    m_stripB->setSource(nullptr);
}

void ComparePanel::compare(items::SnapshotPtr a, items::SnapshotPtr b, core::CompareOptions options)
{
    m_a = std::move(a);
    m_b = std::move(b);
    m_result.reset();
    showStatus(tr("Comparing…"));
    m_job->request(m_a, [b = m_b, options](const core::Snapshot& snapshot,
                                           const std::atomic_bool& stop) mutable {
        options.stop = &stop;
        auto result = std::make_shared<const core::ReadResult<core::RunComparison>>(
            core::compareRuns(snapshot, *b, options));
        b->releaseMappedPages();
        return Result(std::move(result));
    });
}

void ComparePanel::showStatus(const QString& message)
{
    m_headline->setText(message);
    m_summary->clear();
    m_model->setDivergence(std::nullopt);
    m_stripA->setSource(nullptr);
    m_stripB->setSource(nullptr);
    m_sourceA.reset();
    m_sourceB.reset();
    m_labelA->clear();
    m_labelB->clear();
}

bool ComparePanel::isBusy() const
{
    return !m_job->idle();
}

QString ComparePanel::headline() const
{
    return m_headline->text();
}

void ComparePanel::deliver(Result result)
{
    m_result = std::move(result);
    if (!*m_result) {
        showStatus(tr("The runs could not be compared: %1").arg(fromStd(m_result->error)));
        Q_EMIT compared();
        return;
    }
    const core::RunComparison& c = **m_result;
    // The first line of nanscope-report --compare: one wording for both.
    const std::string text = core::renderCompareText(c);
    m_headline->setText(fromStd(std::string_view(text).substr(0, text.find('\n'))));
    setSources(c.first.kind != core::DivergenceKind::None ? c.first.a.event.source
               : c.traces.countA + c.traces.countB > 0    ? core::EventSource::Graph
                                                          : core::EventSource::Eager);
    Q_EMIT compared();
}

void ComparePanel::showList(core::EventSource list)
{
    if (!m_result || !*m_result || list == m_list)
        return;
    setSources(list);
}

void ComparePanel::setSources(core::EventSource list)
{
    // The strips hold the sources: they let go of the old ones before those go.
    m_stripA->setSource(nullptr);
    m_stripB->setSource(nullptr);
    m_list = list;
    m_sourceA = std::make_unique<RunStripSource>(m_a, m_list);
    m_sourceB = std::make_unique<RunStripSource>(m_b, m_list);
    updateList();
}

const core::SequenceComparison* ComparePanel::shownComparison() const
{
    if (!m_result || !*m_result)
        return nullptr;
    const core::RunComparison& c = **m_result;
    return m_list == core::EventSource::Graph ? &c.traces : &c.executions;
}

void ComparePanel::updateList()
{
    m_listChoice->setCurrentIndex(m_listChoice->findData(int(m_list)));
    const core::SequenceComparison* s = shownComparison();
    m_listChoice->setEnabled(s != nullptr);
    if (!s)
        return;
    const core::RunComparison& c = **m_result;
    m_summary->setText(summaryText(*s, m_list));
    m_labelA->setText(tr("Run A: %1").arg(fromStd(c.logdirA)));
    m_labelB->setText(tr("Run B: %1").arg(fromStd(c.logdirB)));
    m_model->setDivergence(s->divergence);
    m_stripA->setSource(m_sourceA.get());
    m_stripB->setSource(m_sourceB.get());
    if (s->divergence) {
        const std::uint64_t a = s->divergence->a.event.index;
        const std::uint64_t b = s->divergence->b.event.index;
        m_stripA->setMarkers({a});
        m_stripB->setMarkers({b});
        m_stripA->setCurrent(a);
        m_stripB->setCurrent(b);
    } else {
        m_stripA->setMarkers({});
        m_stripB->setMarkers({});
        m_stripA->setCurrent(std::nullopt);
        m_stripB->setCurrent(std::nullopt);
    }
}

void ComparePanel::activateRecord(int column)
{
    const auto event = m_model->eventAt(column);
    if (!event)
        return;
    Q_EMIT eventActivated(column == items::RunComparisonModel::RunAColumn ? core::RunSide::A
                                                                          : core::RunSide::B,
                          *event);
}

} // namespace nanscope::views
