// SPDX-License-Identifier: GPL-3.0-or-later
#include "filteredrows.hpp"

#include "nanscope/views/rowlistproxymodel.hpp"

namespace nanscope::views {

FilteredRows::FilteredRows(items::SnapshotTableModel* model, RowListProxyModel* proxy, Shown shown,
                           QObject* parent)
    : QObject(parent), m_model(model), m_proxy(proxy), m_shown(std::move(shown)),
      m_job([this](Result result) {
          deliver(result.generation, result.end, result.append, std::move(result.rows));
      })
{
    connect(proxy, &RowListProxyModel::sourceRowsAppended, this, &FilteredRows::extend);
    connect(proxy, &RowListProxyModel::sourceReset, this, &FilteredRows::rescan);
}

void FilteredRows::showAll()
{
    ++m_generation;
    m_covered = 0;
    m_scan = nullptr;
    m_job.cancel();
    if (m_proxy->isFiltered()) // a reset of a list that shows every row would lose its selection
        m_proxy->setRows(std::nullopt);
    Rows none;
    m_shown(Change::All, none);
}

void FilteredRows::scan(Scan scan, bool appendable)
{
    m_scan = std::move(scan);
    m_appendable = appendable;
    rescan();
}

void FilteredRows::rescan()
{
    if (!m_scan) {
        showAll();
        return;
    }
    ++m_generation;
    m_covered = 0;
    if (!m_model->snapshot()) {
        m_job.cancel();
        m_proxy->setRows(std::vector<int>());
        Rows none;
        m_shown(Change::Rows, none);
        return;
    }
    request(0, static_cast<std::uint64_t>(m_model->rowCount()), false); // may trail the snapshot
}

void FilteredRows::request(std::uint64_t begin, std::uint64_t end, bool append)
{
    m_job.request(m_model->snapshot(),
                  [scan = m_scan, generation = m_generation, begin, end,
                   append](const core::Snapshot& s, const std::atomic_bool& stop) {
                      return Result{generation, end, append, scan(s, begin, end, stop)};
                  });
}

void FilteredRows::extend()
{
    const auto end = static_cast<std::uint64_t>(m_model->rowCount());
    // A scan still running covers the new rows when it delivers; then this runs again.
    if (!m_scan || !m_model->snapshot() || !m_proxy->isFiltered() || !m_job.idle() ||
        m_covered >= end)
        return;
    if (!m_appendable) { // new rows land anywhere in a sorted list: sort again
        rescan();
        return;
    }
    request(m_covered, end, true); // only the new rows are scanned
}

void FilteredRows::deliver(quint64 generation, std::uint64_t end, bool append, Rows rows)
{
    if (generation != m_generation)
        return;
    if (append)
        m_proxy->appendRows(rows.rows);
    else if (rows.ordered)
        m_proxy->setOrderedRows(std::move(rows.rows), std::move(rows.positions));
    else
        m_proxy->setRows(std::move(rows.rows));
    m_covered = end;
    m_shown(append ? Change::Appended : Change::Rows, rows);
    extend();
}

} // namespace nanscope::views
