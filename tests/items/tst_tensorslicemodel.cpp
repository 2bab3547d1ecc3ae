// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensor panel's model: a 2-D slice of an N-D tensor under QAbstractItemModelTester, its
// dimensions and fixed indices, the marks of NaN, ±inf and zero, the heat map, and the jump to an
// element.
#include "nanscope/items/tensorslicemodel.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace nanscope;
using namespace nanscope::items;
using Tester = QAbstractItemModelTester;
using core::ElementKind;

namespace {

constexpr auto kFatal = Tester::FailureReportingMode::Fatal;

TensorPtr floatTensor(std::vector<float> values, const std::vector<std::int64_t>& shape)
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_FLOAT);
    for (const std::int64_t size : shape)
        t.mutable_tensor_shape()->add_dim()->set_size(size);
    t.set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
    std::string bytes = t.SerializeAsString();
    const std::size_t size = bytes.size();
    auto tensor = core::tensorDataFromProto(std::move(bytes), 0, size);
    REQUIRE(tensor);
    return std::make_shared<const core::TensorData>(std::move(*tensor.value));
}

// [2, 3, 4]: element i holds i, but for a zero at [0, 0, 0], -inf at [0, 1, 0] (4) and NaN at
// [1, 2, 3] (23).
TensorPtr cube()
{
    std::vector<float> values(24);
    std::iota(values.begin(), values.end(), 0.0F);
    values[4] = -std::numeric_limits<float>::infinity();
    values[23] = std::numeric_limits<float>::quiet_NaN();
    return floatTensor(values, {2, 3, 4});
}

int kind(const QAbstractItemModel& model, int row, int column)
{
    return model.index(row, column).data(TensorSliceModel::KindRole).toInt();
}

} // namespace

TEST_CASE("a 3-D tensor shows its last two dimensions, the first fixed", "[models][tensor]")
{
    TensorSliceModel model;
    Tester tester(&model, kFatal);
    CHECK(model.rowCount() == 0);
    model.setTensor(cube());
    CHECK(model.rowDimension() == 1);
    CHECK(model.columnDimension() == 2);
    REQUIRE(model.rowCount() == 3);
    REQUIRE(model.columnCount() == 4);
    CHECK(model.index(1, 2).data().toString() == QStringLiteral("6"));
    CHECK(kind(model, 0, 0) == static_cast<int>(ElementKind::Zero));
    CHECK(kind(model, 1, 0) == static_cast<int>(ElementKind::NegativeInfinity));
    CHECK(model.index(1, 0).data().toString() == QStringLiteral("-inf"));
    CHECK(kind(model, 1, 1) == static_cast<int>(ElementKind::Finite));
    // The heat map is over finite values: 22 is the largest magnitude.
    CHECK(model.index(2, 3).data(TensorSliceModel::HeatRole).toDouble() == Approx(11.0 / 22));
    CHECK_FALSE(model.index(1, 0).data(TensorSliceModel::HeatRole).isValid());
    CHECK(model.index(2, 3).data(Qt::ToolTipRole).toString() == QStringLiteral("[0, 2, 3] = 11"));
    CHECK(model.headerData(3, Qt::Horizontal).toString() == QStringLiteral("3"));

    SECTION("a fixed index moves the slice without a reset")
    {
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setFixedIndex(0, 1);
        CHECK(resets.isEmpty());
        CHECK(changed.size() == 1);
        CHECK(kind(model, 2, 3) == static_cast<int>(ElementKind::NaN));
        CHECK(model.index(2, 3).data().toString() == QStringLiteral("NaN"));
        CHECK(model.flatIndex(model.index(2, 3)) == 23);
        model.setFixedIndex(0, 99); // clamped to the last index
        CHECK(model.fixedIndices()[0] == 1);
        model.setFixedIndex(1, 2); // the rows' dimension: no fixed index
        CHECK(model.fixedIndices()[1] == 0);
    }
    SECTION("other dimensions as rows and columns")
    {
        CHECK_FALSE(model.setDimensions(1, 1));
        CHECK_FALSE(model.setDimensions(0, 3));
        REQUIRE(model.setDimensions(0, 2));
        CHECK(model.rowCount() == 2);
        CHECK(model.columnCount() == 4);
        model.setFixedIndex(1, 2);
        CHECK(model.index(1, 3).data(TensorSliceModel::FlatIndexRole).toULongLong() == 23);
    }
    SECTION("revealing an element moves the slice to it")
    {
        const QModelIndex nan = model.revealElement(23);
        REQUIRE(nan.isValid());
        CHECK(nan.row() == 2);
        CHECK(nan.column() == 3);
        CHECK(model.fixedIndices()[0] == 1);
        CHECK(model.indexOfElement(4) == QModelIndex()); // in the other slice now
        CHECK_FALSE(model.revealElement(24).isValid());
    }
    SECTION("a new tensor resets the slice")
    {
        model.setFixedIndex(0, 1);
        model.setTensor(cube());
        CHECK(model.fixedIndices()[0] == 0);
        model.setTensor(nullptr);
        CHECK(model.rowCount() == 0);
        CHECK(model.columnCount() == 0);
    }
}

TEST_CASE("0-D and 1-D tensors show one column", "[models][tensor]")
{
    TensorSliceModel model;
    Tester tester(&model, kFatal);
    model.setTensor(floatTensor({2.5F}, {}));
    CHECK(model.rowDimension() == -1);
    CHECK(model.rowCount() == 1);
    CHECK(model.columnCount() == 1);
    CHECK(model.index(0, 0).data().toString() == QStringLiteral("2.5"));
    CHECK(model.headerData(0, Qt::Horizontal).toString() == QStringLiteral("value"));
    CHECK(model.revealElement(0) == model.index(0, 0));

    model.setTensor(floatTensor({0.1F, 0.0F, 1e-7F}, {3}));
    CHECK(model.rowDimension() == 0);
    CHECK(model.columnDimension() == -1);
    CHECK(model.rowCount() == 3);
    CHECK(model.columnCount() == 1);
    CHECK(model.index(0, 0).data(TensorSliceModel::ExactTextRole).toString() ==
          QStringLiteral("0.1"));
    CHECK(model.index(2, 0).data().toString() == QStringLiteral("1e-07"));
    CHECK_FALSE(model.setDimensions(0, 1));

    model.setTensor(floatTensor({}, {0, 3}));
    CHECK(model.rowCount() == 0);
}

TEST_CASE("a slice wider than a header can hold shows its long dimension as rows",
          "[models][tensor]")
{
    const int wide = TensorSliceModel::kMaxColumns + 10;
    std::vector<float> values(static_cast<std::size_t>(2 * wide), 1.0F);
    values[static_cast<std::size_t>(wide + wide - 1)] = std::numeric_limits<float>::infinity();
    TensorSliceModel model;
    Tester tester(&model, kFatal);
    model.setTensor(floatTensor(values, {2, wide}));
    CHECK(model.rowDimension() == 1);
    CHECK(model.columnDimension() == 0);
    CHECK(model.rowCount() == wide);
    CHECK(model.columnCount() == 2);
    CHECK_FALSE(model.columnsCapped());

    // Asked for the other way, it shows the first kMaxColumns columns, and a jump past them
    // turns it back.
    REQUIRE(model.setDimensions(0, 1));
    CHECK(model.columnCount() == TensorSliceModel::kMaxColumns);
    CHECK(model.columnsCapped());
    const QModelIndex inf = model.revealElement(static_cast<std::uint64_t>(2 * wide - 1));
    REQUIRE(inf.isValid());
    CHECK(model.rowDimension() == 1);
    CHECK(inf.row() == wide - 1);
    CHECK(inf.column() == 1);
    CHECK(kind(model, inf.row(), inf.column()) == static_cast<int>(ElementKind::PositiveInfinity));
}
