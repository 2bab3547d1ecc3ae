// SPDX-License-Identifier: GPL-3.0-or-later
// What a panel that lists a run's events as a table for millions of rows (Executions, Graph
// Execution) is made of besides its own model and filters: the table over a row list, its health
// column painted as bars, find and "Go to #", the columns fitted until the user sizes them, the
// rows a filter shows, and the status line of its tool row.
#pragma once

#include "nanscope/views/panel.hpp"

class QAbstractItemModel;
class QLabel;
class QLineEdit;

namespace nanscope::widgets {
class CopyableTableView;
class FindBar;
class FittedColumns;
class HealthBarDelegate;
} // namespace nanscope::widgets

namespace nanscope::views {

class FilteredRows;
class RowListProxyModel;
class TableSearch;

class TablePanel : public Panel
{
    Q_OBJECT

public:
    ~TablePanel() override;

    widgets::CopyableTableView* view() const { return m_view; }
    RowListProxyModel* proxy() const { return m_proxy; }
    widgets::FindBar* findBar() const;
    QLineEdit* goToEdit() const;
    widgets::HealthBarDelegate* healthDelegate() const { return m_healthDelegate; }
    // The tool row's status ("6 of 21 rows", "No execution #99 (the last is #20)").
    QString statusText() const;

public Q_SLOTS:
    void activateFind();
    void activateGoTo();

protected:
    // `findTip` and `goToTip`: what the find bar and the "Go to #" field are for.
    TablePanel(Navigator* navigator, const QString& findTip, const QString& goToTip,
               QWidget* parent);

    // The table, over `model` through the row list, with the health column painted as bars of
    // the counts from `negInfCountRole` on; the panel adds its columns' delegates and widths.
    void createTable(QAbstractItemModel* model, int healthColumn, int negInfCountRole);

    RowListProxyModel* m_proxy = nullptr;
    widgets::CopyableTableView* m_view = nullptr;
    widgets::HealthBarDelegate* m_healthDelegate = nullptr;
    TableSearch* m_search = nullptr;
    FilteredRows* m_rows = nullptr;
    widgets::FittedColumns* m_columns = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace nanscope::views
