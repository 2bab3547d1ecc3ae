// SPDX-License-Identifier: GPL-3.0-or-later
#include "originbox.hpp"

#include "healthstyle.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/plainlabel.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace nanscope::views {

using items::fromStd;

namespace {

// The box's lines: selectable, wrapped.
QLabel* originLabel(QWidget* parent)
{
    QLabel* label = widgets::selectableLabel({}, parent);
    label->setWordWrap(true);
    return label;
}

QString eventText(const core::EventRef& event)
{
    return event.source == core::EventSource::Graph
               ? OriginBox::tr("graph trace #%L1").arg(event.index)
               : OriginBox::tr("eager execution #%L1").arg(event.index);
}

} // namespace

OriginBox::OriginBox(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("originBox"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette boxPalette = palette();
    const QColor window = boxPalette.color(QPalette::Window);
    const QColor accent = healthstyle::nan();
    boxPalette.setColor(QPalette::Window,
                        QColor::fromRgbF(window.redF() * 0.88f + accent.redF() * 0.12f,
                                         window.greenF() * 0.88f + accent.greenF() * 0.12f,
                                         window.blueF() * 0.88f + accent.blueF() * 0.12f));
    setPalette(boxPalette);
    m_title = originLabel(this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    m_title->setFont(titleFont);
    m_where = originLabel(this);
    m_where->setForegroundRole(QPalette::PlaceholderText);
    m_cause = originLabel(this);
    m_fix = originLabel(this);
    m_inputs = originLabel(this);
    m_inputs->setForegroundRole(QPalette::PlaceholderText);
    m_tensorBoard = originLabel(this);
    m_tensorBoard->setForegroundRole(QPalette::PlaceholderText);
    m_goToOrigin = new QPushButton(tr("Go to Origin"), this);
    m_goToOrigin->setToolTip(tr("Focus the op that made the first NaN or ∞ from finite inputs"));
    connect(m_goToOrigin, &QPushButton::clicked, this, &OriginBox::goToOriginClicked);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(3);
    layout->addWidget(m_title);
    layout->addWidget(m_where);
    layout->addSpacing(2);
    layout->addWidget(m_cause);
    layout->addWidget(m_fix);
    layout->addWidget(m_inputs);
    layout->addWidget(m_tensorBoard);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_goToOrigin);
    buttonRow->addStretch();
    layout->addLayout(buttonRow);
}

void OriginBox::showOrigin(const core::Origin& o, const std::optional<core::Alert>& firstAlert,
                           const QString& firstAlertOp)
{
    const QString op = o.opName.empty() ? fromStd(o.opType) : fromStd(o.opName);
    const QString graph = fromStd(o.graphName.empty() ? o.graphId : o.graphName);
    m_title->setText(graph.isEmpty() ? tr("Origin: %1").arg(op)
                                     : tr("Origin: %1 in %2").arg(op, graph));
    QString where = eventText(o.event);
    if (!o.opName.empty() && !o.opType.empty())
        where += QStringLiteral(" · ") + fromStd(o.opType);
    if (o.health.known())
        where += QStringLiteral(" · ") + fromStd(o.health.describe());
    m_where->setText(where);
    m_cause->setText(fromStd(o.hint.cause));
    m_cause->setVisible(!o.hint.cause.empty());
    m_fix->setText(tr("Fix: %1").arg(fromStd(o.hint.fix)));
    m_fix->setVisible(!o.hint.fix.empty());
    QStringList inputs;
    for (const core::OriginInput& input : o.inputs)
        inputs << tr("Input %1: %2").arg(fromStd(input.name), fromStd(input.healthText));
    m_inputs->setText(inputs.join(QLatin1Char('\n')));
    m_inputs->setVisible(!inputs.isEmpty());
    // TensorBoard blames its first alert; say so when that is not the root cause.
    const bool differs = firstAlert && !(firstAlert->event == o.event);
    m_tensorBoard->setText(differs ? tr("TensorBoard's first alert is a later op: %1 (%2)")
                                         .arg(firstAlertOp, eventText(firstAlert->event))
                                   : QString());
    m_tensorBoard->setVisible(differs);
}

QString OriginBox::text() const
{
    QStringList lines{m_title->text(), m_where->text()};
    for (QLabel* label : {m_cause, m_fix, m_inputs, m_tensorBoard})
        if (!label->text().isEmpty())
            lines << label->text();
    return lines.join(QLatin1Char('\n'));
}

} // namespace nanscope::views
