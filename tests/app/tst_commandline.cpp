// SPDX-License-Identifier: GPL-3.0-or-later
// The app's command line as a script uses it: --help and --version without a display, --goto's
// targets, and --print-focus's JSON after the tutorial's jump, on our demo's logdir and on a
// TensorFlow-shaped one.
#include "gototarget.hpp"
#include "maskedlogdir.hpp"
#include "rundemo.hpp"
#include "tensorflowlogdir.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using nanscope::app::GotoTarget;
using nanscope::app::parseGotoTarget;

namespace {

constexpr int kTimeoutMs = 120000;

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the app with `arguments`; `display` false removes every way to reach a display.
Run runApp(const QStringList& arguments, bool display = true)
{
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (display) {
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    } else {
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
    }
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(NANSCOPE_APP_EXE), arguments);
    Run run;
    if (!app.waitForFinished(kTimeoutMs) || app.exitStatus() != QProcess::NormalExit)
        return run;
    run.exitCode = app.exitCode();
    run.out = app.readAllStandardOutput();
    run.err = app.readAllStandardError();
    return run;
}

// The one JSON line --print-focus prints.
QJsonObject focusOf(const Run& run)
{
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    if (lines.size() != 1)
        return {};
    return QJsonDocument::fromJson(lines.first()).object();
}

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void gotoTargetsParse();
    void helpAndVersionNeedNoDisplay();
    void badArgumentsSayWhy();
    void printFocusAfterTheFirstAlert();
    void printFocusAtTheOriginOfATensorFlowLogdir();
    void printFocusOfTraceAndExecution();
    void printFocusReportsTheTensorPanel();
    void theOriginIsNotWhatWasMadeOnPurpose();
    void expectSetsValuesAside();
    void missingTargetsAndUnreadableLogdirs();
    void theFirstWindowFitsItsScreen_data();
    void theFirstWindowFitsItsScreen();

private:
    QTemporaryDir m_demoDir;
};

void TestCommandLine::initTestCase()
{
    QVERIFY(m_demoDir.isValid());
    QVERIFY(nanscope::test::runDemo(m_demoDir.path()));
}

void TestCommandLine::gotoTargetsParse()
{
    QCOMPARE(parseGotoTarget(QStringLiteral("first-alert"))->kind, GotoTarget::Kind::FirstAlert);
    QCOMPARE(parseGotoTarget(QStringLiteral("origin"))->kind, GotoTarget::Kind::Origin);
    const auto trace = parseGotoTarget(QStringLiteral("trace:42"));
    QVERIFY(trace);
    QCOMPARE(trace->kind, GotoTarget::Kind::Trace);
    QCOMPARE(trace->index, 42u);
    const auto execution = parseGotoTarget(QStringLiteral("execution:0"));
    QVERIFY(execution);
    QCOMPARE(execution->kind, GotoTarget::Kind::Execution);
    QCOMPARE(execution->index, 0u);
    for (const char* bad : {"", "first", "trace", "trace:", "trace:-1", "trace:+1", "trace: 1",
                            "trace:1x", "execution:99999999999999999999", "op:3", ":3"}) {
        QString error;
        QVERIFY2(!parseGotoTarget(QString::fromLatin1(bad), &error), bad);
        QVERIFY2(!error.isEmpty(), bad);
    }
}

void TestCommandLine::helpAndVersionNeedNoDisplay()
{
    const Run version = runApp({QStringLiteral("--version")}, false);
    QCOMPARE(version.exitCode, 0);
    QVERIFY2(version.out.startsWith("NaNscope "), version.out.constData());
    const Run help = runApp({QStringLiteral("--help")}, false);
    QCOMPARE(help.exitCode, 0);
    for (const char* option : {"--goto", "--print-focus", "--follow", "--screenshot", "--expect"})
        QVERIFY2(help.out.contains(option), option);
}

void TestCommandLine::badArgumentsSayWhy()
{
    const QString demo = m_demoDir.path();
    for (const QStringList& arguments :
         {QStringList{QStringLiteral("--no-such-option")},
          QStringList{demo, QStringLiteral("--goto"), QStringLiteral("somewhere")},
          QStringList{QStringLiteral("--print-focus")}, QStringList{demo, demo},
          QStringList{demo, QStringLiteral("--expect"), QStringLiteral("aten::log:minus")},
          QStringList{demo, QStringLiteral("--expect"), QStringLiteral(":nan")},
          QStringList{demo, QStringLiteral("--print-focus"), QStringLiteral("--screenshot"),
                      QStringLiteral("x.png")}}) {
        const Run run = runApp(arguments, false); // refused before any window opens
        QVERIFY2(run.exitCode == 2, qPrintable(arguments.join(u' ')));
        QVERIFY2(run.err.startsWith("nanscope: "), run.err.constData());
    }
}

// The tutorial's first minute, scripted: every panel lands on the Log op that made -inf.
void TestCommandLine::printFocusAfterTheFirstAlert()
{
    const Run run = runApp({m_demoDir.path(), QStringLiteral("--goto"),
                            QStringLiteral("first-alert"), QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject focus = focusOf(run);
    QVERIFY2(!focus.isEmpty(), run.out.constData());
    QCOMPARE(focus[u"event"][u"kind"].toString(), QStringLiteral("trace"));
    QCOMPARE(focus[u"op"][u"name"].toString(), QStringLiteral("Log"));
    QCOMPARE(focus[u"op"][u"graph"].toString(), QStringLiteral("loss"));
    const QJsonValue table = focus[u"graph_execution"];
    QCOMPARE(table[u"tensor"].toString(), QStringLiteral("Log:0"));
    QCOMPARE(table[u"trace"].toInteger(), focus[u"event"][u"index"].toInteger());
    QVERIFY(table[u"health"].toString().contains(QStringLiteral("-inf")));
    QCOMPARE(table[u"highlighted_inputs"].toArray(), QJsonArray{QStringLiteral("probs:0")});
    const QJsonValue frame = focus[u"stack_trace"][u"selected_frame"];
    QVERIFY(frame[u"file"].toString().endsWith(QStringLiteral("mlp.cpp")));
    QVERIFY(frame[u"user_frame"].toBool());
    const QJsonValue source = focus[u"source"];
    QCOMPARE(source[u"file"].toString(), frame[u"file"].toString());
    QCOMPARE(source[u"marked_line"].toInt(), frame[u"line"].toInt());
    QVERIFY(source[u"line_text"].toString().contains(QStringLiteral("\"Log\"")));
    QCOMPARE(focus[u"graph_structure"][u"focused_op"].toString(), QStringLiteral("Log"));
    QVERIFY(focus[u"graph_structure"][u"neighbours"].toArray().contains(QStringLiteral("probs")));
}

void TestCommandLine::printFocusAtTheOriginOfATensorFlowLogdir()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto expected = nanscope::test::writeTensorFlowLogdir(
        dir.path().toStdString(), nanscope::test::TensorFlowStack::TutorialModule);
    const Run run = runApp({dir.path(), QStringLiteral("--goto"), QStringLiteral("origin"),
                            QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject focus = focusOf(run);
    QCOMPARE(focus[u"op"][u"type"].toString(), QStringLiteral("Log"));
    QCOMPARE(focus[u"graph_execution"][u"tensor"].toString(), QStringLiteral("Log:0"));
    const QJsonValue frame = focus[u"stack_trace"][u"selected_frame"];
    QCOMPARE(frame[u"file"].toString(), QString::fromStdString(expected.file));
    QCOMPARE(frame[u"line"].toInt(), expected.line);
    QCOMPARE(frame[u"function"].toString(), QString::fromStdString(expected.function));
    QVERIFY(frame[u"user_frame"].toBool());
    QCOMPARE(focus[u"source"][u"marked_line"].toInt(), expected.line);
    QVERIFY(focus[u"stack_trace"][u"frames"].toInt() > 1);
}

void TestCommandLine::printFocusOfTraceAndExecution()
{
    const Run trace = runApp({m_demoDir.path(), QStringLiteral("--goto"), QStringLiteral("trace:0"),
                              QStringLiteral("--print-focus")});
    QCOMPARE(trace.exitCode, 0);
    QCOMPARE(focusOf(trace)[u"graph_execution"][u"trace"].toInteger(), 0);
    QVERIFY(focusOf(trace)[u"execution"].isNull());

    const Run execution = runApp({m_demoDir.path(), QStringLiteral("--goto"),
                                  QStringLiteral("execution:2"), QStringLiteral("--print-focus")});
    QCOMPARE(execution.exitCode, 0);
    const QJsonObject focus = focusOf(execution);
    QCOMPARE(focus[u"event"][u"kind"].toString(), QStringLiteral("execution"));
    QCOMPARE(focus[u"event"][u"index"].toInteger(), 2);
    QVERIFY(focus[u"execution"][u"details"].toString().startsWith(QStringLiteral("Execution #2")));
}

// The Tensor panel on the demo recorded in FULL_TENSOR mode: the Log's tensor at the origin,
// opened on its first -inf; in FULL_HEALTH mode, why it shows no values.
void TestCommandLine::printFocusReportsTheTensorPanel()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(nanscope::test::runDemo(dir.path(), QStringLiteral("FULL_TENSOR")));
    const Run run = runApp({dir.path(), QStringLiteral("--goto"), QStringLiteral("origin"),
                            QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject focus = focusOf(run);
    const QJsonValue tensor = focus[u"tensor"];
    QVERIFY2(tensor.isObject(), run.out.constData());
    QCOMPARE(tensor[u"event"], focus[u"event"]);
    QCOMPARE(tensor[u"dtype"].toString(), QStringLiteral("float32"));
    QCOMPARE(tensor[u"shape"].toArray(), (QJsonArray{100, 10}));
    QCOMPARE(tensor[u"slice"].toString(), QStringLiteral("[:, :]"));
    QCOMPARE(tensor[u"negative_infinity"].toInteger(), 3);
    const QJsonArray first = tensor[u"first_non_finite"].toArray();
    QCOMPARE(first.size(), 2);
    QCOMPARE(tensor[u"first_non_finite_index"].toInteger(),
             first[0].toInteger() * 10 + first[1].toInteger());
    QCOMPARE(tensor[u"selected"][u"index"].toArray(), first);
    QCOMPARE(tensor[u"selected"][u"row"].toInteger(), first[0].toInteger());
    QCOMPARE(tensor[u"selected"][u"value"].toString(), QStringLiteral("-inf"));

    const Run health = runApp({m_demoDir.path(), QStringLiteral("--goto"), QStringLiteral("origin"),
                               QStringLiteral("--print-focus")});
    QCOMPARE(health.exitCode, 0);
    QVERIFY2(focusOf(health)[u"tensor"][u"empty"].toString().contains(
                 QStringLiteral("FULL_HEALTH mode")),
             health.out.constData());
}

// An attention mask's −∞ comes first, but the program made it on purpose: the origin is the log
// of the zeros softmax made of it.
void TestCommandLine::theOriginIsNotWhatWasMadeOnPurpose()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    nanscope::test::writeMaskedAttentionLogdir(dir.path().toStdString());
    const Run run = runApp({dir.path(), QStringLiteral("--goto"), QStringLiteral("origin"),
                            QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject focus = focusOf(run);
    QVERIFY2(!focus.isEmpty(), run.out.constData());
    QCOMPARE(focus[u"event"][u"kind"].toString(), QStringLiteral("execution"));
    QCOMPARE(focus[u"event"][u"index"].toInteger(), nanscope::test::Log);
    QVERIFY(focus[u"execution"][u"details"].toString().contains(QStringLiteral("aten::log")));
    const QJsonValue alerts = focus[u"alerts"];
    QVERIFY2(alerts[u"origin"].toString().startsWith(QStringLiteral("Origin: aten::log")),
             run.out.constData());
    QVERIFY(alerts[u"origin"].toString().contains(QStringLiteral("aten::masked_fill")));
    QCOMPARE(alerts[u"set_aside"].toInteger(), 1);
    QVERIFY(alerts[u"counts"].toArray().contains(QStringLiteral("NaN/∞  2")));
}

// --expect as "Treat as Expected": the log's −∞ expected, no origin is left.
void TestCommandLine::expectSetsValuesAside()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    nanscope::test::writeMaskedAttentionLogdir(dir.path().toStdString());
    const Run run = runApp({dir.path(), QStringLiteral("--expect"),
                            QStringLiteral("aten::log:-inf"), QStringLiteral("--goto"),
                            QStringLiteral("origin"), QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 1); // no such target
    QVERIFY2(run.err.contains("set aside as intended"), run.err.constData());
    // Expecting another op changes nothing; repeated, both apply.
    const Run other = runApp({dir.path(), QStringLiteral("--expect"), QStringLiteral("aten::exp"),
                              QStringLiteral("--expect"), QStringLiteral("aten::where:nan"),
                              QStringLiteral("--goto"), QStringLiteral("origin"),
                              QStringLiteral("--print-focus")});
    QCOMPARE(other.exitCode, 0);
    QCOMPARE(focusOf(other)[u"event"][u"index"].toInteger(), nanscope::test::Log);
}

void TestCommandLine::missingTargetsAndUnreadableLogdirs()
{
    const Run missing = runApp({m_demoDir.path(), QStringLiteral("--goto"),
                                QStringLiteral("trace:99999999"), QStringLiteral("--print-focus")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("there is no trace 99999999"), missing.err.constData());
    QVERIFY(missing.out.isEmpty());

    QTemporaryDir empty;
    QVERIFY(empty.isValid());
    const Run unreadable = runApp({empty.path(), QStringLiteral("--print-focus")});
    QCOMPARE(unreadable.exitCode, 2);
    QVERIFY(unreadable.err.contains("cannot read"));
}

void TestCommandLine::theFirstWindowFitsItsScreen_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::newRow("1280×800") << 1280 << 800;
    QTest::newRow("1920×1080") << 1920 << 1080;
    QTest::newRow("2560×1440") << 2560 << 1440;
}

// The first window takes its size from the screen it opens on, and every panel's least size
// adds up to less than the smallest of those screens.
void TestCommandLine::theFirstWindowFitsItsScreen()
{
    QFETCH(int, width);
    QFETCH(int, height);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile config(dir.filePath(QStringLiteral("screen.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral(R"({"screens": [{"name": "screen", "x": 0, "y": 0, "width": %1,
        "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                     .arg(width)
                     .arg(height)
                     .toUtf8());
    config.close();
    const Run run = runApp({QStringLiteral("-platform"),
                            QStringLiteral("offscreen:configfile=") + config.fileName(),
                            m_demoDir.path(), QStringLiteral("--goto"),
                            QStringLiteral("first-alert"), QStringLiteral("--print-focus")});
    QCOMPARE(run.exitCode, 0);
    const QJsonValue window = focusOf(run)[u"window"];
    QCOMPARE(window[u"screen_width"].toInt(), width);
    QCOMPARE(window[u"screen_height"].toInt(), height);
    QVERIFY(window[u"width"].toInt() <= width && window[u"height"].toInt() <= height);
    QVERIFY(window[u"minimum_width"].toInt() <= width);
    QVERIFY(window[u"minimum_height"].toInt() <= height);
    // A large screen is not filled edge to edge; a small one is used whole.
    if (width > 1600)
        QVERIFY(window[u"width"].toInt() < width);
    else
        QVERIFY(window[u"width"].toInt() >= width * 95 / 100);
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
