// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare view's records (RunComparisonModel) under QAbstractItemModelTester: a row per
// field, a column per run, nothing without a divergence, and the counts each mode has.
#include "comparelogdirs.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/runcomparisonmodel.hpp"

#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

using namespace nanscope;
using items::RunComparisonModel;
using Tester = QAbstractItemModelTester;

namespace {

QString text(const QAbstractItemModel& m, int row, int column)
{
    return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

// Two PyTorch-like runs whose third execution, aten::log in MLP.loss, is -inf in B only.
core::Divergence divergence()
{
    using test::eagerOp;
    test::TempDir a;
    test::TempDir b;
    const std::vector<test::CompareOp> ops = {eagerOp("aten::addmm", "MLP.hidden"),
                                              eagerOp("aten::softmax", "MLP.out"),
                                              eagerOp("aten::log", "MLP.loss")};
    auto bad = ops;
    bad[2].counts = {.negInf = 1, .negative = 2, .zero = 1, .positive = 0};
    test::writeCompareRun(a.path(), ops, "a");
    test::writeCompareRun(b.path(), bad, "b");
    const auto result = core::compareRuns(*core::LogdirReader(a.path()).update(),
                                          *core::LogdirReader(b.path()).update());
    REQUIRE(result);
    REQUIRE(result->first.kind == core::DivergenceKind::NonFiniteInB);
    return result->first;
}

} // namespace

TEST_CASE("the records of a divergence, field by field", "[models][compare]")
{
    RunComparisonModel model;
    Tester tester(&model, Tester::FailureReportingMode::Fatal);
    CHECK(model.rowCount() == 0);
    CHECK(model.columnCount() == RunComparisonModel::ColumnCount);
    CHECK_FALSE(model.eventAt(RunComparisonModel::RunAColumn));

    const core::Divergence d = divergence();
    model.setDivergence(d);
    REQUIRE(model.rowCount() == RunComparisonModel::RowCount);
    using M = RunComparisonModel;
    CHECK(text(model, M::OpTypeRow, M::FieldColumn) == QStringLiteral("Op type"));
    CHECK(text(model, M::EventRow, M::RunAColumn) == QStringLiteral("Execution #2"));
    CHECK(text(model, M::OpTypeRow, M::RunBColumn) == QStringLiteral("aten::log"));
    CHECK(text(model, M::ModuleRow, M::RunAColumn) == QStringLiteral("MLP.loss"));
    CHECK(text(model, M::OpNameRow, M::RunAColumn).isEmpty()); // an execution has none
    CHECK(text(model, M::StepRow, M::RunBColumn) == QStringLiteral("0"));
    CHECK(text(model, M::StateRow, M::RunAColumn) == QStringLiteral("finite"));
    CHECK(text(model, M::StateRow, M::RunBColumn) == QStringLiteral("1 -inf"));
    CHECK(text(model, M::NegativeInfinityRow, M::RunAColumn) == QStringLiteral("0"));
    CHECK(text(model, M::NegativeInfinityRow, M::RunBColumn) == QStringLiteral("1"));
    CHECK(text(model, M::ZeroRow, M::RunBColumn) == QStringLiteral("1"));
    CHECK(text(model, M::PositiveRow, M::RunAColumn) == QStringLiteral("4"));
    CHECK(model.data(model.index(M::StateRow, M::RunBColumn), Qt::BackgroundRole)
              .value<QColor>()
              .isValid());
    // A finite value has no background at all (an invalid QColor would paint it black).
    CHECK_FALSE(model.data(model.index(M::StateRow, M::RunAColumn), Qt::BackgroundRole).isValid());
    CHECK(model.headerData(M::RunBColumn, Qt::Horizontal).toString() == QStringLiteral("Run B"));
    REQUIRE(model.eventAt(M::RunAColumn));
    CHECK(*model.eventAt(M::RunAColumn) == d.a.event);
    CHECK_FALSE(model.eventAt(M::FieldColumn));

    // CONCISE_HEALTH counts no finite classes: those cells stay empty.
    core::Divergence concise = d;
    concise.a.health.detail = core::TensorHealth::Detail::Counts;
    model.setDivergence(concise);
    CHECK(text(model, M::ZeroRow, M::RunAColumn).isEmpty());
    CHECK(text(model, M::NaNRow, M::RunAColumn) == QStringLiteral("0"));

    model.setDivergence(core::Divergence{}); // kind None
    CHECK(model.rowCount() == 0);
}
