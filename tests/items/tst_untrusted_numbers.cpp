// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers from a file are checked before they are shown: a summary vector may hold -1, NaN, ±inf,
// 1e308 or 2^53 + 1 where a count belongs, and converting those to integers is undefined.
#include "logdirbuilder.hpp"
#include "nanscope/core/health.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"

#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace nanscope;

TEST_CASE("only exact counts become integers", "[numbers]")
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (const double bad : {-1.0, -0.5, 0.5, std::nan(""), inf, -inf, 1e308, 9007199254740993.0})
        CHECK_FALSE(core::exactCount(bad));
    CHECK(core::exactCount(0.0) == 0u);
    CHECK(core::exactCount(1000.0) == 1000u);
    CHECK(core::exactCount(9007199254740991.0) == 9007199254740991u);
}

TEST_CASE("counts that are not counts are shown as invalid, not as wrapped integers", "[numbers]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    constexpr double inf = std::numeric_limits<double>::infinity();
    // CONCISE_HEALTH: id, size, -inf, +inf, NaN counts.
    set.append("graph_execution_traces",
               test::events::trace(1.0, "g", "r", 0, 3,
                                   test::events::summary({1, -1, 1e308, 9007199254740993.0, inf})));
    core::LogdirReader reader(dir.path());
    const items::SnapshotPtr snapshot = reader.update();
    REQUIRE(snapshot->alertCount() == 1);

    items::AlertModel alerts;
    QAbstractItemModelTester alertTester(&alerts,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    alerts.setSnapshot(snapshot);
    REQUIRE(alerts.rowCount() == 1);
    const auto cell = [&](int column) {
        return alerts.data(alerts.index(0, column), Qt::DisplayRole).toString();
    };
    // The summary as a whole is invalid (its counts are not counts): every count says so.
    CHECK(cell(items::AlertModel::SizeColumn) == QStringLiteral("invalid summary (-1)"));
    CHECK(cell(items::AlertModel::NegInfColumn) == QStringLiteral("invalid summary (1e+308)"));
    CHECK(cell(items::AlertModel::PosInfColumn).startsWith(QStringLiteral("invalid summary (")));
    CHECK(cell(items::AlertModel::NanColumn) == QStringLiteral("invalid summary (inf)"));
    for (int column = 0; column < items::AlertModel::ColumnCount; ++column)
        CHECK_FALSE(cell(column).contains(QStringLiteral("18446744073709551615")));

    items::GraphExecutionModel traces;
    QAbstractItemModelTester traceTester(&traces,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    traces.setSnapshot(snapshot);
    REQUIRE(traces.rowCount() == 1);
    CHECK(traces.data(traces.index(0, items::GraphExecutionModel::ShapeColumn)).toString() ==
          QStringLiteral("invalid summary"));
    CHECK(traces
              .data(traces.index(0, items::GraphExecutionModel::HealthColumn),
                    items::GraphExecutionModel::HealthTextRole)
              .toString() ==
          QStringLiteral("invalid summary: the element count -1 is not a count (negative)"));
}
