// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope [LOGDIR]: the desktop app. --screenshot renders the window after jumping to the
// first alert, for the README and for checking the looks on a headless machine.
#include "appicon.hpp"
#include "mainwindow.hpp"
#include "nanscope/version.hpp"
#include "nanscope/views/alertspanel.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

namespace {

// Waits until the window is idle, jumps to the first alert like a double-click, lets the
// panels paint, then saves the window's picture and quits.
void takeScreenshot(nanscope::app::MainWindow& window, const QString& file)
{
    auto* poll = new QTimer(&window);
    auto* clock = new QElapsedTimer;
    clock->start();
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, clock, file] {
        constexpr qint64 kTimeoutMs = 120000;
        if (clock->elapsed() > kTimeoutMs) {
            poll->stop();
            qCritical("nanscope: the logdir did not finish loading in time");
            QCoreApplication::exit(1);
            return;
        }
        if (window.isBusy() || window.session()->path().isEmpty())
            return;
        poll->stop();
        delete clock;
        window.jumpToFirstAlert();
        QTimer::singleShot(1500, &window, [&window, file] {
            const bool saved = window.grab().save(file);
            if (!saved)
                qCritical("nanscope: could not write %s", qPrintable(file));
            QCoreApplication::exit(saved ? 0 : 1);
        });
    });
    poll->start();
}

} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("NaNscope"));
    QApplication::setOrganizationName(QStringLiteral("NaNscope"));
    QApplication::setOrganizationDomain(QStringLiteral("nanscope.org"));
    QApplication::setApplicationVersion(QStringLiteral(NANSCOPE_VERSION));
    // Lets Wayland compositors and docks match the window to the .desktop file and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral(NANSCOPE_APP_ID));
    QApplication::setWindowIcon(nanscope::app::appIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Finds the op that made the first NaN or infinity in a tfdbg2 logdir."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("LOGDIR"),
                                 QStringLiteral("The logdir to open (or any file in it)."));
    const QCommandLineOption follow(QStringLiteral("follow"),
                                    QStringLiteral("Read events as they are appended."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Open LOGDIR, jump to its first alert, save the window to FILE, quit."),
        QStringLiteral("FILE"));
    parser.addOption(follow);
    parser.addOption(screenshot);
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    const QString logdir = positional.value(0);
    const bool shooting = parser.isSet(screenshot);
    if (shooting && logdir.isEmpty()) {
        qCritical("nanscope: --screenshot needs a LOGDIR");
        return 2;
    }

    // A screenshot shows the default layout and leaves the user's settings alone.
    nanscope::app::MainWindow window({.useSettings = !shooting});
    if (shooting)
        window.resize(1600, 1000);
    window.show();
    if (!logdir.isEmpty())
        window.openLogdir(QDir::current().absoluteFilePath(logdir));
    if (parser.isSet(follow))
        window.setFollowing(true);
    if (shooting)
        takeScreenshot(window, QDir::current().absoluteFilePath(parser.value(screenshot)));
    return QApplication::exec();
}
