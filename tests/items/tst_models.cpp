// SPDX-License-Identifier: GPL-3.0-or-later
// Every item model under QAbstractItemModelTester, and what each shows for the tutorial logdir.
#include "itemsfixture.hpp"
#include "maskedlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/optypetext.hpp"
#include "nanscope/items/stacktracemodel.hpp"
#include "nanscope/recorder.hpp"
#include "waituntil.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <atomic>
#include <catch2/catch.hpp>
#include <limits>
#include <vector>

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

TEST_CASE("alert rows sort by a column off the GUI thread, stably, empty cells last", "[models]")
{
    Loaded l;
    const core::Snapshot& snapshot = *l.snapshot;
    REQUIRE(snapshot.alertCount() == 3);
    const std::atomic_bool go{false};
    const auto sorted = [&](std::vector<int> rows, int column, Qt::SortOrder order) {
        auto result = AlertModel::sortRows(snapshot, std::move(rows), column, order, go);
        REQUIRE(result);
        return *result;
    };
    using Rows = std::vector<int>;
    // Only the Log's tensor holds -inf: first in descending order, last in ascending.
    CHECK(sorted({0, 1, 2}, AlertModel::NegInfColumn, Qt::DescendingOrder).front() == 0);
    CHECK(sorted({0, 1, 2}, AlertModel::NegInfColumn, Qt::AscendingOrder).back() == 0);
    // "#" is the model's order, both ways.
    CHECK(sorted({2, 0, 1}, AlertModel::IndexColumn, Qt::AscendingOrder) == Rows{0, 1, 2});
    CHECK(sorted({0, 1, 2}, AlertModel::IndexColumn, Qt::DescendingOrder) == Rows{2, 1, 0});
    // Op types: Log < Mul; a subset stays a subset.
    CHECK(sorted({1, 0}, AlertModel::OpTypeColumn, Qt::AscendingOrder) == Rows{0, 1});
    CHECK(sorted({1}, AlertModel::OpTypeColumn, Qt::DescendingOrder) == Rows{1});
    // Equal values keep the given order, ascending or descending: every alert's slot is 0.
    CHECK(sorted({2, 0, 1}, AlertModel::SlotColumn, Qt::AscendingOrder) == Rows{2, 0, 1});
    CHECK(sorted({2, 0, 1}, AlertModel::SlotColumn, Qt::DescendingOrder) == Rows{2, 0, 1});
    // The graph traces name their op; the execution has none (an empty name, not a missing one).
    const Rows byName = sorted({0, 1, 2}, AlertModel::OpNameColumn, Qt::AscendingOrder);
    CHECK(byName.front() == 2);
    // A job told to stop gives nothing.
    const std::atomic_bool stop{true};
    CHECK_FALSE(AlertModel::sortRows(snapshot, {0, 1, 2}, AlertModel::OpTypeColumn,
                                     Qt::AscendingOrder, stop));
}

TEST_CASE("the alert model dims the alerts set aside once their propagation is known",
          "[models][intent]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    test::writeMaskedAttentionLogdir(dir.path().toStdString());
    core::LogdirReader reader(dir.path().toStdString());
    const SnapshotPtr snapshot = reader.update();
    REQUIRE(snapshot->alertCount() == 3); // masked_fill, log, mean
    AlertModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(snapshot);
    REQUIRE(model.rowCount() == 3);
    // Until told, the model knows nothing of the propagation (working it out is a job's).
    CHECK(model.propagation() == nullptr);
    CHECK_FALSE(model.data(model.index(0, 0), AlertModel::SetAsideRole).toBool());
    CHECK_FALSE(model.data(model.index(0, 0), Qt::ForegroundRole).isValid());
    CHECK(text(model, 0, AlertModel::StatusColumn).isEmpty());

    const core::Propagation& propagation = snapshot->propagation(); // as the panel's job does
    CHECK(propagation.countedAlerts == 2);
    CHECK(propagation.intendedAlerts == 1);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setPropagationKnown(snapshot);
    CHECK(changed.size() == 1);
    CHECK(model.propagation() == &propagation);
    CHECK(text(model, 0, AlertModel::OpTypeColumn) == QStringLiteral("masked_fill"));
    CHECK(model.data(model.index(0, 0), AlertModel::SetAsideRole).toBool());
    CHECK(model.data(model.index(0, AlertModel::OpTypeColumn), Qt::ForegroundRole).isValid());
    CHECK(text(model, 0, AlertModel::StatusColumn) == QStringLiteral("intended −∞"));
    CHECK(model.data(model.index(0, 0), Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("Set aside")));
    for (const int row : {1, 2}) {
        CHECK_FALSE(model.data(model.index(row, 0), AlertModel::SetAsideRole).toBool());
        CHECK_FALSE(model.data(model.index(row, 0), Qt::ForegroundRole).isValid());
        CHECK(text(model, row, AlertModel::StatusColumn).isEmpty());
    }
    CHECK(model.headerData(AlertModel::StatusColumn, Qt::Horizontal, Qt::DisplayRole).toString() ==
          QStringLiteral("Status"));
    // The status sorts off the GUI thread too: text first, empty cells last either way.
    const std::atomic_bool go{false};
    for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
        const auto rows = AlertModel::sortRows(*snapshot, {2, 1, 0}, AlertModel::StatusColumn,
                                               order, go, &propagation);
        REQUIRE(rows);
        CHECK(*rows == std::vector<int>{0, 2, 1});
    }
    // Another snapshot is not known until told again.
    core::LogdirReader again(dir.path().toStdString());
    model.setSnapshot(again.update());
    CHECK(model.propagation() == nullptr);
    CHECK_FALSE(model.data(model.index(0, 0), AlertModel::SetAsideRole).toBool());
}

TEST_CASE("an op type loses only the part its framework repeats", "[models]")
{
    CHECK(opTypeText(QStringLiteral("aten::masked_fill")) == QStringLiteral("masked_fill"));
    CHECK(opTypeText(std::string_view("__inference_train_step_81")) ==
          QStringLiteral("train_step_81"));
    CHECK(opTypeText(QStringLiteral("__backward_loss_7")) == QStringLiteral("loss_7"));
    for (const char* kept : {"MatMul", "prims::add", "c10d::allreduce_", "aten::", "", "Log"})
        CHECK(opTypeText(QString::fromUtf8(kept)) == QString::fromUtf8(kept));
    CHECK(opTypeText(QStringLiteral("aten::caf\u00e9")) == QStringLiteral("caf\u00e9"));
}

TEST_CASE("eager alerts show their op type whole and the module they ran in", "[models]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    {
        auto rec = Recorder::open({.dumpRoot = dir.path().toStdString(),
                                   .mode = TensorDebugMode::FullHealth,
                                   .circularBufferSize = -1});
        REQUIRE(rec.ok());
        const float values[2] = {NAN, 1.0f};
        const std::int64_t shape[1] = {2};
        ExecutionSpec spec{.opType = "aten::_softmax_backward_data", .outputIds = {1}};
        spec.outputs = {{.data = values, .dtype = DType::Float32, .shape = shape}};
        spec.context.modulePath = "GPT.blocks.3.attention";
        REQUIRE((*rec)->recordExecution(spec).ok());
        ExecutionSpec outside{.opType = "custom::scale", .outputIds = {2}};
        outside.outputs = spec.outputs;
        REQUIRE((*rec)->recordExecution(outside).ok());
        REQUIRE((*rec)->close().ok());
    }
    core::LogdirReader reader(dir.path().toStdString());
    const SnapshotPtr snapshot = reader.update();
    REQUIRE(snapshot->alertCount() == 2);
    AlertModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(snapshot);
    // PyTorch's namespace goes: the part that differs stays whole in a narrow column.
    CHECK(text(model, 0, AlertModel::OpTypeColumn) == QStringLiteral("_softmax_backward_data"));
    CHECK(text(model, 1, AlertModel::OpTypeColumn) == QStringLiteral("custom::scale"));
    CHECK(text(model, 0, AlertModel::OpNameColumn) == QStringLiteral("GPT.blocks.3.attention"));
    CHECK(text(model, 1, AlertModel::OpNameColumn).isEmpty());
    CHECK(model.headerData(AlertModel::OpNameColumn, Qt::Horizontal, Qt::DisplayRole).toString() ==
          QStringLiteral("Module"));
    // The full type in the tooltip, and for sorting.
    CHECK(
        model.data(model.index(0, 0), Qt::ToolTipRole)
            .toString()
            .startsWith(QStringLiteral("aten::_softmax_backward_data in GPT.blocks.3.attention")));
    CHECK(model.data(model.index(0, AlertModel::OpTypeColumn), SortRole).toString() ==
          QStringLiteral("aten::_softmax_backward_data"));
    // With graph traces, the column holds ops again.
    Loaded graphs;
    model.setSnapshot(graphs.snapshot);
    CHECK(model.headerData(AlertModel::OpNameColumn, Qt::Horizontal, Qt::DisplayRole).toString() ==
          QStringLiteral("Op"));
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

TEST_CASE("finite rows have no background, so views keep their own", "[models]")
{
    Loaded l;
    GraphExecutionModel traces;
    traces.setSnapshot(l.snapshot);
    CHECK_FALSE(traces.data(traces.index(0, 0), Qt::BackgroundRole).isValid());
}

TEST_CASE("a record too large to read on the GUI thread arrives later, never blocking", "[models]")
{
    // Two FULL_TENSOR traces: 16 floats, and 2^19 floats (2 MiB, over the interactive limit),
    // each with one NaN.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::filesystem::path path = dir.filePath(QStringLiteral("logdir")).toStdString();
    {
        auto recorder = Recorder::open(
            {.dumpRoot = path, .mode = TensorDebugMode::FullTensor, .circularBufferSize = -1});
        REQUIRE(recorder);
        auto graph = (*recorder)->declareGraph("g");
        auto op = (*recorder)->declareOp({.graph = *graph, .type = "Log", .name = "Log"});
        REQUIRE(op);
        for (const std::int64_t n : {std::int64_t{16}, std::int64_t{1} << 19}) {
            std::vector<float> values(static_cast<std::size_t>(n), 1.0F);
            values[3] = std::numeric_limits<float>::quiet_NaN();
            const std::int64_t shape[] = {n};
            REQUIRE(
                (*recorder)
                    ->recordTrace(*op, 0,
                                  {.data = values.data(), .dtype = DType::Float32, .shape = shape})
                    .ok());
        }
        REQUIRE((*recorder)->close().ok());
    }
    core::LogdirReader reader(path);
    const SnapshotPtr snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == 2);
    REQUIRE(snapshot->readTrace(1, core::kInteractiveRecordBytes).deferred);

    GraphExecutionModel model;
    Tester tester(&model, kFatal);
    model.setSnapshot(snapshot);
    CHECK(text(model, 0, GraphExecutionModel::ShapeColumn) == QStringLiteral("[16]"));
    CHECK(model.data(model.index(0, 0), GraphExecutionModel::NanCountRole).toDouble() == 1);
    // The large row answers at once from the index: its health, no details yet.
    CHECK(text(model, 1, GraphExecutionModel::HealthColumn).contains(QStringLiteral("NaN")));
    CHECK(text(model, 1, GraphExecutionModel::ShapeColumn).isEmpty());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // Asking again while the read is under way starts no second one.
    CHECK_FALSE(model.data(model.index(1, 0), GraphExecutionModel::NanCountRole).isValid());
    REQUIRE(test::waitUntil([&] { return !changed.isEmpty(); }));
    CHECK(changed.size() == 1);
    CHECK(changed.first().at(0).toModelIndex().row() == 1);
    CHECK(text(model, 1, GraphExecutionModel::ShapeColumn) == QStringLiteral("[524288]"));
    CHECK(text(model, 1, GraphExecutionModel::DTypeColumn) == QStringLiteral("float32"));
    CHECK(model.data(model.index(1, 0), GraphExecutionModel::NanCountRole).toDouble() == 1);
    CHECK(model.data(model.index(1, 0), GraphExecutionModel::PositiveCountRole).toDouble() ==
          (1 << 19) - 1);
}

TEST_CASE("rows are coloured by the core's rule of NaN against infinity", "[models]")
{
    namespace h = core::health;
    const auto digest = [](std::uint8_t bits) {
        return core::HealthDigest{static_cast<std::uint8_t>(h::Known | bits)};
    };
    const QColor nan = nonFiniteBackground(digest(h::NonFinite | h::NaN));
    const QColor inf = nonFiniteBackground(digest(h::NonFinite | h::NegInf));
    REQUIRE(nan.isValid());
    REQUIRE(inf.isValid());
    CHECK(nan != inf);
    CHECK(nonFiniteBackground(digest(h::NonFinite | h::PosInf | h::NaN)) == nan);
    // CURT_HEALTH tells no kind: NaN, the more alarming, as the graph and the strips draw it.
    CHECK(nonFiniteBackground(digest(h::NonFinite)) == nan);
    CHECK_FALSE(nonFiniteBackground(digest(0)).isValid());

    CHECK(nonFiniteKinds(digest(h::NonFinite | h::NaN | h::NegInf | h::PosInf)) ==
          QStringLiteral("NaN, -inf, +inf"));
    CHECK(nonFiniteKinds(digest(h::NonFinite)) == QStringLiteral("NaN or ±inf"));
    CHECK(digestText(digest(0)) == QStringLiteral("finite"));
    CHECK(digestText(core::HealthDigest{}) == QStringLiteral("unknown"));
}
