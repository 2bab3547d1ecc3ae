// SPDX-License-Identifier: GPL-3.0-or-later
// Catch2's main inside a QGuiApplication on the offscreen platform, so that models, signals
// and worker threads behave as in the app.
#include "catch_session.hpp"

#include <QGuiApplication>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    return nanscope::test::runCatch(argc, argv);
}
