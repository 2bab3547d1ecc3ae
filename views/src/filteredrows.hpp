// SPDX-License-Identifier: GPL-3.0-or-later
// The rows a table panel shows of its model, as a scan of the snapshot works them out off the
// GUI thread (a filter, a sort): every row without one, the scan's rows with one. While the
// model grows, a list in the model's order gets the new rows' matches appended, a sorted one is
// worked out again; a reset model is scanned again. Only the newest request's rows are shown.
#pragma once

#include "nanscope/items/snapshottablemodel.hpp"
#include "snapshotjob.hpp"

#include <QObject>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace nanscope::views {

class RowListProxyModel;

class FilteredRows : public QObject
{
    Q_OBJECT

public:
    struct Rows
    {
        std::vector<int> rows;      // model rows as shown
        std::vector<int> positions; // when `ordered`: RowListProxyModel::positionsOf(rows)
        bool ordered = false;       // in another order than the model's
        std::vector<int> matching;  // for the panel: the rows that pass its filters, ascending
    };
    // Model rows [begin, end) in the model's order, or with `ordered` rows, all of [0, end).
    // Runs on a worker thread: it captures values only. What it returns once stopped is never
    // shown (a newer request or a cancel stopped it).
    using Scan = std::function<Rows(const core::Snapshot& snapshot, std::uint64_t begin,
                                    std::uint64_t end, const std::atomic_bool& stop)>;
    // What changed in the proxy: every row shown, a new list, or rows appended to it.
    enum class Change { All, Rows, Appended };
    using Shown = std::function<void(Change change, Rows& rows)>;

    FilteredRows(items::SnapshotTableModel* model, RowListProxyModel* proxy, Shown shown,
                 QObject* parent);

    // Every model row, in its order: no scan at all.
    void showAll();
    // The rows `scan` finds, once found; nothing shows until then (for a model without a
    // snapshot, nothing at all). `appendable`: the scan of new rows extends the list.
    void scan(Scan scan, bool appendable);
    // False while a scan runs.
    bool idle() const { return m_job.idle(); }
    // The model rows the shown list covers (0 while the first scan runs).
    std::uint64_t covered() const { return m_covered; }

private:
    void request(std::uint64_t begin, std::uint64_t end, bool append);
    void deliver(quint64 generation, std::uint64_t end, bool append, Rows rows);
    void extend();
    void rescan();

    struct Result
    {
        quint64 generation = 0;
        std::uint64_t end = 0;
        bool append = false;
        Rows rows;
    };

    items::SnapshotTableModel* m_model;
    RowListProxyModel* m_proxy;
    Shown m_shown;
    Scan m_scan; // null while every row shows
    bool m_appendable = false;
    quint64 m_generation = 0;
    std::uint64_t m_covered = 0;
    SnapshotJob<Result> m_job;
};

} // namespace nanscope::views
