// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the panels share. Text from the core becomes a QString with items::fromStd, and
// labels for it come from widgets::plainLabel.
#pragma once

#include <QToolButton>

namespace nanscope::views {

// A flat tool button for a panel's header row.
inline QToolButton* toolButton(const QString& text, const QString& toolTip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    return button;
}

} // namespace nanscope::views
