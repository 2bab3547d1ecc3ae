// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the panels share. Text from the core becomes a QString with items::fromStd, and
// labels for it come from widgets::plainLabel.
#pragma once

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QToolButton>

namespace nanscope::views {

// A host filter's choices: "All hosts" (data -1), then each host of the logdir (data: its file
// set's index). Shown only when there are several hosts to tell apart. Returns their number.
inline std::size_t fillHostChoices(QComboBox* box, const items::SnapshotPtr& snapshot)
{
    box->clear();
    box->addItem(QCoreApplication::translate("HostFilter", "All hosts"), -1);
    const std::size_t hosts = snapshot ? snapshot->layout().fileSets.size() : 0;
    for (std::size_t h = 0; h < hosts; ++h)
        box->addItem(items::fromStd(snapshot->layout().fileSets[h].hostName), static_cast<int>(h));
    box->setVisible(hosts > 1);
    return hosts;
}

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
