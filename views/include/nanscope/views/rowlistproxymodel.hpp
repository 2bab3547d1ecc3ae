// SPDX-License-Identifier: GPL-3.0-or-later
// A flat proxy over a table with millions of rows that shows either every source row (no copy of
// row numbers at all) or a given list of them, ascending or in any order (a sort worked out on a
// worker thread), and tints chosen rows (the inputs of the focused trace). Unlike
// QSortFilterProxyModel it never asks the source for data to decide: the caller computes the rows
// from the snapshot (on a worker thread) and hands them over.
//
// Rows reach the views in batches, one per turn of the event loop: an item view keeps a few
// bytes per row in its header, and millions of rows at once would stall the window.
#pragma once

#include <QAbstractProxyModel>
#include <QColor>
#include <QSet>
#include <QTimer>
#include <optional>
#include <vector>

namespace nanscope::views {

class RowListProxyModel : public QAbstractProxyModel
{
    Q_OBJECT

public:
    static constexpr int kRevealBatch = 1 << 18; // rows per turn of the event loop
    static constexpr int kSyncReveal = 1 << 16;  // fewer new rows than this show at once

    explicit RowListProxyModel(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* sourceModel) override;

    // nullopt: every source row. Otherwise ascending source rows.
    void setRows(std::optional<std::vector<int>> rows);
    // Source rows in any order, with where each source row is among them (positionsOf).
    void setOrderedRows(std::vector<int> rows, std::vector<int> positions);
    // For setOrderedRows: the position of each of `sourceRows` rows in `rows`, -1 where absent.
    static std::vector<int> positionsOf(const std::vector<int>& rows, int sourceRows);
    // More ascending source rows, after the last one shown (an ascending list only).
    void appendRows(const std::vector<int>& rows);
    bool isFiltered() const { return m_rows.has_value(); }
    // False while rows the source (or the row list) has are still being revealed.
    bool allRowsShown() const { return m_shown >= totalRows(); }

    // Source rows painted with a highlight colour: what the focused event read (Debugger V2's
    // input yellow: the inputs of the focused trace, the producers of an execution's inputs),
    // and what read its outputs (`readerRows`: the consumers, blue), so that the two directions
    // tell apart. A row in both is painted as an input.
    void setHighlightedRows(const QSet<int>& sourceRows, const QSet<int>& readerRows = {});
    // Both kinds.
    const QSet<int>& highlightedRows() const { return m_highlighted; }
    static QColor inputBackground();
    static QColor readerBackground();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // While filtered, the source gained rows the row list does not cover yet.
    void sourceRowsAppended(int first, int last);
    // While filtered, the source was reset: the row list is empty until set again.
    void sourceReset();

private:
    int proxyRow(int sourceRow) const; // -1 when not shown
    int totalRows() const;             // rows to show once all are revealed
    void revealMore(bool now);         // a batch now if asked (or if small), the rest later
    void resetShown();
    void onSourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                             const QList<int>& roles);

    std::optional<std::vector<int>> m_rows;
    std::vector<int> m_positions; // of source rows in m_rows when it is not ascending, else empty
    int m_shown = 0;
    QTimer* m_revealTimer = nullptr;
    QSet<int> m_highlighted; // inputs and readers
    QSet<int> m_readers;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace nanscope::views
