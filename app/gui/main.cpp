// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope [LOGDIR]: the desktop app. --goto opens LOGDIR focused on an alert, the origin, a trace
// or an execution; --print-focus then prints what each panel shows as one JSON line and quits;
// --screenshot renders the window after jumping to the first alert, for the README and for
// checking the looks on a headless machine. --expect sets values aside as intended, as the
// window's "Treat as Expected" does, for this run only.
#include "appicon.hpp"
#include "comparedialog.hpp"
#include "focusreport.hpp"
#include "gototarget.hpp"
#include "mainwindow.hpp"
#include "nanscope/core/filesystem.hpp"
#include "nanscope/core/intent.hpp"
#include "nanscope/core/threadpriority.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/version.hpp"
#include "nanscope/views/graphstructurepanel.hpp"
#include "nanscope/widgets/inlinepainting.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTimer>
#include <cstdio>
#include <functional>

namespace {

// Exit statuses of the scripted modes.
constexpr int kNoSuchTarget = 1; // --goto names a place the logdir does not have
constexpr int kUsage = 2;        // bad command line, or a logdir that cannot be read

struct CommandLine
{
    QString logdir;
    bool follow = false;
    QString screenshot;
    std::optional<nanscope::app::GotoTarget> target;
    bool printFocus = false;
    QStringList expected; // --expect, checked
    QString compare;      // --compare: run B, absolute
};

// The command line without the options QApplication takes for itself (-platform offscreen,
// -style fusion, -reverse …), which QCoreApplication does not know.
QStringList withoutQtOptions(const QStringList& arguments)
{
    static const QStringList withValue = {
        QStringLiteral("platform"),        QStringLiteral("platformpluginpath"),
        QStringLiteral("platformtheme"),   QStringLiteral("plugin"),
        QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowtitle"),
        QStringLiteral("qwindowicon"),     QStringLiteral("display"),
        QStringLiteral("geometry"),        QStringLiteral("style"),
        QStringLiteral("stylesheet"),      QStringLiteral("session")};
    static const QStringList flags = {QStringLiteral("reverse"), QStringLiteral("widgetcount"),
                                      QStringLiteral("nograb"), QStringLiteral("dograb"),
                                      QStringLiteral("sync")};
    QStringList kept;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString& argument = arguments[i];
        QString name = argument;
        if (i == 0 || !name.startsWith(QLatin1Char('-'))) {
            kept << argument;
            continue;
        }
        name.remove(0, name.startsWith(QStringLiteral("--")) ? 2 : 1);
        const bool inline_ = name.contains(QLatin1Char('='));
        name = name.section(QLatin1Char('='), 0, 0);
        if (withValue.contains(name))
            i += inline_ ? 0 : 1; // its value too
        else if (!flags.contains(name))
            kept << argument;
    }
    return kept;
}

// The app's own options, besides --help and --version.
struct AppOptions
{
    QCommandLineOption follow{QStringLiteral("follow"),
                              QStringLiteral("Read events as they are appended.")};
    QCommandLineOption goTo{
        QStringLiteral("goto"),
        QStringLiteral("Open LOGDIR focused on TARGET: first-alert, origin, trace:N or "
                       "execution:N (N counts from 0)."),
        QStringLiteral("TARGET")};
    QCommandLineOption printFocus{
        QStringLiteral("print-focus"),
        QStringLiteral("Once LOGDIR is open (and --goto done), print what each panel shows as "
                       "one line of JSON and quit. Exit status 1 when --goto's target does not "
                       "exist, 2 when LOGDIR cannot be read.")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QStringLiteral("Open LOGDIR, jump to its first alert, save the window to FILE, quit."),
        QStringLiteral("FILE")};
    QCommandLineOption expect{
        QStringLiteral("expect"),
        QStringLiteral("Set aside the non-finite values PATTERN matches as intended (not counted, "
                       "never the origin), as \"Treat as Expected\" does, for this run: "
                       "OP[:KINDS], OP an op's type or name with * and ?, KINDS -inf, +inf, inf, "
                       "nan or any (default). Repeatable."),
        QStringLiteral("PATTERN")};
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QStringLiteral("Once LOGDIR is open, compare it with the logdir B (File › Compare "
                       "With…); with --screenshot, the picture is of the comparison."),
        QStringLiteral("B")};
};

void describeCommandLine(QCommandLineParser& parser, const AppOptions& options)
{
    parser.setApplicationDescription(
        QStringLiteral("Finds the op that made the first NaN or infinity in a tfdbg2 logdir."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("LOGDIR"),
                                 QStringLiteral("The logdir to open (or any file in it)."));
    parser.addOptions({options.follow, options.goTo, options.printFocus, options.screenshot,
                       options.expect, options.compare});
}

// --expect's patterns as the window keeps them; false, with `error`, at the first that is none.
bool readExpected(const QStringList& patterns, QStringList& expected, QString& error)
{
    for (const QString& pattern : patterns) {
        std::string why;
        const auto parsed = nanscope::core::ExpectedPattern::parse(pattern.toStdString(), &why);
        if (!parsed) {
            error = QStringLiteral("--expect %1: %2").arg(pattern, QString::fromStdString(why));
            return false;
        }
        expected << QString::fromStdString(parsed->text);
    }
    return true;
}

// Options that need a LOGDIR, or that exclude each other: what is wrong, or an empty string.
QString misfit(const QCommandLineParser& parser, const AppOptions& options, const CommandLine& line)
{
    if ((parser.isSet(options.screenshot) || line.printFocus || line.target ||
         parser.isSet(options.compare)) &&
        line.logdir.isEmpty())
        return QStringLiteral("--goto, --print-focus, --screenshot and --compare need a LOGDIR");
    if (parser.isSet(options.screenshot) && line.printFocus)
        return QStringLiteral("--screenshot and --print-focus do not go together");
    return {};
}

// The command line the parser read, its paths made absolute; nothing, with `error`, when it makes
// no sense. The checks run in the order their messages have always come in.
std::optional<CommandLine> interpret(const QCommandLineParser& parser, const AppOptions& options,
                                     QString& error)
{
    CommandLine line;
    line.logdir = parser.positionalArguments().value(0);
    line.follow = parser.isSet(options.follow);
    line.screenshot = parser.value(options.screenshot);
    line.printFocus = parser.isSet(options.printFocus);
    if (parser.positionalArguments().size() > 1) {
        error = QStringLiteral("one LOGDIR at most");
        return std::nullopt;
    }
    if (!readExpected(parser.values(options.expect), line.expected, error))
        return std::nullopt;
    if (parser.isSet(options.goTo)) {
        line.target = nanscope::app::parseGotoTarget(parser.value(options.goTo), &error);
        if (!line.target)
            return std::nullopt;
    }
    error = misfit(parser, options, line);
    if (!error.isEmpty())
        return std::nullopt;
    const QDir here = QDir::current();
    if (parser.isSet(options.compare))
        line.compare = here.absoluteFilePath(parser.value(options.compare));
    line.logdir = line.logdir.isEmpty() ? QString() : here.absoluteFilePath(line.logdir);
    if (!line.screenshot.isEmpty())
        line.screenshot = here.absoluteFilePath(line.screenshot);
    return line;
}

// Parses the command line with a QCoreApplication, before any display is opened: --help,
// --version and mistakes are answered on a machine without one.
std::optional<CommandLine> parseCommandLine(int argc, char* argv[], int& status)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("NaNscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NANSCOPE_VERSION));
    QCommandLineParser parser;
    const AppOptions options;
    describeCommandLine(parser, options);
    QString error;
    std::optional<CommandLine> line;
    if (!parser.parse(withoutQtOptions(QCoreApplication::arguments()))) {
        error = parser.errorText();
    } else {
        if (parser.isSet(QStringLiteral("help")))
            parser.showHelp(0); // prints and exits
        if (parser.isSet(QStringLiteral("version")))
            parser.showVersion();
        line = interpret(parser, options, error);
    }
    if (!line) {
        std::fprintf(stderr, "nanscope: %s\n", qPrintable(error));
        status = kUsage;
    }
    return line;
}

// Calls `then` once the window has loaded its logdir and no panel is working any more (two
// quiet polls in a row), or quits with an error after two minutes.
void whenSettled(nanscope::app::MainWindow& window, const std::function<void()>& then)
{
    auto* poll = new QTimer(&window);
    auto* clock = new QElapsedTimer;
    auto quiet = std::make_shared<int>(0);
    clock->start();
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, clock, quiet, then] {
        constexpr qint64 kTimeoutMs = 120000;
        if (clock->elapsed() > kTimeoutMs) {
            poll->stop();
            std::fprintf(stderr, "nanscope: the logdir did not finish loading in time\n");
            QCoreApplication::exit(kUsage);
            return;
        }
        const bool busy = window.isBusy() || window.session()->path().isEmpty() ||
                          window.graphStructurePanel()->isLayingOut();
        *quiet = busy ? 0 : *quiet + 1;
        if (*quiet < 2)
            return;
        poll->stop();
        poll->deleteLater();
        delete clock;
        then();
    });
    poll->start();
}

// Saves the picture of `widget` to `file` and quits: 0 when saved, 1 when not.
void saveAndQuit(QWidget& widget, const QString& file)
{
    const bool saved = widget.grab().save(file);
    if (!saved)
        std::fprintf(stderr, "nanscope: could not write %s\n", qPrintable(file));
    QCoreApplication::exit(saved ? 0 : 1);
}

void saveScreenshotLater(nanscope::app::MainWindow& window, const QString& file)
{
    // Lets the panels paint what the jump changed before the picture is taken.
    QTimer::singleShot(1500, &window, [&window, file] { saveAndQuit(window, file); });
}

void printFocus(const nanscope::app::MainWindow& window)
{
    const QByteArray json =
        QJsonDocument(nanscope::app::focusReport(window)).toJson(QJsonDocument::Compact);
    std::fprintf(stdout, "%s\n", json.constData());
    std::fflush(stdout);
}

// Opens the Compare view on run B once the window has loaded, and with --screenshot takes its
// picture once the comparison is done.
void compareWhenSettled(nanscope::app::MainWindow& window, const CommandLine& line)
{
    whenSettled(window, [&window, &line] {
        window.compareWith(line.compare);
        if (line.screenshot.isEmpty())
            return;
        whenSettled(window, [&window, &line] {
            // Lets the Compare view paint its result before the picture is taken.
            QTimer::singleShot(1500, &window, [&window, &line] {
                saveAndQuit(*window.compareDialog(), line.screenshot);
            });
        });
    });
}

// Once the window has loaded: jumps to `target`, then takes the screenshot or prints the focus.
// --print-focus fails (and prints nothing) where the logdir is unreadable or the target missing.
void goToWhenSettled(nanscope::app::MainWindow& window,
                     const std::optional<nanscope::app::GotoTarget>& target,
                     const CommandLine& line)
{
    whenSettled(window, [&window, target, &line] {
        const auto snapshot = window.session()->snapshot();
        if (line.printFocus && (!snapshot || !snapshot->readable())) {
            std::fprintf(stderr, "nanscope: cannot read %s\n", qPrintable(line.logdir));
            QCoreApplication::exit(kUsage);
            return;
        }
        QString error;
        if (target && !nanscope::app::goTo(window, *target, &error)) {
            std::fprintf(stderr, "nanscope: --goto: %s\n", qPrintable(error));
            if (line.printFocus) {
                QCoreApplication::exit(kNoSuchTarget);
                return;
            }
        }
        if (!line.screenshot.isEmpty())
            saveScreenshotLater(window, line.screenshot);
        else if (line.printFocus)
            whenSettled(window, [&window] {
                printFocus(window);
                QCoreApplication::exit(0);
            });
    });
}

// The names the desktop and the settings know the app by, and its icon.
void describeApplication()
{
    QApplication::setApplicationName(QStringLiteral("NaNscope"));
    QApplication::setOrganizationName(QStringLiteral("NaNscope"));
    QApplication::setOrganizationDomain(QStringLiteral("nanscope.org"));
    QApplication::setApplicationVersion(QStringLiteral(NANSCOPE_VERSION));
    // Lets Wayland compositors and docks match the window to the .desktop file and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral(NANSCOPE_APP_ID));
    QApplication::setWindowIcon(nanscope::app::appIcon());
}

} // namespace

int main(int argc, char* argv[])
{
    // Before the QApplication: Qt reads its switch for this once.
    nanscope::widgets::paintOnTheGuiThread();
    int status = 0;
    const std::optional<CommandLine> line = parseCommandLine(argc, argv, status);
    if (!line)
        return status;

    // A logdir of many hosts keeps a file or two open per host, past a soft limit of 1024.
    nanscope::core::raiseOpenFileLimit();
    QApplication app(argc, argv);
    // The GUI thread takes a core from the loader's threads as soon as an event arrives.
    nanscope::core::runAsInteractiveThread();
    describeApplication();

    const bool shooting = !line->screenshot.isEmpty();
    const bool scripted = shooting || line->printFocus;
    // A scripted run shows the default layout and leaves the user's settings alone.
    // A screenshot has the size the first window has on this screen.
    nanscope::app::MainWindow window({.useSettings = !scripted});
    window.setCommandLineExpected(line->expected);
    window.show();
    if (!line->logdir.isEmpty())
        window.openLogdir(line->logdir);
    if (line->follow)
        window.setFollowing(true);

    // A screenshot shows the first alert unless told otherwise.
    const auto target =
        line->target || !shooting ? line->target : std::optional(nanscope::app::GotoTarget{});
    if (!line->compare.isEmpty())
        compareWhenSettled(window, *line);
    else if (target || line->printFocus)
        goToWhenSettled(window, target, *line);
    return QApplication::exec();
}
