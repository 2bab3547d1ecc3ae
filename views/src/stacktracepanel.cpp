// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/stacktracepanel.hpp"

#include "nanscope/core/stackfolding.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/stacktracemodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/plainlabel.hpp"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QVBoxLayout>

namespace nanscope::views {

using items::fromStd;

namespace {

using Model = items::StackTraceModel;

// Hides framework frames while folding is on, except the stack's focus frame: a stack made only
// of framework code still shows the frame the other panels show.
class FoldingProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setFolded(bool folded)
    {
        m_folded = folded;
        invalidateFilter();
    }
    bool folded() const { return m_folded; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QModelIndex index = sourceModel()->index(row, 0, parent);
        return !m_folded || !index.data(Model::FrameworkRole).toBool() ||
               index.data(Model::FocusFrameRole).toBool();
    }

private:
    bool m_folded = true;
};

} // namespace

StackTracePanel::StackTracePanel(Navigator* navigator, QWidget* parent) : Panel(navigator, parent)
{
    setWindowTitle(tr("Stack Trace"));
    m_model = new Model(this);
    m_proxy = new FoldingProxy(this);
    m_proxy->setSourceModel(m_model);

    m_header = new widgets::ElidedLabel(this);
    m_header->setElideMode(Qt::ElideRight);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);
    QHBoxLayout* tools = buildTools();
    buildTable();
    m_placeholder =
        widgets::plainLabel(tr("Double-click an alert, or click a trace or an execution, to "
                               "see the stack that created it."),
                            this);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_header);
    layout->addLayout(tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_placeholder, 1);

    m_patterns = defaultFrameworkPatterns();
    updateHeader({});
    updateFoldButton();
    updateSticky();
}

StackTracePanel::~StackTracePanel() = default;

// The framework toggle and its patterns on the left, the sticky file and Unstick on the right.
QHBoxLayout* StackTracePanel::buildTools()
{
    m_fold = new QToolButton(this);
    m_fold->setCheckable(true);
    m_fold->setAutoRaise(true);
    m_fold->setToolTip(tr("Show the frames of TensorFlow, Python's libraries, system headers "
                          "and NaNscope's recorder"));
    m_patternsButton = new QToolButton(this);
    m_patternsButton->setText(tr("Patterns…"));
    m_patternsButton->setAutoRaise(true);
    m_patternsButton->setToolTip(tr("Which file paths count as framework code"));
    m_sticky = widgets::plainLabel({}, this);
    m_sticky->setToolTip(tr("Sticky frame: as you move through ops and executions, the stack "
                            "trace keeps showing the bottom-most frame of this file. Click a "
                            "frame that is not the bottom-most of its file to stop."));
    m_unstick = new QToolButton(this);
    m_unstick->setText(tr("Unstick"));
    m_unstick->setAutoRaise(true);
    connect(m_fold, &QToolButton::toggled, this, [this](bool shown) {
        static_cast<FoldingProxy*>(m_proxy)->setFolded(!shown);
        updateFoldButton();
        selectFocusedFrame();
    });
    connect(m_patternsButton, &QToolButton::clicked, this, &StackTracePanel::editFrameworkPatterns);
    connect(m_unstick, &QToolButton::clicked, this, [this] {
        this->navigator()->setStickyFile({});
        updateSticky();
    });

    auto* tools = new QHBoxLayout;
    tools->setSpacing(4);
    tools->addWidget(m_fold);
    tools->addWidget(m_patternsButton);
    tools->addStretch();
    tools->addWidget(m_sticky);
    tools->addWidget(m_unstick);
    return tools;
}

// The frames: file, line and function; a click or Enter on one focuses it.
void StackTracePanel::buildTable()
{
    m_view = new widgets::CopyableTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setTextElideMode(Qt::ElideMiddle);
    QHeaderView* header = m_view->horizontalHeader();
    header->setStretchLastSection(true);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(Model::FileColumn, digit * 22);
    m_view->setColumnWidth(Model::LineColumn, digit * 6 + 8);
    connect(m_view, &QAbstractItemView::clicked, this,
            [this](const QModelIndex& index) { activateFrame(m_proxy->mapToSource(index).row()); });
    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex& index) { activateFrame(m_proxy->mapToSource(index).row()); });
}

widgets::CopyableTableView* StackTracePanel::view() const
{
    return m_view;
}

QStringList StackTracePanel::defaultFrameworkPatterns()
{
    QStringList patterns;
    for (const std::string& p : core::StackFolding::defaultPatterns())
        patterns << fromStd(p);
    return patterns;
}

void StackTracePanel::setFrameworkPatterns(const QStringList& patterns)
{
    m_patterns = patterns.isEmpty() ? defaultFrameworkPatterns() : patterns;
    std::vector<std::string> list;
    for (const QString& p : std::as_const(m_patterns))
        list.push_back(p.toStdString());
    navigator()->setFrameworkPatterns(std::move(list));
    m_model->setFrameworkPatterns(m_patterns);
    updateFoldButton();
    selectFocusedFrame();
}

void StackTracePanel::editFrameworkPatterns()
{
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        this, tr("Framework Frames"),
        tr("One path fragment per line. The last fragment that a frame's file path contains "
           "decides: framework code, or the user's own code when the line starts with '!'. "
           "The script the program started from is always the user's. Framework frames are "
           "folded and never chosen as the user's frame."),
        m_patterns.join(QLatin1Char('\n')), &ok);
    if (!ok)
        return;
    QStringList patterns;
    for (const QString& line : text.split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            patterns << line.trimmed();
    setFrameworkPatterns(patterns);
    Q_EMIT frameworkPatternsEdited(m_patterns);
}

void StackTracePanel::setFrameworkFramesShown(bool shown)
{
    m_fold->setChecked(shown);
}

bool StackTracePanel::frameworkFramesShown() const
{
    return m_fold->isChecked();
}

void StackTracePanel::updateFoldButton()
{
    int framework = 0;
    for (int row = 0; row < m_model->rowCount(); ++row)
        framework += m_model->index(row, 0).data(Model::FrameworkRole).toBool() ? 1 : 0;
    m_fold->setText(m_fold->isChecked() ? tr("Hide framework frames (%1)").arg(framework)
                                        : tr("Show framework frames (%1)").arg(framework));
    m_fold->setEnabled(framework > 0 || m_fold->isChecked());
}

void StackTracePanel::updateSticky()
{
    const std::string& file = navigator()->stickyFile();
    const QString name = QFileInfo(fromStd(file)).fileName();
    m_sticky->setText(file.empty() ? QString() : tr("⤓ Sticking to %1").arg(name));
    m_sticky->setVisible(!file.empty());
    m_unstick->setVisible(!file.empty());
}

void StackTracePanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    m_model->setSnapshot(snapshot);
    if (!snapshot) {
        m_frameIds.clear();
        m_model->setFrameIds({});
        navigator()->setStickyFile({});
        updateSticky();
    }
    updateFoldButton();
    selectFocusedFrame(); // the model was reset
}

void StackTracePanel::updateHeader(const Focus& focus)
{
    const items::SnapshotPtr& snapshot = navigator()->snapshot();
    QString text;
    if (snapshot && focus.event && focus.event->source == core::EventSource::Eager &&
        focus.event->index < snapshot->executionCount()) {
        text = tr("Eager execution #%L1: %2")
                   .arg(focus.event->index)
                   .arg(fromStd(snapshot->execution(focus.event->index).opType));
    } else if (snapshot && focus.op != core::kNoOp && focus.op < snapshot->graphs().ops().size()) {
        const core::OpInfo& op = snapshot->graphs().op(focus.op);
        text = tr("Creation of graph op “%1” (%2)").arg(fromStd(op.name), fromStd(op.type));
        if (!op.hostName.empty())
            text += tr(" on %1").arg(fromStd(op.hostName));
    }
    m_header->setText(text);
    m_header->setVisible(!text.isEmpty());
    const bool empty = focus.stackFrameIds.empty();
    m_placeholder->setText(text.isEmpty() ? tr("Double-click an alert, or click a trace or an "
                                               "execution, to see the stack that created it.")
                                          : tr("No stack was recorded for this event."));
    m_placeholder->setVisible(empty);
    m_view->setVisible(!empty);
}

void StackTracePanel::focusChanged(const Focus& focus)
{
    if (focus.stackFrameIds != m_frameIds) {
        m_frameIds = focus.stackFrameIds;
        m_model->setFrameIds(m_frameIds);
        updateFoldButton();
    }
    updateHeader(focus);
    updateSticky();
    selectFocusedFrame();
}

int StackTracePanel::focusedFrameRow() const
{
    const auto& frame = navigator()->focus().frame;
    return frame && static_cast<int>(*frame) < m_model->rowCount() ? static_cast<int>(*frame) : -1;
}

QString StackTracePanel::headerText() const
{
    return m_header->text();
}

void StackTracePanel::selectFocusedFrame()
{
    const int row = focusedFrameRow();
    QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    m_applyingFocus = true;
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
    } else {
        m_view->clearSelection();
        // Debugger V2 shows the innermost frames when none is focused.
        m_view->scrollToBottom();
    }
    m_applyingFocus = false;
}

void StackTracePanel::activateFrame(int modelRow)
{
    if (m_applyingFocus || modelRow < 0 || modelRow >= m_model->rowCount())
        return;
    const QString path = m_model->index(modelRow, 0).data(Model::FilePathRole).toString();
    bool bottomMost = !path.isEmpty();
    for (int row = modelRow + 1; bottomMost && row < m_model->rowCount(); ++row)
        bottomMost = m_model->index(row, 0).data(Model::FilePathRole).toString() != path;
    navigator()->setStickyFile(bottomMost ? path.toStdString() : std::string());
    navigator()->focusFrame(static_cast<std::size_t>(modelRow));
    updateSticky();
}

} // namespace nanscope::views
