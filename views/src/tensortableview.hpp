// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensor panel's table: a CopyableTableView of cells (not rows) with row numbers, its cells
// coloured by TensorCellDelegate, and Ctrl+C (or Edit › Copy) copying the selected cells as
// tab-separated text, each value in full.
#pragma once

#include "nanscope/widgets/copyabletableview.hpp"

namespace nanscope::views {

class TensorCellDelegate;

class TensorTableView : public widgets::CopyableTableView
{
    Q_OBJECT

public:
    // Copies stop at this many cells: a select-all of millions of rows is not put on the
    // clipboard whole.
    static constexpr qint64 kMaxCopiedCells = 1'000'000;

    explicit TensorTableView(QWidget* parent = nullptr);

    TensorCellDelegate* cellDelegate() const { return m_delegate; }
    // The selected cells (or the current one) as text: the rectangle around them, a line per
    // row, cells separated by tabs, cells outside the selection empty.
    QString selectionText() const override;
    // Makes `index` current and selected, in the middle of the viewport, with whole columns at
    // the left edge: a column cut there reads as digits of the row numbers beside it.
    void centerOn(const QModelIndex& index);

private:
    TensorCellDelegate* m_delegate;
};

} // namespace nanscope::views
