// SPDX-License-Identifier: GPL-3.0-or-later
// A table view for large, read-only models (a UniformTableView: one row height, no per-row
// state), with a plain-text delegate, row selection, and Ctrl+C copying the selected rows as
// tab-separated text.
#pragma once

#include "nanscope/widgets/uniformtableview.hpp"

namespace nanscope::widgets {

class CopyableTableView : public UniformTableView
{
    Q_OBJECT

public:
    explicit CopyableTableView(QWidget* parent = nullptr);

    // The selected rows (or the current one) as text: cells of visible columns separated by
    // tabs, rows by newlines. What copy() and Ctrl+C put on the clipboard; a table of cells
    // rather than rows says otherwise.
    virtual QString selectionText() const;
    // Lets the header's context menu show and hide columns.
    void setColumnsMenuEnabled(bool enabled);

public Q_SLOTS:
    void copy();

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void showColumnsMenu(const QPoint& position);
};

} // namespace nanscope::widgets
