// SPDX-License-Identifier: GPL-3.0-or-later
// Where the Execution Timeline's lanes live: one under the other, as tall as they are down to a
// least height, below which they scroll, so that a run of many hosts leaves the details and
// Graph Structure (under the panel) their room.
#pragma once

#include <QScrollArea>

namespace nanscope::views {

class LanesArea : public QScrollArea
{
public:
    explicit LanesArea(QWidget* lanes, QWidget* parent = nullptr);

    // The height below which the lanes scroll (all of them when they are shorter).
    void setLeastHeight(int height);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    int m_least = 0;
};

} // namespace nanscope::views
