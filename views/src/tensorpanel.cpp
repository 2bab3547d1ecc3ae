// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensor panel's state: what is focused, what is read (in a SnapshotJob), what is shown.
// Its widgets are built and kept in step with the slice in tensorpanelcontrols.cpp.
#include "nanscope/views/tensorpanel.hpp"

#include "nanscope/core/snapshot.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/tensorslicemodel.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "snapshotjob.hpp"
#include "tensorexport.hpp"
#include "tensortableview.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QToolButton>

namespace nanscope::views {

using items::fromStd;

namespace {

QString eventName(core::EventRef event)
{
    return event.source == core::EventSource::Graph
               ? TensorPanel::tr("Graph trace #%L1").arg(event.index)
               : TensorPanel::tr("Execution #%L1").arg(event.index);
}

QString shapeText(const std::vector<std::int64_t>& shape)
{
    QStringList dims;
    for (const std::int64_t size : shape)
        dims << QString::number(size);
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// Statistics in the line: five significant digits (the tooltip has them all).
QString number(double value)
{
    return QString::number(value, 'g', 5);
}

// "dense_MatMul-trace-12.npy": the op's name (a trace) or type (an execution), in characters any
// file system takes.
QString suggestedFileName(const core::Snapshot& snapshot, core::EventRef event)
{
    QString name;
    if (event.source == core::EventSource::Graph) {
        const core::OpId op = snapshot.trace(event.index).op;
        if (op < snapshot.graphs().ops().size())
            name = fromStd(snapshot.graphs().op(op).name);
    } else {
        name = fromStd(std::string(snapshot.execution(event.index).opType));
    }
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    const QString kind = event.source == core::EventSource::Graph ? QStringLiteral("trace")
                                                                  : QStringLiteral("execution");
    return (name.isEmpty() ? QStringLiteral("tensor") : name) + QLatin1Char('-') + kind +
           QLatin1Char('-') + QString::number(event.index) + QStringLiteral(".npy");
}

} // namespace

TensorPanel::TensorPanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent), m_model(new items::TensorSliceModel(this)),
      m_job(std::make_unique<SnapshotJob<ReadOutcome>>(
          [this](const ReadOutcome& outcome) { deliver(outcome); })),
      m_exporter(new TensorExport(this))
{
    setWindowTitle(tr("Tensor"));
    buildLayout();
    connect(m_exporter, &TensorExport::finished, this,
            [this](const QString& path, const QString& error) {
                m_status->setText(error.isEmpty() ? tr("Wrote %1").arg(QFileInfo(path).fileName())
                                                  : tr("Could not write %1: %2").arg(path, error));
                Q_EMIT exportFinished(path, error);
            });
    focusChanged({});
}

TensorPanel::~TensorPanel() = default;

widgets::UniformTableView* TensorPanel::view() const
{
    return m_view;
}

bool TensorPanel::isBusy() const
{
    return !m_job->idle() || m_exporter->isRunning();
}

std::optional<core::EventRef> TensorPanel::shownEvent() const
{
    return m_model->tensor() ? m_shown.event : std::nullopt;
}

QString TensorPanel::headerText() const
{
    return m_header->text();
}

QString TensorPanel::statsText() const
{
    return m_model->tensor() ? m_stats->text() : QString();
}

QString TensorPanel::emptyText() const
{
    return m_model->tensor() ? QString() : m_empty->text();
}

QString TensorPanel::sliceText() const
{
    const auto& tensor = m_model->tensor();
    if (!tensor)
        return {};
    QStringList parts;
    for (int d = 0; d < static_cast<int>(tensor->shape().size()); ++d)
        parts << (d == m_model->rowDimension() || d == m_model->columnDimension()
                      ? QStringLiteral(":")
                      : QString::number(m_model->fixedIndices()[static_cast<std::size_t>(d)]));
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

void TensorPanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    // A newer snapshot of the same logdir keeps the tensor: records never change.
    const bool same = snapshot && m_snapshot && items::sameLogdir(snapshot, m_snapshot);
    m_snapshot = snapshot;
    if (!same) {
        m_job->cancel();
        m_requested = {};
        m_shown = {};
        m_model->setTensor(nullptr);
        focusChanged(navigator()->focus());
    }
}

void TensorPanel::focusChanged(const Focus& focus)
{
    if (!focus.event || !m_snapshot) {
        m_job->cancel();
        m_requested = {};
        m_shown = {};
        m_model->setTensor(nullptr);
        updateHeader({}, nullptr);
        showEmpty(tr("Double-click an alert, or click a trace or an execution, to see the values "
                     "of its tensor."));
        return;
    }
    if (focus.event == m_requested.event)
        return; // the same event: keep the output the user picked
    request({focus.event, core::firstNonFiniteSlot(*m_snapshot, *focus.event)});
}

void TensorPanel::showOutput(std::uint32_t output)
{
    if (m_requested.event && m_requested.event->source == core::EventSource::Eager &&
        output != m_requested.output)
        request({m_requested.event, output});
}

QString TensorPanel::noValuesReason(core::EventRef event) const
{
    const bool graph = event.source == core::EventSource::Graph;
    if (event.index >= (graph ? m_snapshot->traceCount() : m_snapshot->executionCount()))
        return tr("%1 is not in the logdir.").arg(eventName(event));
    const core::DebugMode mode =
        graph ? m_snapshot->trace(event.index).mode : m_snapshot->execution(event.index).mode;
    if (mode != core::DebugMode::FullTensor)
        return tr("%1 was recorded in %2 mode: the logdir holds a summary of its tensor, not its "
                  "values. Record in FULL_TENSOR mode to see them here.")
            .arg(eventName(event), fromStd(std::string(core::toString(mode))));
    if (!graph && m_snapshot->execution(event.index).numTensorValues == 0)
        return tr("%1 recorded no output tensors.").arg(eventName(event));
    return {};
}

void TensorPanel::request(const Shown& shown)
{
    m_requested = shown;
    const QString reason = noValuesReason(*shown.event);
    if (!reason.isEmpty()) {
        m_job->cancel();
        m_shown = shown;
        m_model->setTensor(nullptr);
        updateHeader(shown, nullptr);
        showEmpty(reason);
        Q_EMIT tensorShown();
        return;
    }
    // The table keeps the previous tensor, greyed, until this one is read: walking through
    // traces with the keyboard does not flash an empty pane at each step.
    if (m_model->tensor()) {
        m_view->setEnabled(false);
        m_status->setText(tr("Reading…"));
    } else {
        showEmpty(tr("Reading the tensor…"));
    }
    updateHeader(shown, nullptr);
    m_job->request(
        m_snapshot, [shown](const core::Snapshot& snapshot, const std::atomic_bool& stop) {
            ReadOutcome outcome{.shown = shown};
            auto read = core::readTensorData(snapshot, *shown.event, shown.output, &stop);
            if (read)
                outcome.tensor = std::make_shared<const core::TensorData>(std::move(*read.value));
            else
                outcome.error = std::move(read.error);
            return outcome;
        });
}

void TensorPanel::deliver(const ReadOutcome& outcome)
{
    if (!(outcome.shown == m_requested))
        return;
    m_shown = outcome.shown;
    m_view->setEnabled(true);
    m_status->clear();
    m_model->setTensor(nullptr);
    if (outcome.tensor)
        setColumnWidthFor(*outcome.tensor);
    m_model->setTensor(outcome.tensor);
    updateHeader(m_shown, outcome.tensor.get());
    if (!outcome.tensor) {
        showEmpty(tr("The values cannot be shown: %1").arg(fromStd(outcome.error)));
        Q_EMIT tensorShown();
        return;
    }
    m_empty->hide();
    m_stats->show();
    m_tools->show();
    m_view->show();
    rebuildSliceControls();
    updateStats();
    updateOutputs();
    if (!goToFirstNonFinite())
        m_view->scrollToTop();
    Q_EMIT tensorShown();
}

void TensorPanel::showEmpty(const QString& why)
{
    m_view->setEnabled(true);
    m_status->clear();
    m_empty->setText(why);
    m_empty->show();
    m_stats->hide();
    m_tools->hide();
    m_view->hide();
}

void TensorPanel::updateHeader(const Shown& shown, const core::TensorData* tensor)
{
    QString text;
    if (shown.event && m_snapshot) {
        const core::EventRef event = *shown.event;
        text = eventName(event);
        if (event.source == core::EventSource::Graph && event.index < m_snapshot->traceCount()) {
            const core::TraceDigest trace = m_snapshot->trace(event.index);
            if (trace.op < m_snapshot->graphs().ops().size()) {
                const core::OpInfo& op = m_snapshot->graphs().op(trace.op);
                text += QStringLiteral(": ") + fromStd(op.name) + QLatin1Char(':') +
                        QString::number(trace.outputSlot) + QStringLiteral(" (") +
                        fromStd(op.type) + QLatin1Char(')');
            }
        } else if (event.index < m_snapshot->executionCount()) {
            text += QStringLiteral(": ") +
                    fromStd(std::string(m_snapshot->execution(event.index).opType)) +
                    tr(", output %1").arg(shown.output);
        }
        if (tensor)
            text += QStringLiteral(" — ") + items::dtypeText(tensor->dtype()) + QLatin1Char(' ') +
                    shapeText(tensor->shape());
    }
    m_header->setText(text);
    m_header->setVisible(!text.isEmpty());
}

void TensorPanel::updateStats()
{
    const auto& tensor = m_model->tensor();
    if (!tensor)
        return;
    const core::TensorStats& s = tensor->stats();
    QString text = (tensor->elementCount() == 1
                        ? tr("1 element")
                        : tr("%L1 elements").arg(static_cast<qulonglong>(tensor->elementCount()))) +
                   tr(" · %L1 NaN · %L2 −∞ · %L3 +∞ · %L4 zero")
                       .arg(static_cast<qulonglong>(s.nan))
                       .arg(static_cast<qulonglong>(s.negativeInfinity))
                       .arg(static_cast<qulonglong>(s.positiveInfinity))
                       .arg(static_cast<qulonglong>(s.zero));
    QString exact;
    if (s.finite > 0) {
        text += (tensor->isIntegral() ? tr(" · min %1, max %2, mean %3")
                                      : tr(" · finite: min %1, max %2, mean %3"))
                    .arg(number(s.min), number(s.max), number(s.mean));
        exact = tr("Over the %L1 finite values: min %2, max %3, mean %4")
                    .arg(static_cast<qulonglong>(s.finite))
                    .arg(s.min, 0, 'g', 17)
                    .arg(s.max, 0, 'g', 17)
                    .arg(s.mean, 0, 'g', 17);
    }
    m_stats->setToolTip(exact);
    m_stats->setText(text);
    m_firstNonFinite->setEnabled(s.firstNonFinite.has_value());
}

void TensorPanel::updateOutputs()
{
    const bool execution =
        m_shown.event && m_shown.event->source == core::EventSource::Eager && m_snapshot;
    const std::vector<core::HealthDigest> health =
        execution ? m_snapshot->executionOutputHealth(m_shown.event->index)
                  : std::vector<core::HealthDigest>();
    m_updatingControls = true;
    m_outputs->clear();
    for (std::size_t slot = 0; slot < health.size(); ++slot) {
        const QString kinds = items::nonFiniteKinds(health[slot]);
        m_outputs->addItem(kinds.isEmpty() ? tr("Output %1").arg(slot)
                                           : tr("Output %1 (%2)").arg(slot).arg(kinds));
    }
    m_outputs->setCurrentIndex(static_cast<int>(m_shown.output));
    m_outputs->setVisible(health.size() > 1);
    m_updatingControls = false;
}

bool TensorPanel::goToFirstNonFinite()
{
    const auto& tensor = m_model->tensor();
    if (!tensor || !tensor->stats().firstNonFinite)
        return false;
    const QModelIndex cell = m_model->revealElement(*tensor->stats().firstNonFinite);
    updateSliceControls();
    if (!cell.isValid())
        return false;
    m_view->centerOn(cell);
    return true;
}

void TensorPanel::copySelection()
{
    m_view->copy();
}

void TensorPanel::exportNpy()
{
    const auto& tensor = m_model->tensor();
    if (!tensor || m_exporter->isRunning() || !m_snapshot || !m_shown.event)
        return;
    const QString name = suggestedFileName(*m_snapshot, *m_shown.event);
    const QString path =
        QFileDialog::getSaveFileName(this, TensorExport::caption(tensor->dtype()),
                                     QDir::home().filePath(name), tr("NumPy arrays (*.npy)"));
    if (!path.isEmpty())
        exportNpyTo(path);
}

bool TensorPanel::exportNpyTo(const QString& path)
{
    if (!m_exporter->start(m_model->tensor(), path))
        return false;
    m_status->setText(tr("Writing %1…").arg(QFileInfo(path).fileName()));
    return true;
}

} // namespace nanscope::views
