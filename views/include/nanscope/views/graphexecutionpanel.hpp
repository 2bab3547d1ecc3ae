// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's Graph Executions, for millions of rows: a virtual table of every traced tensor
// with a painted health breakdown, non-finite rows tinted, and the exact inputs of the focused
// row highlighted. Filters (non-finite only, graph, op type), find (Ctrl+F) and go to index
// (Ctrl+G) work on the snapshot's digests off the GUI thread.
#pragma once

#include "nanscope/core/tracequery.hpp"
#include "nanscope/views/tablepanel.hpp"

#include <QList>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;

namespace nanscope::items {
class GraphExecutionModel;
}
namespace nanscope::widgets {
class ToolRow;
} // namespace nanscope::widgets

namespace nanscope::views {

class PlaceFilters;

class GraphExecutionPanel : public TablePanel
{
    Q_OBJECT

public:
    explicit GraphExecutionPanel(Navigator* navigator, QWidget* parent = nullptr);
    ~GraphExecutionPanel() override;

    items::GraphExecutionModel* model() const { return m_model; }

    // The filters of the panel's tool row (the find text is not one of them).
    void setFilter(const core::TraceFilter& filter);
    const core::TraceFilter& filter() const { return m_filter; }
    // The trace shown in the current row, or -1.
    qint64 currentTrace() const;
    // The traces highlighted as inputs of the focused one, ascending.
    QList<quint64> highlightedInputs() const;
    // True while a filter or a search runs on a worker thread.
    bool isBusy() const;
    // The columns that say what a row is and whether it is healthy, in the order shown: #,
    // tensor (the op's name), health, op type. They are sized to fit the pane side by side.
    static QList<int> keyColumns();

public Q_SLOTS:
    // Finds the next (previous) trace whose op name or type contains `text`, among the rows the
    // filters show, and focuses it.
    void find(const QString& text, bool backward = false);
    // Focuses trace `index` (clearing filters that hide it); false when there is no such trace.
    bool goToIndex(quint64 index);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyFilter();
    void forgetLogdir();
    void showFocus(bool scroll);
    void updateInputs();
    void showCallTraces(std::vector<std::uint64_t> traces);
    void updateFilterChoices(const items::SnapshotPtr& snapshot);
    void showFilterInControls(); // m_filter, without applying it (m_updatingChoices is set)
    void updateStatus();
    void onCurrentRowChanged(const QModelIndex& current);
    // #, health and op type as wide as the rows on screen need; the tensor gets the rest of the
    // pane, less the details columns when they fit beside every op's own name. Once the user
    // sizes a key column, theirs stand (m_columns).
    void fitKeyColumns();
    int initialWidth(int column) const; // a column's width before any fit, by the font
    // The constructor's parts (graphexecutionpanelsetup.cpp).
    widgets::ToolRow* buildControls();
    void buildTable();
    void connectTable();
    void connectControls();

    items::GraphExecutionModel* m_model = nullptr;
    QCheckBox* m_nonFinite = nullptr;
    QComboBox* m_graph = nullptr;
    QComboBox* m_opType = nullptr;
    PlaceFilters* m_places = nullptr;

    core::TraceFilter m_filter;
    std::size_t m_knownOps = 0;
    std::size_t m_knownGraphs = 0;
    std::size_t m_knownDevices = 0;
    QString m_message; // a transient note shown instead of the row counts
    static constexpr std::size_t kMaxCallTraces = 1 << 20; // highlighted for one call at most
    bool m_applyingFocus = false;
    bool m_userMovedFocus = false; // the focus moves because of a click or a key in this table
    bool m_updatingChoices = false;
    int m_fittedDigits = 0; // of the row count the columns were fitted for

    class Jobs;
    std::unique_ptr<Jobs> m_jobs;
};

} // namespace nanscope::views
