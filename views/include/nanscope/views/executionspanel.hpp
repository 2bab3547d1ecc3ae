// SPDX-License-Identifier: GPL-3.0-or-later
// Executions: every execution of the run (an eager op; every op of a PyTorch run) as a virtual
// table for millions of rows, as Graph Execution is for graph traces: the op type, the module it
// ran in, the outputs' health as a bar, non-finite rows tinted, and the producers and consumers
// of the focused execution highlighted (by tensor id, core/eagerneighbourhood.hpp). Filters
// (non-finite only, op type, module with its submodules), find (Ctrl+F), go to index (Ctrl+G)
// and the sort by a column are worked out from the snapshot's digests off the GUI thread.
// The main host's executions only: they are the ones the Navigator focuses. In a run of several
// hosts (a job's ranks) a host box asks for another host to be read as the main one.
#pragma once

#include "nanscope/items/executionquery.hpp"
#include "nanscope/views/tablepanel.hpp"

#include <QList>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace nanscope::items {
class ExecutionModel;
}

namespace nanscope::views {

class ExecutionsPanel : public TablePanel
{
    Q_OBJECT

public:
    explicit ExecutionsPanel(Navigator* navigator, QWidget* parent = nullptr);
    ~ExecutionsPanel() override;

    items::ExecutionModel* model() const { return m_model; }
    QCheckBox* nonFiniteBox() const { return m_nonFinite; }
    QComboBox* opTypeBox() const { return m_opType; }
    QComboBox* moduleBox() const { return m_module; }
    // Hidden unless the run has several hosts; the main host first.
    QComboBox* hostBox() const { return m_host; }

    // The filters of the tool row (the find text is not one of them).
    void setFilter(const items::ExecutionFilter& filter);
    const items::ExecutionFilter& filter() const { return m_filter; }
    // Sorts the rows by an ExecutionModel column (the index ascending: the run's order).
    void sortBy(int column, Qt::SortOrder order);
    // The execution shown in the current row, or -1.
    qint64 currentExecution() const;
    // The executions highlighted as producers or consumers of the focused one, ascending.
    QList<quint64> highlightedNeighbours() const;
    // True while rows, choices, a find or the neighbours are worked out off the GUI thread.
    bool isBusy() const;

Q_SIGNALS:
    // The user chose to list the executions of `host`: the logdir is to be read again with it
    // as the main host (items::LogdirSession::setMainHost).
    void hostRequested(const QString& host);

public Q_SLOTS:
    // Focuses the next (previous) execution, among the rows the filters show, whose op type or
    // module holds `text`.
    void find(const QString& text, bool backward = false);
    // Focuses execution `index` (clearing filters that hide it); false when there is none.
    bool goToIndex(quint64 index);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void requestRows();
    void forgetLogdir();
    void requestChoices();
    void showChoices(items::ExecutionChoices choices);
    void showHosts(const items::SnapshotPtr& snapshot);
    void showFilterInControls(); // m_filter, without applying it
    void showFocus();
    void requestNeighbours();
    void updateStatus();
    void onCurrentRowChanged(const QModelIndex& current);
    bool sorted() const;
    // #, op type, health and module as wide as the rows on screen need, up to a third of the
    // pane each; `growOnly`: none narrows (executionspanelsetup.cpp).
    void fitColumns(bool growOnly);
    // The constructor's parts (executionspanelsetup.cpp).
    QWidget* buildControls();
    void buildTable();
    void connectTable();
    void connectControls();

    items::ExecutionModel* m_model = nullptr;
    QCheckBox* m_nonFinite = nullptr;
    QComboBox* m_opType = nullptr;
    QComboBox* m_module = nullptr;
    QComboBox* m_host = nullptr;
    QLabel* m_empty = nullptr; // in place of the table when the run has no executions

    items::ExecutionFilter m_filter;
    int m_sortColumn = 0;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    items::ExecutionChoices m_choices;
    QString m_message;    // a note about the last go to, shown instead of the counts
    QString m_neighbours; // "2 producers, 1 consumer highlighted"
    bool m_applyingFocus = false;
    bool m_userMovedFocus = false;
    bool m_updatingChoices = false;

    class Jobs;
    std::unique_ptr<Jobs> m_jobs;
};

} // namespace nanscope::views
