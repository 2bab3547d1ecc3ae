// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/alertmodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/optypetext.hpp"

#include <QHash>
#include <QPalette>
#include <QStringList>
#include <algorithm>
#include <numeric>

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

// The op an alert's event ran, and the health of its tensor.
struct AlertOp
{
    bool graph = false;
    QString type;
    QString name;
    core::HealthDigest health;
};

AlertOp alertOp(const core::Snapshot& snap, const core::Alert& alert)
{
    AlertOp op;
    op.graph = alert.event.source == core::EventSource::Graph;
    if (op.graph) {
        const auto trace = snap.trace(alert.event.index);
        op.health = trace.health;
        if (trace.op != core::kNoOp) {
            op.type = fromStd(snap.graphs().op(trace.op).type);
            op.name = fromStd(snap.graphs().op(trace.op).name);
        }
    } else {
        const auto execution = snap.execution(alert.event.index);
        op.health = execution.health;
        op.type = fromStd(execution.opType);
        // An eager op has no name: where it ran says more ("MLP.attn").
        op.name = fromStd(execution.modulePath);
    }
    return op;
}

// "intended −∞, NaN" or "uninitialised": why an alert does not count.
QString statusText(const core::Snapshot& snap, const core::Propagation& propagation,
                   const core::Alert& alert)
{
    if (propagation.uninitialised(alert.event))
        return QObject::tr("uninitialised");
    if (!propagation.intended(alert.event))
        return {};
    const core::HealthDigest health = alertOp(snap, alert).health;
    QStringList kinds;
    if (health.has(core::health::NegInf))
        kinds << QStringLiteral("−∞");
    if (health.has(core::health::PosInf))
        kinds << QStringLiteral("+∞");
    if (health.has(core::health::NaN))
        kinds << QStringLiteral("NaN");
    return kinds.isEmpty() ? QObject::tr("intended")
                           : QObject::tr("intended %1").arg(kinds.join(QStringLiteral(", ")));
}

// Sort values rank numbers, then text (an invalid count's words), then empty cells.
int rank(const QVariant& value)
{
    if (!value.isValid())
        return 2;
    return value.userType() == QMetaType::QString ? 1 : 0;
}

} // namespace

quint64 AlertModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.alertCount();
}

void AlertModel::snapshotChanged()
{
    if (snapshot().get() != m_propagationOf) {
        m_propagation = nullptr;
        m_propagationOf = nullptr;
    }
}

void AlertModel::setPropagationKnown(const SnapshotPtr& snapshot)
{
    if (!snapshot || snapshot != this->snapshot() || m_propagationOf == snapshot.get())
        return;
    m_propagationOf = snapshot.get();
    m_propagation = &snapshot->propagation(); // already worked out: returns at once
    // Views repaint only the rows on screen.
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

bool AlertModel::setAside(const core::Snapshot& snapshot, const core::Propagation& propagation,
                          quint64 row)
{
    const core::EventRef event = snapshot.alert(row).event;
    return propagation.intended(event) || propagation.uninitialised(event);
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
    const auto row = static_cast<quint64>(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        return cellValue(snap, row, index.column(), role == SortRole, m_propagation);
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn || index.column() >= SlotColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case NonFiniteRole:
        return true;
    case SetAsideRole:
        return m_propagation && setAside(snap, *m_propagation, row);
    case Qt::ForegroundRole:
        // Set aside: still listed when asked for, but not what the hunt is about.
        if (m_propagation && setAside(snap, *m_propagation, row))
            return QPalette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    default:
        break;
    }
    const core::Alert alert = snap.alert(row);
    switch (role) {
    case EventSourceRole:
        return static_cast<int>(alert.event.source);
    case EventIndexRole:
        return static_cast<qulonglong>(alert.event.index);
    case HealthBitsRole:
        return alertOp(snap, alert).health.bits;
    case Qt::ToolTipRole: {
        const AlertOp op = alertOp(snap, alert);
        const QString who = op.graph && !op.name.isEmpty() ? op.name
                            : op.name.isEmpty()            ? op.type
                                                           : tr("%1 in %2").arg(op.type, op.name);
        QString tip =
            tr("%1 produced %2 (%3 #%4)")
                .arg(who, digestText(op.health), op.graph ? tr("graph execution") : tr("execution"))
                .arg(alert.event.index);
        if (m_propagation && setAside(snap, *m_propagation, row))
            tip += QLatin1Char('\n') + tr("Set aside (%1): not counted, and never the origin")
                                           .arg(statusText(snap, *m_propagation, alert));
        return tip;
    }
    default:
        return {};
    }
}

QVariant AlertModel::cellValue(const core::Snapshot& snap, quint64 row, int column, bool sort,
                               const core::Propagation* propagation)
{
    const core::Alert alert = snap.alert(row);
    const bool graph = alert.event.source == core::EventSource::Graph;
    switch (column) {
    case IndexColumn:
        return static_cast<qulonglong>(row + 1);
    case EventColumn:
        if (sort)
            return static_cast<qulonglong>(alert.event.index);
        return (graph ? tr("graph #%1") : tr("eager #%1")).arg(alert.event.index);
    case OpTypeColumn: {
        const QString type = alertOp(snap, alert).type;
        return sort ? type : opTypeText(type);
    }
    case OpNameColumn:
        return alertOp(snap, alert).name;
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
    case StatusColumn: {
        const QString status = propagation ? statusText(snap, *propagation, alert) : QString();
        return status.isEmpty() ? QVariant() : QVariant(status);
    }
    }
    return {};
}

std::optional<std::vector<int>> AlertModel::sortRows(const core::Snapshot& snapshot,
                                                     std::vector<int> rows, int column,
                                                     Qt::SortOrder order,
                                                     const std::atomic_bool& stop,
                                                     const core::Propagation* propagation)
{
    // Sixteen bytes a row, whatever the column: a cell's number (every one is exact in a double:
    // counts, indices and slots are below 2^53), or its text's place among the column's distinct
    // texts, which are few (op types and names). Ten million alerts then sort in 160 MiB, where a
    // QVariant per row, with a string behind each, took gigabytes.
    struct Keyed
    {
        double key;
        int rank;
        int row;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(rows.size());
    QHash<QString, int> textIds;
    std::vector<QString> texts;
    for (const int row : rows) {
        if ((keyed.size() & 0xffff) == 0 && stop.load(std::memory_order_relaxed))
            return std::nullopt;
        const QVariant value =
            cellValue(snapshot, static_cast<quint64>(row), column, true, propagation);
        Keyed k{0, rank(value), row};
        if (k.rank == 1) {
            const QString text = value.toString();
            auto it = textIds.find(text);
            if (it == textIds.end()) {
                it = textIds.insert(text, static_cast<int>(texts.size()));
                texts.push_back(text);
            }
            k.key = it.value();
        } else if (k.rank == 0) {
            k.key = value.toDouble();
        }
        keyed.push_back(k);
    }
    // Texts compare as QVariant::compare compares strings.
    std::vector<int> byText(texts.size());
    std::iota(byText.begin(), byText.end(), 0);
    std::sort(byText.begin(), byText.end(), [&](int a, int b) { return texts[a] < texts[b]; });
    std::vector<double> place(texts.size());
    for (std::size_t i = 0; i < byText.size(); ++i)
        place[static_cast<std::size_t>(byText[i])] = static_cast<double>(i);
    for (Keyed& k : keyed)
        if (k.rank == 1)
            k.key = place[static_cast<std::size_t>(k.key)];
    const bool descending = order == Qt::DescendingOrder;
    std::stable_sort(keyed.begin(), keyed.end(), [descending](const Keyed& a, const Keyed& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return descending ? a.key > b.key : a.key < b.key;
    });
    if (stop.load(std::memory_order_relaxed))
        return std::nullopt;
    for (std::size_t i = 0; i < keyed.size(); ++i)
        rows[i] = keyed[i].row;
    return rows;
}

QVariant AlertModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {
        QT_TR_NOOP("#"),    QT_TR_NOOP("Event"), QT_TR_NOOP("Op type"), QT_TR_NOOP("Op"),
        QT_TR_NOOP("Host"), QT_TR_NOOP("Slot"),  QT_TR_NOOP("Size"),    QT_TR_NOOP("-inf"),
        QT_TR_NOOP("+inf"), QT_TR_NOOP("NaN"),   QT_TR_NOOP("Status")};
    static_assert(std::size(titles) == ColumnCount);
    // A run of eager ops only (PyTorch's): the column holds the module each op ran in.
    if (section == OpNameColumn && orientation == Qt::Horizontal && role == Qt::DisplayRole &&
        snapshot() && snapshot()->traceCount() == 0 && snapshot()->executionCount() > 0)
        return tr("Module");
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
