// SPDX-License-Identifier: GPL-3.0-or-later
// The Executions table's model and the queries behind its filters, find and sort, over an
// eager-only logdir (EagerLogdir: seven ops a step in nn.Modules, NaN from step 1).
#include "eagerlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/executionquery.hpp"
#include "waituntil.hpp"

#include <QAbstractItemModelTester>
#include <atomic>
#include <catch2/catch.hpp>
#include <numeric>

using namespace nanscope;
using namespace nanscope::items;
using test::EagerLogdir;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

SnapshotPtr load(const EagerLogdir& logdir)
{
    REQUIRE(logdir.ok());
    core::LogdirReader reader(logdir.path().toStdString());
    SnapshotPtr snapshot = reader.update();
    REQUIRE(snapshot->readable());
    REQUIRE(snapshot->traceCount() == 0);
    REQUIRE(snapshot->executionCount() == logdir.executionCount());
    return snapshot;
}

QVariant cell(const ExecutionModel& m, std::uint64_t row, int column, int role = Qt::DisplayRole)
{
    return m.data(m.index(static_cast<int>(row), column), role);
}

std::vector<int> rowsOf(std::initializer_list<std::uint64_t> executions)
{
    std::vector<int> rows;
    for (const std::uint64_t e : executions)
        rows.push_back(static_cast<int>(e));
    return rows;
}

} // namespace

TEST_CASE("the execution model shows each execution's op, module and health", "[executions]")
{
    const EagerLogdir logdir(3, 1);
    const SnapshotPtr snapshot = load(logdir);
    ExecutionModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSnapshot(snapshot);
    REQUIRE(model.rowCount() == 21);
    REQUIRE(model.columnCount() == ExecutionModel::ColumnCount);
    const std::uint64_t log = EagerLogdir::execution(1, EagerLogdir::Log);
    CHECK(cell(model, log, ExecutionModel::IndexColumn).toULongLong() == log);
    // PyTorch's namespace goes from the cell, stays in the tooltip and the sort value.
    CHECK(cell(model, log, ExecutionModel::OpTypeColumn).toString() == QStringLiteral("log"));
    CHECK(cell(model, log, ExecutionModel::OpTypeColumn, SortRole).toString() ==
          QStringLiteral("aten::log"));
    CHECK(cell(model, log, ExecutionModel::ModuleColumn).toString() == QStringLiteral("Net.fc2"));
    CHECK(cell(model, EagerLogdir::execution(1, EagerLogdir::Mul), ExecutionModel::ModuleColumn)
              .toString()
              .isEmpty());
    CHECK(cell(model, log, ExecutionModel::HealthColumn).toString() == QStringLiteral("NaN, -inf"));
    CHECK(cell(model, log, 0, NonFiniteRole).toBool());
    CHECK(cell(model, log, 0, Qt::BackgroundRole).isValid());
    const std::uint64_t healthy = EagerLogdir::execution(0, EagerLogdir::Log);
    CHECK(cell(model, healthy, ExecutionModel::HealthColumn).toString() ==
          QStringLiteral("finite"));
    CHECK_FALSE(cell(model, healthy, 0, Qt::BackgroundRole).isValid());
    CHECK(cell(model, log, ExecutionModel::OutputsColumn).toUInt() == 1);
    // Seconds since the first execution: 0 for the first, never negative after it.
    CHECK(cell(model, 0, ExecutionModel::TimeColumn).toString() == QStringLiteral("0.000"));
    CHECK(cell(model, log, ExecutionModel::TimeColumn).toString().toDouble() >= 0);
    CHECK(cell(model, log, 0, Qt::ToolTipRole)
              .toString()
              .startsWith(QStringLiteral("aten::log in Net.fc2")));
    CHECK(model.headerData(ExecutionModel::ModuleColumn, Qt::Horizontal, Qt::DisplayRole) ==
          QStringLiteral("Module"));
}

TEST_CASE("an execution's record arrives later, off the GUI thread, with its counts",
          "[executions]")
{
    const EagerLogdir logdir(2, 1);
    ExecutionModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSnapshot(load(logdir));
    const std::uint64_t log = EagerLogdir::execution(1, EagerLogdir::Log);
    // The first ask reads nothing on this thread: the cells say what the digest knows.
    CHECK_FALSE(
        cell(model, log, ExecutionModel::HealthColumn, ExecutionModel::NanCountRole).isValid());
    CHECK(cell(model, log, ExecutionModel::DTypeColumn).toString().isEmpty());
    CHECK(model.isReadingRecords());
    REQUIRE(test::waitUntil([&] { return !model.isReadingRecords(); }));
    CHECK(cell(model, log, ExecutionModel::DTypeColumn).toString() == QStringLiteral("float32"));
    CHECK(cell(model, log, ExecutionModel::ElementsColumn).toULongLong() == 2);
    CHECK(cell(model, log, ExecutionModel::HealthColumn, ExecutionModel::NanCountRole).toDouble() ==
          1);
    CHECK(cell(model, log, ExecutionModel::HealthColumn, ExecutionModel::NegInfCountRole)
              .toDouble() == 1);
    CHECK(cell(model, log, ExecutionModel::HealthColumn, ExecutionModel::PositiveCountRole)
              .toDouble() == 0);
    CHECK(cell(model, log, ExecutionModel::HealthColumn, ExecutionModel::HealthTextRole)
              .toString()
              .contains(QStringLiteral("2 elements")));
    // Another logdir starts over: nothing of the first one's records is shown for it.
    const EagerLogdir other(1, 0);
    model.setSnapshot(load(other));
    CHECK(model.rowCount() == 7);
    CHECK_FALSE(
        cell(model, 4, ExecutionModel::HealthColumn, ExecutionModel::NanCountRole).isValid());
    REQUIRE(test::waitUntil([&] { return !model.isReadingRecords(); }));
    CHECK(cell(model, 4, ExecutionModel::HealthColumn, ExecutionModel::NanCountRole).toDouble() ==
          1);
}

TEST_CASE("execution filters go by health, op type and module subtree", "[executions]")
{
    const EagerLogdir logdir(3, 1);
    const SnapshotPtr s = load(logdir);
    const auto end = s->executionCount();
    using E = EagerLogdir;
    ExecutionFilter nonFinite{.nonFiniteOnly = true};
    CHECK(matchingExecutions(*s, nonFinite, 0, end) ==
          rowsOf({E::execution(1, E::Log), E::execution(1, E::Mul), E::execution(1, E::Mean),
                  E::execution(2, E::Log), E::execution(2, E::Mul), E::execution(2, E::Mean)}));
    ExecutionFilter linear{.opType = "aten::linear"};
    CHECK(matchingExecutions(*s, linear, 0, end).size() == 6);
    // A module takes its submodules, not a sibling whose name starts alike.
    ExecutionFilter fc1{.module = std::string("Net.fc1")};
    CHECK(matchingExecutions(*s, fc1, 0, end) ==
          rowsOf({E::execution(0, E::Fc1), E::execution(0, E::Act), E::execution(1, E::Fc1),
                  E::execution(1, E::Act), E::execution(2, E::Fc1), E::execution(2, E::Act)}));
    CHECK(inModule("Net.fc1.act", "Net.fc1"));
    CHECK_FALSE(inModule("Net.fc10", "Net.fc1"));
    ExecutionFilter outside{.module = std::string()};
    CHECK(matchingExecutions(*s, outside, 0, end).size() == 9); // randn, mul, mean × 3
    // Together: the non-finite executions of Net.fc2, in a range.
    ExecutionFilter both{.nonFiniteOnly = true, .module = std::string("Net.fc2")};
    CHECK(matchingExecutions(*s, both, 0, end) ==
          rowsOf({E::execution(1, E::Log), E::execution(2, E::Log)}));
    CHECK(matchingExecutions(*s, both, 0, E::execution(2, E::Randn)) ==
          rowsOf({E::execution(1, E::Log)}));
}

TEST_CASE("find steps through matches by op type or module, wrapping", "[executions]")
{
    const EagerLogdir logdir(3, 1);
    const SnapshotPtr s = load(logdir);
    const auto end = s->executionCount();
    using E = EagerLogdir;
    ExecutionFilter find{.text = "RELU"}; // case-insensitive
    CHECK(findExecution(*s, find, end, std::nullopt, false) == E::execution(0, E::Act));
    CHECK(findExecution(*s, find, end, E::execution(0, E::Act), false) == E::execution(1, E::Act));
    CHECK(findExecution(*s, find, end, E::execution(2, E::Act), false) == E::execution(0, E::Act));
    CHECK(findExecution(*s, find, end, E::execution(0, E::Act), true) == E::execution(2, E::Act));
    const ExecutionMatch at = executionMatchPosition(*s, find, end, E::execution(1, E::Act));
    CHECK(at.ordinal == 2);
    CHECK(at.total == 3);
    ExecutionFilter module{.text = "fc2"}; // a piece of a module path
    CHECK(findExecution(*s, module, end, std::nullopt, false) == E::execution(0, E::Fc2));
    ExecutionFilter none{.text = "conv"};
    CHECK_FALSE(findExecution(*s, none, end, std::nullopt, false).has_value());
}

TEST_CASE("execution rows sort by a digest column, stably, in either order", "[executions]")
{
    const EagerLogdir logdir(2, 1);
    const SnapshotPtr s = load(logdir);
    using E = EagerLogdir;
    using M = ExecutionModel;
    std::vector<int> all(14);
    std::iota(all.begin(), all.end(), 0);
    const std::atomic_bool stop{false};
    const auto byType = sortExecutions(*s, all, M::OpTypeColumn, Qt::AscendingOrder, stop);
    REQUIRE(byType);
    // aten::linear first (fc1 and fc2 of step 0, then of step 1: stable), aten::relu last.
    CHECK(std::vector<int>(byType->begin(), byType->begin() + 4) ==
          rowsOf({E::execution(0, E::Fc1), E::execution(0, E::Fc2), E::execution(1, E::Fc1),
                  E::execution(1, E::Fc2)}));
    CHECK(byType->back() == static_cast<int>(E::execution(1, E::Act)));
    // Executions outside modules come last in both orders.
    for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
        const auto byModule = sortExecutions(*s, all, M::ModuleColumn, order, stop);
        REQUIRE(byModule);
        for (std::size_t i = 0; i < byModule->size(); ++i)
            CHECK(s->execution(static_cast<std::uint64_t>((*byModule)[i])).modulePath.empty() ==
                  (i >= 8));
        CHECK(s->execution(static_cast<std::uint64_t>(byModule->front())).modulePath ==
              (order == Qt::AscendingOrder ? "Net.fc1" : "Net.fc2"));
    }
    const auto byIndex = sortExecutions(*s, all, M::IndexColumn, Qt::DescendingOrder, stop);
    REQUIRE(byIndex);
    CHECK(byIndex->front() == 13);
    CHECK_FALSE(sortExecutions(*s, all, M::DTypeColumn, Qt::AscendingOrder, stop));
    const std::atomic_bool stopped{true};
    CHECK_FALSE(sortExecutions(*s, all, M::OpTypeColumn, Qt::AscendingOrder, stopped));
}

TEST_CASE("the filter choices list op types and a module tree with counts", "[executions]")
{
    const EagerLogdir logdir(3, 1);
    const SnapshotPtr s = load(logdir);
    ExecutionChoices choices;
    // In two scans, as a followed logdir grows: the counts add up.
    REQUIRE(scanExecutionChoices(*s, 7, choices));
    REQUIRE(scanExecutionChoices(*s, s->executionCount(), choices));
    CHECK(choices.scanned == 21);
    CHECK(choices.outsideModules == 9);
    std::vector<std::string> types;
    for (const auto& t : choices.opTypes)
        types.push_back(t.name);
    CHECK(types == std::vector<std::string>{"aten::linear", "aten::log", "aten::mean", "aten::mul",
                                            "aten::randn", "aten::relu"});
    std::vector<std::string> modules;
    for (const auto& m : choices.modules)
        modules.push_back(m.name);
    // "Net" was never a module path of its own: it is there as their parent.
    CHECK(modules == std::vector<std::string>{"Net", "Net.fc1", "Net.fc1.act", "Net.fc2"});
    CHECK(choices.modules[0].executions == 12);
    CHECK(choices.modules[0].nonFinite == 2);
    CHECK(choices.modules[1].executions == 6); // with its act
    CHECK(choices.modules[3].nonFinite == 2);
    const std::atomic_bool stopped{true};
    ExecutionChoices none;
    CHECK_FALSE(scanExecutionChoices(*s, s->executionCount(), none, &stopped));
    CHECK(none.scanned == 0);
}
