// SPDX-License-Identifier: GPL-3.0-or-later
// The one interface every panel implements: it is told when a logdir is loaded or closed and
// when the focus moves, and it moves the focus only through the Navigator.
#pragma once

#include "nanscope/views/navigator.hpp"

#include <QWidget>

namespace nanscope::views {

class Panel : public QWidget
{
    Q_OBJECT

public:
    Panel(Navigator* navigator, QWidget* parent = nullptr);

    Navigator* navigator() const { return m_navigator; }

protected:
    // A new snapshot (null: the logdir was closed). Called for every snapshot while following.
    virtual void snapshotChanged(const items::SnapshotPtr& snapshot) = 0;
    virtual void focusChanged(const Focus& focus) = 0;

private:
    Navigator* m_navigator;
};

} // namespace nanscope::views
