// SPDX-License-Identifier: GPL-3.0-or-later
// Graph Structure's tool bar: the two modes, the caption that names the focused op and its
// graph, zoom and Find; and where the caption goes, beside the buttons or on a row of its own, as
// the pane's width changes.
#include "graphstructureview.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "viewhelpers.hpp"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QToolButton>
#include <algorithm>

namespace nanscope::views {

// Neighbourhood and Whole graph, one of them checked: the mode shown.
void GraphStructurePanel::buildModeButtons()
{
    m_neighbourhoodButton =
        toolButton(QStringLiteral("Neighbourhood"),
                   QStringLiteral("The focused op, its inputs and consumers"), this);
    m_wholeGraphButton = toolButton(
        QStringLiteral("Whole graph"),
        QStringLiteral("Every op of the focused op's graph, laid out by Graphviz"), this);
    for (QToolButton* button : {m_neighbourhoodButton, m_wholeGraphButton})
        button->setCheckable(true);
    m_neighbourhoodButton->setChecked(true);
    auto* modes = new QButtonGroup(this);
    modes->addButton(m_neighbourhoodButton);
    modes->addButton(m_wholeGraphButton);
    connect(m_neighbourhoodButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::Neighbourhood);
    });
    connect(m_wholeGraphButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::WholeGraph);
    });
}

// The modes on the left, the caption in the middle, zoom and Find on the right; m_captionRow
// stays empty until the caption needs it.
void GraphStructurePanel::buildToolBar()
{
    buildModeButtons();
    // Elided, not clipped: a narrow pane shows the op and the end of the graph's name.
    m_caption = new widgets::ElidedLabel(this);
    auto* zoomOut = toolButton(QStringLiteral("−"), QStringLiteral("Zoom out (-)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), QStringLiteral("Zoom in (+)"), this);
    auto* fit = toolButton(QStringLiteral("Fit"), QStringLiteral("Show everything (0)"), this);
    auto* find =
        toolButton(QStringLiteral("Find"),
                   QStringLiteral("Find an op of this graph by name or type (Ctrl+F)"), this);
    connect(find, &QToolButton::clicked, this, &GraphStructurePanel::activateFind);
    connect(zoomOut, &QToolButton::clicked, m_view, &GraphStructureView::zoomOut);
    connect(zoomIn, &QToolButton::clicked, m_view, &GraphStructureView::zoomIn);
    connect(fit, &QToolButton::clicked, m_view, &GraphStructureView::fitAll);

    m_bar = new QHBoxLayout;
    m_bar->setContentsMargins(4, 2, 4, 2);
    m_bar->setSpacing(2);
    m_bar->addWidget(m_neighbourhoodButton);
    m_bar->addWidget(m_wholeGraphButton);
    m_bar->addSpacing(8);
    m_captionSlot = new QHBoxLayout;
    m_captionSlot->setContentsMargins(0, 0, 0, 0);
    m_captionSlot->addWidget(m_caption, 1);
    m_captionSlot->addStretch(); // keeps the buttons right-aligned when the caption moves out
    m_bar->addLayout(m_captionSlot, 1);
    m_bar->addWidget(zoomOut);
    m_bar->addWidget(zoomIn);
    m_bar->addWidget(fit);
    m_bar->addSpacing(8);
    m_bar->addWidget(find);
    m_captionRow = new QHBoxLayout;
    m_captionRow->setContentsMargins(6, 0, 6, 2);
}

void GraphStructurePanel::resizeEvent(QResizeEvent* event)
{
    Panel::resizeEvent(event);
    placeCaption();
}

void GraphStructurePanel::setCaption(const QString& text)
{
    m_caption->setText(text);
    placeCaption(); // its room depends on its length
}

void GraphStructurePanel::placeCaption()
{
    // Beside the buttons when it fits there whole (or, if long, when forty characters fit);
    // otherwise on a row of its own: a docked pane at 1280 px left it a few pixels, cut
    // mid-letter, and at 1920 px a long graph name lost its middle.
    int buttons = 0;
    for (int i = 0; i < m_bar->count(); ++i)
        if (m_bar->itemAt(i)->layout() != m_captionSlot)
            buttons += m_bar->itemAt(i)->sizeHint().width() + m_bar->spacing();
    const QMargins margins = m_bar->contentsMargins();
    const int room = width() - buttons - margins.left() - margins.right();
    const int wanted = std::min(fontMetrics().horizontalAdvance(m_caption->text()),
                                fontMetrics().averageCharWidth() * 40);
    const bool ownRow = room < wanted;
    if (ownRow == m_captionOnItsOwnRow)
        return;
    m_captionOnItsOwnRow = ownRow;
    if (ownRow) {
        m_captionSlot->removeWidget(m_caption);
        m_captionRow->addWidget(m_caption);
    } else {
        m_captionRow->removeWidget(m_caption);
        m_captionSlot->insertWidget(0, m_caption, 1);
    }
}

} // namespace nanscope::views
