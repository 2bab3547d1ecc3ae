// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's Alerts, with what it lacks: every alert in a sortable list, next/previous, and
// the root cause (the op that made the first NaN or ∞ from finite inputs) with a hint on why.
// Double-clicking an alert (or Enter) focuses its op in every panel. Alerts whose values the
// program made on purpose, or an uninitialised tensor's bits (core/intent.hpp), are set aside:
// not counted, hidden unless the header's "Intended" toggle shows them, dimmed when shown.
#pragma once

#include "nanscope/core/alertfilter.hpp"
#include "nanscope/views/panel.hpp"

#include <QElapsedTimer>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QModelIndex;
class QToolButton;

namespace nanscope::items {
class AlertModel;
}
namespace nanscope::widgets {
class ChipLabel;
class CopyableTableView;
class FittedColumns;
class ToolRow;
} // namespace nanscope::widgets

namespace nanscope::views {

class FilteredRows;
class OriginBox;
class PlaceFilters;
class RowListProxyModel;

class AlertsPanel : public Panel
{
    Q_OBJECT

public:
    explicit AlertsPanel(Navigator* navigator, QWidget* parent = nullptr);
    ~AlertsPanel() override;

    widgets::CopyableTableView* view() const;
    items::AlertModel* model() const { return m_model; }
    // The list as shown (sorted as the user chose).
    QAbstractItemModel* proxy() const;

    // Whether the origin (root cause) is known for the current snapshot.
    bool hasOrigin() const { return m_hasOrigin; }
    // The origin box as plain text (title, cause, fix, what was set aside), empty when it is
    // hidden.
    QString originText() const;
    // Alerts set aside as intended or uninitialised (0 until the analysis is done), and whether
    // the list shows them.
    quint64 setAsideAlertCount() const { return m_setAsideAlerts; }
    // Non-finite events set aside (alerts or not), for "no origin" messages.
    quint64 setAsideEventCount() const { return m_setAsideEvents; }
    bool showsSetAside() const { return m_showSetAside; }
    QToolButton* setAsideToggle() const { return m_setAsideToggle; }
    // The pattern "Treat as Expected" adds for row `row` of the list as shown: the op's type and
    // the kinds of non-finite value its tensor holds ("aten::log:-inf"); empty for no row.
    QString expectedPatternForRow(int row) const;
    // The alert counts as shown in the header ("NaN/∞ 34", "NaN 12" …).
    QStringList countTexts() const;
    // True while the origin and the counts are being worked out on a worker thread.
    bool isBusy() const;

    // Which alerts the list shows: the header's badges set it (TensorBoard's entry point, the
    // alert type).
    enum class KindFilter { All, NaN, NegativeInfinity, PositiveInfinity };
    KindFilter kindFilter() const { return m_kindFilter; }
    // The host whose alerts the list shows (an index into the logdir's file sets); all when
    // unset. The choice is in the header for logdirs of several hosts; likewise devices.
    std::optional<std::uint32_t> hostFilter() const { return m_filter.host; }
    std::optional<std::string> deviceFilter() const { return m_filter.device; }
    QString textFilter() const;

public Q_SLOTS:
    // Focuses the alert in row `row` of the list as shown (sorted): what a double-click does.
    void activateRow(int row);
    // The next and previous alert in execution order (wall time), whatever the list's sort,
    // among those the kind filter shows; wraps around.
    void nextAlert();
    void previousAlert();
    // Shows only the alerts of one kind and focuses the first of them in execution order, as a
    // click on its badge does; All shows every alert again.
    void setKindFilter(KindFilter filter);
    void setHostFilter(std::optional<std::uint32_t> host);
    void setDeviceFilter(std::optional<std::string> device);
    // Only the alerts whose op's name or type holds `text` (case-insensitive).
    void setTextFilter(const QString& text);
    bool goToOrigin();
    // Lists (dimmed) or hides the alerts that were set aside, as the header's toggle does.
    void setShowSetAside(bool show);
    // The context menu's "Treat as Expected" for row `row` of the list as shown.
    void treatRowAsExpected(int row);

Q_SIGNALS:
    void originChanged(bool available);
    // The user asked that values like those of an alert be set aside from now on: the window
    // keeps the pattern (core::ExpectedPattern's text) and reads the logdir again.
    void treatAsExpectedRequested(const QString& pattern);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    struct Analysis;
    // The constructor's parts (alertspanelsetup.cpp).
    widgets::ToolRow* buildHeader();
    void buildBadges(QHBoxLayout* chips);
    void buildFilters(QHBoxLayout* filters);
    void buildTable();
    void connectParts();
    void forgetLogdir(const items::SnapshotPtr& snapshot);
    void showAnalysis(const Analysis& analysis);
    void stepAlert(int delta);
    void requestRows();
    void showRows();
    bool filtering() const;
    bool hidingSetAside() const;
    void showContextMenu(const QPoint& position);
    void updateSetAsideToggle();
    bool sorted() const;
    bool passesFilter(int modelRow) const;
    void refilter();
    void updateChipStates();
    int rowForEvent(const core::EventRef& event) const; // model row, or -1
    int modelRow(const QModelIndex& shown) const;       // -1 when none
    QModelIndex shownIndex(int modelRow) const;
    void sortBy(int column, Qt::SortOrder order);
    void updateEmptyState();
    void fitColumns(); // in an eager-only run: op types and counts as wide as they need
    void updateListMinimumWidth();

    items::AlertModel* m_model = nullptr;
    // The filtered and sorted rows, worked out off the GUI thread.
    RowListProxyModel* m_rows = nullptr;
    FilteredRows* m_filtered = nullptr;
    widgets::FittedColumns* m_columns = nullptr;
    widgets::CopyableTableView* m_view = nullptr;
    widgets::ChipLabel* m_total = nullptr;
    widgets::ChipLabel* m_nan = nullptr;
    widgets::ChipLabel* m_negInf = nullptr;
    widgets::ChipLabel* m_posInf = nullptr;
    OriginBox* m_originBox = nullptr;
    QLabel* m_empty = nullptr;
    QElapsedTimer m_sinceListUpdate;
    bool m_hasOrigin = false;
    QToolButton* m_setAsideToggle = nullptr;
    bool m_showSetAside = false;
    quint64 m_setAsideAlerts = 0; // of the latest analysis
    quint64 m_setAsideEvents = 0;
    bool m_applyingFocus = false;
    KindFilter m_kindFilter = KindFilter::All;
    core::AlertFilter m_filter; // what the kind, host, device and text choices make
    PlaceFilters* m_places = nullptr;
    QLineEdit* m_text = nullptr;
    std::vector<int> m_filterRows; // model rows that pass the filters, ascending
    int m_sortColumn = 0;          // items::AlertModel::IndexColumn: the model's own order
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_focusFirstOfKind = false; // after the user's click, once the rows arrive
    std::size_t m_stepPosition = 0;  // where the last step was in execution order

    class Jobs;
    std::unique_ptr<Jobs> m_jobs;
};

} // namespace nanscope::views
