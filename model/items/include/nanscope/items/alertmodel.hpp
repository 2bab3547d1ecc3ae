// SPDX-License-Identifier: GPL-3.0-or-later
// Every InfNan alert of a snapshot, in TensorBoard's order (graph traces, then executions).
// Once the snapshot's propagation is known, alerts whose values were set aside (made on purpose,
// or an uninitialised tensor's bits: core/intent.hpp) say so and are dimmed.
#pragma once

#include "nanscope/items/snapshottablemodel.hpp"

#include <atomic>
#include <optional>
#include <vector>

namespace nanscope::items {

class AlertModel : public SnapshotTableModel
{
    Q_OBJECT

public:
    enum Column {
        IndexColumn,
        EventColumn,
        OpTypeColumn,
        OpNameColumn,
        HostColumn, // the host that recorded the alert's event
        SlotColumn,
        SizeColumn,
        NegInfColumn,
        PosInfColumn,
        NanColumn,
        StatusColumn, // "intended −∞", "uninitialised"; empty for an alert that counts
        ColumnCount
    };
    enum Role {
        EventSourceRole = FirstModelRole, // int: core::EventSource of the alert's event
        EventIndexRole,                   // qulonglong: trace or execution index
        SetAsideRole, // bool: set aside as intended or uninitialised (false until known)
    };

    using SnapshotTableModel::SnapshotTableModel;

    // What column `column` of alert `row` shows (`sort`: the value it sorts by, SortRole), from
    // the snapshot alone: callable on any thread. `propagation` (the snapshot's, or null while
    // unknown) tells the status column which alerts were set aside.
    static QVariant cellValue(const core::Snapshot& snapshot, quint64 row, int column, bool sort,
                              const core::Propagation* propagation = nullptr);
    // `rows` (model rows) in the order of `column`'s sort values: stable (equal values keep the
    // model's order), numbers before text, empty cells last in either order. Null once `stop` is
    // set. For a worker thread: a million alerts take about a second.
    static std::optional<std::vector<int>>
    sortRows(const core::Snapshot& snapshot, std::vector<int> rows, int column, Qt::SortOrder order,
             const std::atomic_bool& stop, const core::Propagation* propagation = nullptr);
    // Whether alert `row`'s event was set aside (core::Propagation::intended or uninitialised).
    static bool setAside(const core::Snapshot& snapshot, const core::Propagation& propagation,
                         quint64 row);

    // Tells the model that `snapshot`'s propagation has been worked out (Snapshot::propagation()
    // returned on a worker thread): when it is the model's snapshot, rows show their status.
    // Working it out here would walk the whole index on the GUI thread.
    void setPropagationKnown(const SnapshotPtr& snapshot);
    // The model's snapshot's propagation, or null while unknown.
    const core::Propagation* propagation() const { return m_propagation; }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    quint64 rowsIn(const core::Snapshot& snapshot) const override;
    // A trace read after an execution lands before it in TensorBoard's order.
    bool rowsOnlyAppend() const override { return false; }
    void snapshotChanged() override;

private:
    // Belongs to m_propagationOf, which the model holds while it shows it.
    const core::Propagation* m_propagation = nullptr;
    const core::Snapshot* m_propagationOf = nullptr;
};

} // namespace nanscope::items
