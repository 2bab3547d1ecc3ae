// SPDX-License-Identifier: GPL-3.0-or-later
// Every item model under QAbstractItemModelTester, and what each shows for the tutorial logdir.
#include "itemsfixture.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/opneighbourhoodmodel.hpp"
#include "nanscope/items/sourcefilemodel.hpp"
#include "nanscope/items/sourcelinemodel.hpp"
#include "nanscope/items/stacktracemodel.hpp"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::items;
using Tester = QAbstractItemModelTester;

namespace {

// A failing check aborts the test binary with the tester's message: loud in CI.
constexpr auto kFatal = Tester::FailureReportingMode::Fatal;

struct Loaded
{
    test::TutorialLogdir logdir{2};
    SnapshotPtr snapshot;
    Loaded()
    {
        logdir.close();
        core::LogdirReader reader(logdir.path());
        snapshot = reader.update();
        REQUIRE(snapshot->readable());
    }
    core::OpId op(const char* name) const
    {
        const auto& graphs = snapshot->graphs();
        for (core::OpId id = 0; id < graphs.ops().size(); ++id)
            if (graphs.op(id).name == name)
                return id;
        FAIL("no op " << name);
        return core::kNoOp;
    }
};

QString text(const QAbstractItemModel& m, int row, int column)
{
    return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

} // namespace

TEST_CASE("the alert model lists every alert, the Log's -inf first", "[models]")
{
    Loaded l;
    AlertModel model;
    Tester tester(&model, kFatal);
    CHECK(model.rowCount() == 0);
    model.setSnapshot(l.snapshot);
    // Step 1: Log (-inf) and mul (NaN) traces, and the loss call's NaN output.
    REQUIRE(model.rowCount() == 3);
    CHECK(text(model, 0, AlertModel::OpTypeColumn) == QStringLiteral("Log"));
    CHECK(text(model, 0, AlertModel::OpNameColumn) == QStringLiteral("Log"));
    CHECK(model.data(model.index(0, AlertModel::NegInfColumn)).toInt() == 1);
    CHECK(model.data(model.index(0, AlertModel::NanColumn)).toInt() == 0);
    CHECK(model.data(model.index(0, AlertModel::SizeColumn)).toInt() == 4);
    CHECK(model.data(model.index(0, 0), AlertModel::EventIndexRole).toULongLong() == 8);
    CHECK(model.data(model.index(0, 0), AlertModel::EventSourceRole).toInt() ==
          static_cast<int>(core::EventSource::Graph));
    CHECK(text(model, 1, AlertModel::OpTypeColumn) == QStringLiteral("Mul"));
    CHECK(model.data(model.index(2, 0), AlertModel::EventSourceRole).toInt() ==
          static_cast<int>(core::EventSource::Eager));
    CHECK(model.headerData(AlertModel::NanColumn, Qt::Horizontal, Qt::DisplayRole).toString() ==
          QStringLiteral("NaN"));
    model.setSnapshot(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("the graph execution model shows each trace and its health", "[models]")
{
    Loaded l;
    GraphExecutionModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(l.snapshot);
    REQUIRE(model.rowCount() == 10);
    CHECK(text(model, 3, GraphExecutionModel::TensorColumn) == QStringLiteral("Log:0"));
    CHECK(text(model, 3, GraphExecutionModel::OpTypeColumn) == QStringLiteral("Log"));
    CHECK(text(model, 3, GraphExecutionModel::GraphColumn) == QStringLiteral("loss"));
    CHECK(text(model, 3, GraphExecutionModel::HealthColumn) == QStringLiteral("finite"));
    CHECK(text(model, 3, GraphExecutionModel::DTypeColumn) == QStringLiteral("float32"));
    CHECK_FALSE(model.data(model.index(3, 0), NonFiniteRole).toBool());
    // Step 1's Log: -inf.
    CHECK(model.data(model.index(8, 0), NonFiniteRole).toBool());
    CHECK(text(model, 8, GraphExecutionModel::HealthColumn).contains(QStringLiteral("-inf")));
    CHECK(model.data(model.index(8, 0), GraphExecutionModel::NegInfCountRole).toDouble() == 1);
    CHECK(model.data(model.index(8, 0), GraphExecutionModel::ZeroCountRole).toDouble() == 0);
    CHECK(model.data(model.index(5, 0), GraphExecutionModel::ZeroCountRole).toDouble() == 1);
    CHECK(model.data(model.index(8, 0), Qt::BackgroundRole).value<QColor>().isValid());
    CHECK(model.data(model.index(8, 0), GraphExecutionModel::OpIdRole).toUInt() == l.op("Log"));
}

TEST_CASE("the execution model lists the function calls", "[models]")
{
    Loaded l;
    ExecutionModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(l.snapshot);
    REQUIRE(model.rowCount() == 2);
    CHECK(text(model, 0, ExecutionModel::OpTypeColumn) == QStringLiteral("__inference_loss_7"));
    CHECK(text(model, 0, ExecutionModel::GraphColumn) == QStringLiteral("loss"));
    CHECK(text(model, 0, ExecutionModel::HealthColumn) == QStringLiteral("finite"));
    CHECK(text(model, 1, ExecutionModel::HealthColumn) == QStringLiteral("NaN"));
}

TEST_CASE("the op neighbourhood shows inputs, the op and its consumers", "[models]")
{
    Loaded l;
    OpNeighbourhoodModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(l.snapshot);
    CHECK(model.rowCount() == 0);
    model.setOp(l.op("Log"));
    REQUIRE(model.rowCount() == 3);
    using R = OpNeighbourhoodModel::Relation;
    auto relation = [&](int row) {
        return static_cast<R>(
            model.data(model.index(row, 0), OpNeighbourhoodModel::RelationRole).toInt());
    };
    CHECK(relation(0) == R::Input);
    CHECK(text(model, 0, OpNeighbourhoodModel::OpColumn) == QStringLiteral("probs"));
    CHECK(text(model, 0, OpNeighbourhoodModel::TensorColumn) == QStringLiteral("probs:0"));
    CHECK(text(model, 0, OpNeighbourhoodModel::OpTypeColumn) == QStringLiteral("Placeholder"));
    CHECK(relation(1) == R::Self);
    CHECK(relation(2) == R::Consumer);
    CHECK(text(model, 2, OpNeighbourhoodModel::OpColumn) == QStringLiteral("mul"));
    CHECK(model.data(model.index(2, 0), OpNeighbourhoodModel::OpIdRole).toUInt() == l.op("mul"));

    model.setOp(l.op("mul"));
    CHECK(model.rowCount() == 3); // Neg, Log, mul itself
    model.setOp(core::kNoOp);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("the stack trace model marks the user's frame", "[models]")
{
    Loaded l;
    StackTraceModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(l.snapshot);
    model.setFrameIds(l.snapshot->graphs().op(l.op("Log")).stackFrameIds);
    REQUIRE(model.rowCount() == 1);
    CHECK(model.userFrameRow() == 0);
    CHECK(model.data(model.index(0, 0), StackTraceModel::UserFrameRole).toBool());
    CHECK(text(model, 0, StackTraceModel::FileColumn) == QStringLiteral("itemsfixture.cpp"));
    CHECK(model.data(model.index(0, 0), StackTraceModel::LineRole).toInt() == l.logdir.logLine());
    CHECK(
        text(model, 0, StackTraceModel::FunctionColumn).contains(QStringLiteral("TutorialLogdir")));
    CHECK(model.data(model.index(0, 0), StackTraceModel::FileIndexRole).toInt() == 0);

    // A pattern matching the test's own file folds it away as framework code.
    model.setFrameworkPatterns({QStringLiteral("tests/items")});
    CHECK(model.data(model.index(0, 0), StackTraceModel::FrameworkRole).toBool());
    CHECK(model.userFrameRow() == -1);

    model.setFrameIds({"no-such-frame"});
    REQUIRE(model.rowCount() == 1);
    CHECK(text(model, 0, StackTraceModel::FileColumn) == QStringLiteral("(unknown)"));
}

TEST_CASE("source files and their lines come from the logdir", "[models]")
{
    Loaded l;
    SourceFileModel files;
    Tester filesTester(&files, kFatal);
    files.setSnapshot(l.snapshot);
    REQUIRE(files.rowCount() == 1);
    const QString path = files.data(files.index(0, 0), SourceFileModel::FilePathRole).toString();
    CHECK(QFileInfo(path).fileName() == QStringLiteral("itemsfixture.cpp"));

    SourceLineModel lines;
    Tester linesTester(&lines, kFatal);
    lines.setSnapshot(l.snapshot);
    REQUIRE(lines.setFile(0));
    QFile source(path);
    REQUIRE(source.open(QIODevice::ReadOnly));
    const QStringList expected = QString::fromUtf8(source.readAll()).split(QLatin1Char('\n'));
    REQUIRE(lines.rowCount() == expected.size());
    CHECK(files.data(files.index(0, SourceFileModel::LinesColumn)).toInt() == expected.size());
    const int logLine = l.logdir.logLine();
    CHECK(text(lines, logLine - 1, SourceLineModel::TextColumn) == expected[logLine - 1]);
    CHECK(text(lines, logLine - 1, SourceLineModel::TextColumn).contains(QStringLiteral("log")));

    lines.setMarkedLines({logLine});
    lines.setFocusLine(logLine);
    CHECK(lines.data(lines.index(logLine - 1, 0), SourceLineModel::MarkedRole).toBool());
    CHECK(lines.data(lines.index(logLine - 1, 0), SourceLineModel::FocusRole).toBool());
    CHECK_FALSE(lines.data(lines.index(0, 0), SourceLineModel::MarkedRole).toBool());

    CHECK_FALSE(lines.setFile(7));
    CHECK(lines.rowCount() == 0);
    CHECK_FALSE(lines.error().isEmpty());
}

TEST_CASE("finite rows have no background, so views keep their own", "[models]")
{
    Loaded l;
    GraphExecutionModel traces;
    traces.setSnapshot(l.snapshot);
    CHECK_FALSE(traces.data(traces.index(0, 0), Qt::BackgroundRole).isValid());
    ExecutionModel executions;
    executions.setSnapshot(l.snapshot);
    CHECK_FALSE(executions.data(executions.index(0, 0), Qt::BackgroundRole).isValid());
    CHECK(executions.data(executions.index(1, 0), Qt::BackgroundRole).value<QColor>().isValid());
}
