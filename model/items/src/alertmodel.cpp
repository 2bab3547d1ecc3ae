// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/alertmodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"

namespace nanscope::items {
namespace {

QVariant count(const core::Alert& alert, double value)
{
    if (alert.counts == core::Alert::Counts::None)
        return {};
    if (alert.invalidSummary) // counts that contradict each other, as "3 elements: 1000 -inf"
        return QObject::tr("invalid summary (%1)").arg(value);
    if (const auto exact = core::exactCount(value))
        return static_cast<qulonglong>(*exact);
    return QObject::tr("invalid (%1)").arg(value); // a summary vector that is not counts
}

} // namespace

quint64 AlertModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.alertCount();
}

int AlertModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& snap = *snapshot();
    const core::Alert alert = snap.alert(static_cast<quint64>(index.row()));
    const bool graph = alert.event.source == core::EventSource::Graph;
    QString opType, opName;
    core::HealthDigest health;
    if (graph) {
        const auto trace = snap.trace(alert.event.index);
        health = trace.health;
        if (trace.op != core::kNoOp) {
            opType = fromStd(snap.graphs().op(trace.op).type);
            opName = fromStd(snap.graphs().op(trace.op).name);
        }
    } else {
        const auto execution = snap.execution(alert.event.index);
        health = execution.health;
        opType = fromStd(execution.opType);
    }

    switch (role) {
    case EventSourceRole:
        return static_cast<int>(alert.event.source);
    case EventIndexRole:
        return static_cast<qulonglong>(alert.event.index);
    case HealthBitsRole:
        return health.bits;
    case NonFiniteRole:
        return true;
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn || index.column() >= SlotColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::ToolTipRole:
        return tr("%1 produced %2 (%3 #%4)")
            .arg(opName.isEmpty() ? opType : opName, digestText(health),
                 graph ? tr("graph execution") : tr("execution"))
            .arg(alert.event.index);
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
    case IndexColumn:
        return index.row() + 1;
    case EventColumn:
        if (sort)
            return static_cast<qulonglong>(alert.event.index);
        return (graph ? tr("graph #%1") : tr("eager #%1")).arg(alert.event.index);
    case OpTypeColumn:
        return opType;
    case OpNameColumn:
        return opName;
    case HostColumn: {
        // Executions are read from the first host only (as TensorFlow reads them).
        const auto& sets = snap.layout().fileSets;
        const std::uint32_t set = graph ? snap.trace(alert.event.index).fileIndex : 0;
        return set < sets.size() ? fromStd(sets[set].hostName) : QString();
    }
    case SlotColumn:
        return alert.outputSlot;
    case SizeColumn:
        return count(alert, alert.size);
    case NegInfColumn:
        return count(alert, alert.negativeInfinity);
    case PosInfColumn:
        return count(alert, alert.positiveInfinity);
    case NanColumn:
        return count(alert, alert.nan);
    }
    return {};
}

QVariant AlertModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {
        QT_TR_NOOP("#"),    QT_TR_NOOP("Event"), QT_TR_NOOP("Op type"), QT_TR_NOOP("Op"),
        QT_TR_NOOP("Host"), QT_TR_NOOP("Slot"),  QT_TR_NOOP("Size"),    QT_TR_NOOP("-inf"),
        QT_TR_NOOP("+inf"), QT_TR_NOOP("NaN")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
