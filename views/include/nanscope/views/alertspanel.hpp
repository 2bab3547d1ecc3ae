// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's Alerts, with what it lacks: every alert in a sortable list, next/previous, and
// the root cause (the op that made the first NaN or ∞ from finite inputs) with a hint on why.
// Double-clicking an alert (or Enter) focuses its op in every panel.
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
class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;

namespace nanscope::items {
class AlertModel;
}
namespace nanscope::widgets {
class ChipLabel;
class CopyableTableView;
} // namespace nanscope::widgets

namespace nanscope::views {

class OriginBox;
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
    // The origin box as plain text (title, cause, fix), empty when there is none.
    QString originText() const;
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

Q_SIGNALS:
    void originChanged(bool available);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    struct Analysis;
    struct ShownRows;
    void showAnalysis(const Analysis& analysis);
    void stepAlert(int delta);
    void requestRows();
    void showRows(ShownRows rows);
    bool filtering() const;
    bool sorted() const;
    bool passesFilter(int modelRow) const;
    void refilter();
    void updateChipStates();
    int rowForEvent(const core::EventRef& event) const; // model row, or -1
    int modelRow(const QModelIndex& shown) const;       // -1 when none
    QModelIndex shownIndex(int modelRow) const;
    void sortBy(int column, Qt::SortOrder order);
    void updateEmptyState();
    void updateListMinimumWidth();

    items::AlertModel* m_model = nullptr;
    // The filtered and sorted rows, worked out off the GUI thread.
    RowListProxyModel* m_rows = nullptr;
    widgets::CopyableTableView* m_view = nullptr;
    widgets::ChipLabel* m_total = nullptr;
    widgets::ChipLabel* m_nan = nullptr;
    widgets::ChipLabel* m_negInf = nullptr;
    widgets::ChipLabel* m_posInf = nullptr;
    OriginBox* m_originBox = nullptr;
    QLabel* m_empty = nullptr;
    QElapsedTimer m_sinceListUpdate;
    bool m_hasOrigin = false;
    bool m_applyingFocus = false;
    KindFilter m_kindFilter = KindFilter::All;
    core::AlertFilter m_filter; // what the kind, host, device and text choices make
    QComboBox* m_host = nullptr;
    QComboBox* m_device = nullptr;
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
