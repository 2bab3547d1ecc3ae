// SPDX-License-Identifier: GPL-3.0-or-later
// Pictures of panels for people to look at: with NANSCOPE_SCREENSHOT_DIR set, tests save what a
// widget shows there; without it, nothing happens.
#pragma once

#include <QTest>
#include <QWidget>

namespace nanscope::test {

inline bool saveScreenshot(QWidget* widget, const QString& name)
{
    const QByteArray dir = qgetenv("NANSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return true;
    QTest::qWait(50); // widgets added to layouts show on the next pass of the event loop
    return widget->grab().save(QString::fromLocal8Bit(dir) + u'/' + name + QStringLiteral(".png"));
}

} // namespace nanscope::test
