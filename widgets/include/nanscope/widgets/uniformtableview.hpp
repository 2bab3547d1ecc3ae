// SPDX-License-Identifier: GPL-3.0-or-later
// A table view for flat models of millions of rows, all of one height. QTableView keeps one
// section per row in its vertical header, even hidden: at 10 M rows that is ~120 MiB, and every
// batch of appended rows made it walk all of them (QHeaderView::sectionsInserted, then
// visualIndexAt), an O(rows) cost on the GUI thread for each snapshot of a load. Here a row's
// place is arithmetic (row × height), the vertical scroll bar counts rows (so 10^8 rows never
// overflow a pixel offset), and only the columns have a header. Appending rows costs O(1).
//
// What it keeps of QTableView's interface: the horizontal header (sizes, order, hiding, sort
// indicator), row and column geometry, row selection, keyboard and mouse navigation, tooltips
// through the delegates.
#pragma once

#include <QAbstractItemView>

class QHeaderView;

namespace nanscope::widgets {

class UniformTableView : public QAbstractItemView
{
    Q_OBJECT

public:
    explicit UniformTableView(QWidget* parent = nullptr);
    ~UniformTableView() override;

    void setModel(QAbstractItemModel* model) override;

    QHeaderView* horizontalHeader() const { return m_header; }
    // A column of row numbers at the left (the model's vertical headerData), off by default: a
    // QHeaderView would keep a section per row, this paints the rows on screen only.
    void setRowHeaderVisible(bool visible);
    bool isRowHeaderVisible() const;

    int rowHeight() const { return m_rowHeight; }
    void setRowHeight(int pixels);

    // The row at a viewport y (-1 past the last row or above the first), and the viewport y of
    // a row's top (may lie outside the viewport).
    int rowAt(int y) const;
    int rowViewportPosition(int row) const;
    int columnAt(int x) const;
    int columnViewportPosition(int column) const;
    int columnWidth(int column) const;
    void setColumnWidth(int column, int width);
    bool isColumnHidden(int column) const;
    void setColumnHidden(int column, bool hide);
    void hideColumn(int column) { setColumnHidden(column, true); }
    void showColumn(int column) { setColumnHidden(column, false); }
    // Shows the sort indicator on `column`; whoever sorts listens to the header's
    // sortIndicatorChanged (a click on a clickable section changes it too).
    void sortByColumn(int column, Qt::SortOrder order);
    void selectRow(int row);
    // The first row at the top of the viewport, and how many rows fit in it wholly.
    int firstVisibleRow() const;
    int fullyVisibleRows() const;

    QRect visualRect(const QModelIndex& index) const override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;
    QModelIndex indexAt(const QPoint& point) const override;

protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;
    int horizontalOffset() const override;
    int verticalOffset() const override;
    bool isIndexHidden(const QModelIndex& index) const override;
    void setSelection(const QRect& rect, QItemSelectionModel::SelectionFlags command) override;
    QRegion visualRegionForSelection(const QItemSelection& selection) const override;
    void updateGeometries() override;
    void scrollContentsBy(int dx, int dy) override;
    void paintEvent(QPaintEvent* event) override;
    void rowsInserted(const QModelIndex& parent, int start, int end) override;
    void dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                     const QList<int>& roles = {}) override;
    void currentChanged(const QModelIndex& current, const QModelIndex& previous) override;

private:
    class RowHeader;
    int rowCount() const;
    int rowHeaderWidth() const;
    // The row of a viewport y, not clamped: rows above the viewport are below firstVisibleRow().
    qint64 unclampedRowAt(int y) const;
    void rowsChanged();

    QHeaderView* m_header = nullptr;
    RowHeader* m_rowHeader = nullptr;
    int m_rowHeight = 0;
    QList<QMetaObject::Connection> m_modelConnections;
};

} // namespace nanscope::widgets
