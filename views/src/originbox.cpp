// SPDX-License-Identifier: GPL-3.0-or-later
#include "originbox.hpp"

#include "healthstyle.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/plainlabel.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <map>
#include <tuple>

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

// "−∞", "−∞ and NaN": the kinds of nonfinite bits, as the badges name them.
QString kindsText(std::uint8_t kinds)
{
    QStringList words;
    if (kinds & core::nonfinite::NegInf)
        words << QStringLiteral("−∞");
    if (kinds & core::nonfinite::PosInf)
        words << QStringLiteral("+∞");
    if (kinds & core::nonfinite::NaN)
        words << QStringLiteral("NaN");
    if (words.isEmpty())
        return OriginBox::tr("NaN or ∞"); // the record's mode tells no kind
    return words.join(OriginBox::tr(" and "));
}

} // namespace

std::vector<OriginBox::SetAsideLine>
OriginBox::setAsideLines(const std::vector<core::SetAside>& groups)
{
    using Key = std::tuple<core::Intent, std::string, std::string, std::string, std::uint8_t,
                           std::vector<std::string>>;
    std::map<Key, std::size_t> lineOf;
    std::vector<SetAsideLine> lines;
    for (const core::SetAside& g : groups) {
        const auto [it, added] = lineOf.try_emplace(
            Key{g.intent, g.opType, g.opName, g.pattern, g.kinds, g.absorbedBy}, lines.size());
        if (added) {
            lines.push_back({g, g.modulePath.empty() ? 0u : 1u});
            continue;
        }
        SetAsideLine& line = lines[it->second];
        line.group.producers += g.producers;
        line.group.carriers += g.carriers;
        line.modules += g.modulePath.empty() ? 0 : 1;
    }
    return lines;
}

QString OriginBox::setAsideText(const SetAsideLine& line)
{
    const core::SetAside& g = line.group;
    QString why;
    switch (g.intent) {
    case core::Intent::Expected:
        why = tr("Set aside as expected (%1)").arg(fromStd(g.pattern));
        break;
    case core::Intent::Uninitialised:
        why = tr("Set aside as uninitialised memory");
        break;
    case core::Intent::LossScaled:
        why = tr("Set aside as loss scaling's overflow (the scaler skips such steps)");
        break;
    default:
        why = tr("Set aside as intended");
        break;
    }
    QString op = g.opName.empty() ? fromStd(g.opType)
                                  : tr("%1 (%2)").arg(fromStd(g.opName), fromStd(g.opType));
    if (!g.modulePath.empty())
        op +=
            line.modules > 1
                ? tr(" (%1 and %L2 more modules)").arg(fromStd(g.modulePath)).arg(line.modules - 1)
                : QStringLiteral(" (") + fromStd(g.modulePath) + QLatin1Char(')');
    QString text = g.intent == core::Intent::Uninitialised
                       ? tr("%1: %2").arg(why, op)
                       : tr("%1: %2 from %3").arg(why, kindsText(g.kinds), op);
    if (g.producers > 1)
        text += tr(", %L1×").arg(g.producers);
    if (g.carriers > 0)
        text += tr(", carried on by %L1").arg(g.carriers);
    if (!g.absorbedBy.empty()) {
        QStringList readers;
        for (const std::string& type : g.absorbedBy)
            readers << fromStd(type);
        text += tr(", absorbed by %1").arg(readers.join(QStringLiteral(", ")));
    }
    return text;
}

OriginBox::OriginBox(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("originBox"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_window = palette().color(QPalette::Window);
    tint(healthstyle::nan());
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
    // The groups' lines and "and N more".
    for (std::size_t k = 0; k <= kSetAsideLines; ++k) {
        auto* line = new widgets::ElidedLabel(this);
        line->setElideMode(Qt::ElideRight);
        line->setForegroundRole(QPalette::PlaceholderText);
        line->hide();
        m_setAside.push_back(line);
    }
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
    for (widgets::ElidedLabel* line : m_setAside)
        layout->addWidget(line);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_goToOrigin);
    buttonRow->addStretch();
    layout->addLayout(buttonRow);
}

void OriginBox::showOrigin(const core::Origin& o, const std::optional<core::Alert>& firstAlert,
                           const QString& firstAlertOp, bool firstAlertSetAside)
{
    tint(healthstyle::nan());
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
    m_where->show();
    m_goToOrigin->show();
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
    // A set-aside alert may come before the origin (an attention mask); any other comes after.
    const QString tensorBoard = firstAlertSetAside
                                    ? tr("TensorBoard's first alert is %1 (%2), whose values were "
                                         "set aside as intended")
                                    : tr("TensorBoard's first alert is a later op: %1 (%2)");
    m_tensorBoard->setText(differs ? tensorBoard.arg(firstAlertOp, eventText(firstAlert->event))
                                   : QString());
    m_tensorBoard->setVisible(differs);
}

// The window's colour with a little of `accent`: the origin's NaN red, or the finite colour
// when every non-finite value was set aside (good news should not look like an alarm).
void OriginBox::tint(const QColor& accent)
{
    QPalette boxPalette = palette();
    boxPalette.setColor(QPalette::Window,
                        QColor::fromRgbF(m_window.redF() * 0.88f + accent.redF() * 0.12f,
                                         m_window.greenF() * 0.88f + accent.greenF() * 0.12f,
                                         m_window.blueF() * 0.88f + accent.blueF() * 0.12f));
    setPalette(boxPalette);
}

void OriginBox::showNoUnintended(std::uint64_t setAsideEvents)
{
    tint(healthstyle::positive());
    m_title->setText(
        tr("No unintended NaN or ∞: %L1 tensors were set aside as intended").arg(setAsideEvents));
    for (QLabel* label : {m_where, m_cause, m_fix, m_inputs, m_tensorBoard}) {
        label->clear();
        label->hide();
    }
    m_goToOrigin->hide();
}

void OriginBox::showSetAside(const std::vector<SetAsideLine>& lines)
{
    for (std::size_t k = 0; k < m_setAside.size(); ++k) {
        QString text;
        if (k < kSetAsideLines && k < lines.size())
            text = setAsideText(lines[k]);
        else if (k == kSetAsideLines && lines.size() > kSetAsideLines)
            text = tr("and %L1 more").arg(lines.size() - kSetAsideLines);
        m_setAside[k]->setText(text);
        m_setAside[k]->setVisible(!text.isEmpty());
    }
}

QString OriginBox::text() const
{
    QStringList lines{m_title->text()};
    for (QLabel* label : {m_where, m_cause, m_fix, m_inputs, m_tensorBoard})
        if (!label->text().isEmpty())
            lines << label->text();
    for (const widgets::ElidedLabel* line : m_setAside)
        if (!line->text().isEmpty())
            lines << line->text();
    return lines.join(QLatin1Char('\n'));
}

} // namespace nanscope::views
