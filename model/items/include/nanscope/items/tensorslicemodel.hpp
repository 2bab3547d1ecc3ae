// SPDX-License-Identifier: GPL-3.0-or-later
// A 2-D slice of an N-D tensor as a table: two chosen dimensions are the rows and the columns,
// every other one is fixed at an index. Cells are converted when asked for (the tensor keeps its
// record's bytes), so a view of a tensor of millions of elements converts the screenful it shows.
// A 0-D tensor is one cell, a 1-D tensor one column.
#pragma once

#include "nanscope/core/tensordata.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace nanscope::items {

using TensorPtr = std::shared_ptr<const core::TensorData>;

class TensorSliceModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role {
        KindRole = FirstModelRole, // int: core::ElementKind (NaN, ±inf, zero, finite)
        HeatRole,      // double in [0, 1]: |value| / the largest finite |value|; finite cells only
        ValueRole,     // double
        ExactTextRole, // the value in full: the shortest text that reads back as the same value
        FlatIndexRole, // qulonglong: the element's row-major index
    };

    // A header keeps one section per column: the widest slice shown has this many columns (a
    // tensor of more along both dimensions shows its first ones; the rows have no such bound).
    static constexpr int kMaxColumns = 4096;

    explicit TensorSliceModel(QObject* parent = nullptr);

    // A new tensor (null: none): its last two dimensions as rows and columns (the larger one as
    // rows when the columns would pass kMaxColumns), every other dimension at index 0.
    void setTensor(TensorPtr tensor);
    const TensorPtr& tensor() const { return m_tensor; }

    // -1 where the tensor has no such dimension (a 0-D tensor has neither, a 1-D tensor no
    // columns dimension).
    int rowDimension() const { return m_rowDim; }
    int columnDimension() const { return m_columnDim; }
    // Two different dimensions of a tensor of rank 2 or more; false (nothing changes) otherwise.
    bool setDimensions(int rows, int columns);
    // The index of each dimension; those of the row and column dimensions are unused.
    const std::vector<std::int64_t>& fixedIndices() const { return m_fixed; }
    void setFixedIndex(int dimension, std::int64_t position);
    // Whether the slice has more columns than it shows (kMaxColumns).
    bool columnsCapped() const;

    // Moves the slice to element `flat` (its fixed indices; the dimensions swapped when its
    // column is past kMaxColumns) and returns its cell; invalid when there is no such element.
    QModelIndex revealElement(std::uint64_t flat);
    // The cell of element `flat` in the slice shown; invalid when it is not in it.
    QModelIndex indexOfElement(std::uint64_t flat) const;
    std::uint64_t flatIndex(const QModelIndex& index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // The dimensions or the fixed indices changed.
    void sliceChanged();

private:
    int rank() const;
    std::int64_t dimensionSize(int dimension) const;
    void updateBase();

    TensorPtr m_tensor;
    int m_rowDim = -1;
    int m_columnDim = -1;
    std::vector<std::int64_t> m_fixed;
    std::vector<std::uint64_t> m_strides; // row-major, in elements
    std::uint64_t m_base = 0;             // the flat index of cell (0, 0)
};

// The text of one value as a cell shows it: six significant digits, "NaN", "-inf", "+inf";
// integers and bools exactly.
QString shortValueText(const core::TensorData& tensor, std::uint64_t index);
// The value in full (ExactTextRole).
QString exactValueText(const core::TensorData& tensor, std::uint64_t index);

} // namespace nanscope::items
