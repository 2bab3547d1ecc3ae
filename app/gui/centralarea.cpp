// SPDX-License-Identifier: GPL-3.0-or-later
#include "centralarea.hpp"

#include "appicon.hpp"
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/startpage.hpp"

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

} // namespace nanscope::app
