// SPDX-License-Identifier: GPL-3.0-or-later
#include "centralarea.hpp"

#include "appicon.hpp"
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/startpage.hpp"
#include "nanscope/widgets/whenidle.hpp"

#include <QDockWidget>
#include <QImage>
#include <QLayout>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace nanscope::app {

CentralArea::CentralArea(QWidget* panels, QWidget* parent) : QWidget(parent), m_panels(panels)
{
    m_banner = new widgets::Banner(this);
    m_startPage = new widgets::StartPage(this);
    m_startPage->setLogo(appIcon());
    m_startPage->setTitle(tr("NaNscope"));
    m_startPage->setTagline(tr("Find the op that made the first NaN or ∞, and why."));
    m_startPage->setHint(
        tr("Drop a logdir folder here, or start NaNscope with one: nanscope LOGDIR\n\n"
           "TensorFlow writes a logdir with tf.debugging.experimental.enable_dump_debug_info("
           "logdir, tensor_debug_mode=\"FULL_HEALTH\", circular_buffer_size=-1); NaNscope's "
           "recorder writes the same files from C++."));
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_startPage);
    m_pages->addWidget(m_panels);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_pages, 1);
}

void CentralArea::showPanels(bool panels)
{
    m_pages->setCurrentWidget(panels ? m_panels : static_cast<QWidget*>(m_startPage));
}

bool CentralArea::isShowingStartPage() const
{
    return m_pages->currentWidget() == m_startPage;
}

bool CentralArea::panelsPrepared() const
{
    return m_preparing && m_unprepared.isEmpty();
}

void CentralArea::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!isShowingStartPage())
        return;
    if (!m_preparing) {
        m_preparing = true;
        for (QDockWidget* dock : m_panels->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
            m_unprepared.append(dock);
    }
    if (!m_unprepared.isEmpty()) // what a hidden window left, too
        scheduleNextDock();
}

// One step at a time: a window shown again while a step waits does not start a second chain.
void CentralArea::scheduleNextDock()
{
    if (m_stepPending)
        return;
    m_stepPending = true;
    widgets::whenIdle(this, [this] {
        m_stepPending = false;
        prepareNextDock();
    });
}

// The first showing of the panels polishes, lays out and shows some 240 widgets, and their first
// paint renders every glyph of their fonts: together more than a frame (16 ms), in the event that
// opens the logdir. While the start page waits for the user, each dock does that once off screen
// instead, one per idle moment (at most 5 ms each), so that the open then costs half.
void CentralArea::prepareNextDock()
{
    // Once the panels show, their first showing is done (and what is left of this too).
    if (!isShowingStartPage() || !isVisible() || m_unprepared.isEmpty())
        return;
    // The docks at the size the page will have.
    m_panels->resize(m_pages->size());
    if (QLayout* layout = m_panels->layout())
        layout->activate();
    const QPointer<QDockWidget> dock = m_unprepared.takeFirst();
    if (dock && !dock->isHidden() && !dock->size().isEmpty()) {
        // At the screen's scale, so that the glyphs cached are the ones the screen will use.
        const qreal scale = devicePixelRatioF();
        QImage image(dock->size() * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        dock->render(&image);
    }
    scheduleNextDock();
}

} // namespace nanscope::app
