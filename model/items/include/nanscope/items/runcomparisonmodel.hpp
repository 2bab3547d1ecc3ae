// SPDX-License-Identifier: GPL-3.0-or-later
// The two records of where two runs part (core::Divergence), field by field: one row per field
// (event, op, module, step, health and its counts), one column per run.
#pragma once

#include "nanscope/core/runcompare.hpp"

#include <QAbstractTableModel>
#include <optional>

namespace nanscope::items {

class RunComparisonModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { FieldColumn, RunAColumn, RunBColumn, ColumnCount };
    enum Row {
        EventRow,
        OpTypeRow,
        OpNameRow,
        GraphRow,
        ModuleRow,
        StepRow,
        StateRow,
        HealthRow,
        NegativeInfinityRow,
        PositiveInfinityRow,
        NaNRow,
        NegativeRow,
        ZeroRow,
        PositiveRow,
        RowCount
    };

    explicit RunComparisonModel(QObject* parent = nullptr);

    // No rows while there is none (kind None or nullopt).
    void setDivergence(const std::optional<core::Divergence>& divergence);
    const std::optional<core::Divergence>& divergence() const { return m_divergence; }
    // The event a run's column shows (RunAColumn, RunBColumn); nullopt for another column or
    // without a divergence.
    std::optional<core::EventRef> eventAt(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString field(int row) const;
    QString value(int row, const core::CompareEvent& event) const;

    std::optional<core::Divergence> m_divergence;
};

} // namespace nanscope::items
