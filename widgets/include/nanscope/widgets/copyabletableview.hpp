// SPDX-License-Identifier: GPL-3.0-or-later
// A table view for large, read-only models: uniform row heights, no grid, a plain-text delegate,
// and Ctrl+C copying the selected rows as tab-separated text.
#pragma once

#include <QTableView>

namespace nanscope::widgets {

class CopyableTableView : public QTableView
{
    Q_OBJECT

public:
    explicit CopyableTableView(QWidget* parent = nullptr);

    // The selected rows (or the current one) as text: cells of visible columns separated by
    // tabs, rows by newlines.
    QString selectionText() const;
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
