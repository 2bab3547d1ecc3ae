// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/whenidle.hpp"

#include <QTimer>

namespace nanscope::widgets {

void whenIdle(QObject* context, std::function<void()> step)
{
    auto* timer = new QTimer(context); // goes with its context, step and all
    timer->setSingleShot(true);
    timer->setInterval(0);
    QObject::connect(timer, &QTimer::timeout, context, [timer, step = std::move(step)] {
        timer->deleteLater();
        step();
    });
    timer->start();
}

} // namespace nanscope::widgets
