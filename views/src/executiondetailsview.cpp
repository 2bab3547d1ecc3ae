// SPDX-License-Identifier: GPL-3.0-or-later
#include "executiondetailsview.hpp"

#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintooltip.hpp"

#include <QBoxLayout>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace nanscope::views {
namespace {

enum Column { SlotColumn, SummaryColumn, TypeColumn, TensorColumn, DeviceColumn, ColumnCount };

} // namespace

ExecutionDetailsView::ExecutionDetailsView(QWidget* parent) : QWidget(parent)
{
    m_message = widgets::selectableLabel({}, this);
    // From the top: in a short pane (which scrolls) the message's first lines show, not the
    // blank above a centred text.
    m_message->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    constexpr int kMessageMargin = 6;
    m_message->setMargin(kMessageMargin);
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    QWidget* page = buildPage();

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_message);
    m_stack->addWidget(page);
    // A short pane scrolls the details rather than claiming their height from the column:
    // Graph Structure, under the timeline, needs its room too.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_stack);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Three lines of a message, its margins included, show without scrolling.
    const int line = fontMetrics().height();
    scroll->setMinimumHeight(3 * line + 2 * kMessageMargin);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

// The title over the facts and the outputs, which m_columns puts side by side or stacks.
QWidget* ExecutionDetailsView::buildPage()
{
    auto* page = new QWidget(this);
    m_title = widgets::selectableLabel({}, page);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    QScrollArea* facts = buildFacts(page);
    buildOutputs(page);

    m_columns = new QBoxLayout(QBoxLayout::LeftToRight);
    m_columns->setContentsMargins(0, 0, 0, 0);
    m_columns->addWidget(facts, 2);
    m_columns->addWidget(m_outputs, 3);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(6, 4, 6, 4);
    pageLayout->setSpacing(4);
    pageLayout->addWidget(m_title);
    pageLayout->addLayout(m_columns, 1);
    return page;
}

// The facts as "name: value" rows in m_form, scrolled when they outgrow their room.
QScrollArea* ExecutionDetailsView::buildFacts(QWidget* page)
{
    auto* facts = new QWidget(page);
    m_form = new QFormLayout(facts);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setHorizontalSpacing(10);
    m_form->setVerticalSpacing(2);
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* factsScroll = new QScrollArea(page);
    factsScroll->setWidget(facts);
    factsScroll->setWidgetResizable(true);
    factsScroll->setFrameShape(QFrame::NoFrame);
    return factsScroll;
}

// One row per output slot, its health as a bar.
void ExecutionDetailsView::buildOutputs(QWidget* page)
{
    m_outputs = new QTreeWidget(page);
    m_outputs->setColumnCount(ColumnCount);
    m_outputs->setHeaderLabels({QStringLiteral("Output"), QStringLiteral("Health"),
                                QStringLiteral("Type"), QStringLiteral("Tensor id"),
                                QStringLiteral("Device")});
    m_outputs->setRootIsDecorated(false);
    m_outputs->setUniformRowHeights(true);
    m_outputs->setAllColumnsShowFocus(true);
    m_outputs->setItemDelegateForColumn(SummaryColumn, new widgets::SegmentBarDelegate(m_outputs));
    m_outputs->header()->setStretchLastSection(true);
    m_outputs->header()->setSectionResizeMode(QHeaderView::Interactive);
}

bool ExecutionDetailsView::sideBySide() const
{
    return m_columns->direction() == QBoxLayout::LeftToRight;
}

void ExecutionDetailsView::resizeEvent(QResizeEvent* event)
{
    // Facts and outputs each need about 360 px to be read without scrolling sideways.
    constexpr int kSideBySideWidth = 760;
    m_columns->setDirection(width() >= kSideBySideWidth ? QBoxLayout::LeftToRight
                                                        : QBoxLayout::TopToBottom);
    QWidget::resizeEvent(event);
}

void ExecutionDetailsView::showMessage(const QString& message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
    m_text.clear();
}

void ExecutionDetailsView::showDescription(const ExecutionDescription& description)
{
    m_title->setText(description.title);
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    for (const auto& [name, value] : description.fields) {
        auto* field = widgets::selectableLabel(value, m_form->parentWidget());
        field->setWordWrap(true);
        auto* label = widgets::selectableLabel(name + u':', m_form->parentWidget());
        label->setForegroundRole(QPalette::PlaceholderText);
        m_form->addRow(label, field);
    }
    m_outputs->clear();
    QList<QTreeWidgetItem*> rows;
    for (const ExecutionDescription::Output& output : description.outputs) {
        auto* row = new QTreeWidgetItem;
        row->setText(SlotColumn, QString::number(output.slot));
        row->setText(SummaryColumn, output.summary);
        const widgets::BarSegments segments = healthSegments(output.health);
        if (!segments.isEmpty())
            row->setData(SummaryColumn, widgets::SegmentBarDelegate::SegmentsRole,
                         QVariant::fromValue(segments));
        row->setToolTip(SummaryColumn, widgets::plainToolTip(output.summary));
        QString type = output.type;
        if (!output.values.isEmpty())
            type += QStringLiteral("; values ") + output.values;
        row->setText(TypeColumn, type);
        row->setToolTip(TypeColumn, widgets::plainToolTip(type));
        row->setText(TensorColumn, output.tensorId);
        row->setText(DeviceColumn, output.device);
        row->setToolTip(DeviceColumn, widgets::plainToolTip(output.device));
        rows << row;
    }
    m_outputs->addTopLevelItems(rows);
    for (int column = 0; column < ColumnCount - 1; ++column)
        m_outputs->resizeColumnToContents(column);
    m_stack->setCurrentIndex(1);
    m_text = description.toText();
}

} // namespace nanscope::views
