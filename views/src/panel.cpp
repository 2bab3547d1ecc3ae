// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/panel.hpp"

namespace nanscope::views {

Panel::Panel(Navigator* navigator, QWidget* parent) : QWidget(parent), m_navigator(navigator)
{
    connect(navigator, &Navigator::snapshotChanged, this,
            [this](const items::SnapshotPtr& s) { snapshotChanged(s); });
    connect(navigator, &Navigator::focusChanged, this, [this](const Focus& f) { focusChanged(f); });
}

} // namespace nanscope::views
