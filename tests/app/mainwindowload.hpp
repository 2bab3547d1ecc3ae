// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window's tests share: opening a logdir and waiting until it is read and every
// panel has worked out what it shows.
#pragma once

#include "mainwindow.hpp"

#include <QSignalSpy>
#include <QTest>

namespace nanscope::test {

inline constexpr int kWindowWait = 30000;

inline bool openAndWait(app::MainWindow& window, const QString& path)
{
    QSignalSpy loaded(&window, &app::MainWindow::logdirLoaded);
    window.openLogdir(path);
    return QTest::qWaitFor([&] { return loaded.count() > 0 && !window.isBusy(); }, kWindowWait);
}

} // namespace nanscope::test
