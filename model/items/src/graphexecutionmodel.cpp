// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/graphexecutionmodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/healthroles.hpp"

#include <QFutureWatcher>
#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

namespace nanscope::items {
namespace {

// The Size column: the shape of a full tensor, the element count of a summarised one.
QVariant sizeValue(const core::TraceDetails& d)
{
    if (d.fullTensor) {
        QStringList dims;
        for (const auto dim : d.fullTensor->shape)
            dims << QString::number(dim);
        return QString(QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']'));
    }
    if (!d.health.invalid.empty())
        return QObject::tr("invalid summary");
    if (d.health.known() && d.health.detail != core::TensorHealth::Detail::Flag) {
        if (const auto size = core::exactCount(d.health.size))
            return static_cast<qulonglong>(*size); // a number: the view shortens, never cuts
        return QObject::tr("invalid size (%1)").arg(d.health.size);
    }
    return {};
}

} // namespace

quint64 GraphExecutionModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.traceCount();
}

int GraphExecutionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const core::TraceDetails* GraphExecutionModel::details(int row) const
{
    if (auto* cached = m_details.object(row))
        return cached;
    auto read = snapshot()->readTrace(static_cast<quint64>(row), core::kInteractiveRecordBytes);
    if (read.deferred)
        readLater(row);
    if (!read)
        return nullptr;
    auto* d = new core::TraceDetails(std::move(*read.value));
    m_details.insert(row, d);
    return d;
}

void GraphExecutionModel::readLater(int row) const
{
    if (m_readsInFlight.contains(row) || m_unreadable.contains(row))
        return;
    m_readsInFlight.insert(row);
    auto* self = const_cast<GraphExecutionModel*>(this); // data() is const; the cache is not
    using Read = core::ReadResult<core::TraceDetails>;
    auto* watcher = new QFutureWatcher<Read>(self);
    SnapshotPtr readFrom = snapshot();
    connect(watcher, &QFutureWatcherBase::finished, self, [self, watcher, readFrom, row] {
        watcher->deleteLater();
        self->deliver(readFrom, row, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(
        [readFrom, row] { return readFrom->readTrace(static_cast<quint64>(row)); }));
}

void GraphExecutionModel::deliver(const SnapshotPtr& readFrom, int row,
                                  core::ReadResult<core::TraceDetails> read)
{
    if (readFrom != snapshot())
        return; // the model moved on; its rows ask again
    m_readsInFlight.remove(row);
    if (!read) {
        m_unreadable.insert(row);
        return;
    }
    m_details.insert(row, new core::TraceDetails(std::move(*read.value)));
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void GraphExecutionModel::snapshotChanged()
{
    m_details.clear();
    m_readsInFlight.clear();
    m_unreadable.clear();
}

QVariant GraphExecutionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& snap = *snapshot();
    const auto row = static_cast<quint64>(index.row());
    const core::TraceDetails* full = nullptr;
    const core::TraceDigest t = snap.trace(row);
    const core::OpInfo* op = t.op == core::kNoOp ? nullptr : &snap.graphs().op(t.op);
    auto tensorName = [&]() -> QString {
        const QString name = op ? fromStd(op->name) : tr("(unknown op)");
        return name + QLatin1Char(':') + QString::number(t.outputSlot);
    };

    if (std::optional<QVariant> shared = digestRoleData(t.health, role))
        return *shared;
    if (isHealthCountRole(role, NegInfCountRole)) {
        full = details(index.row());
        const HealthCounts counts = full ? healthCounts(full->health) : HealthCounts();
        return healthCountData(&counts, role, NegInfCountRole);
    }
    switch (role) {
    case OpIdRole:
        return t.op;
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                             : QVariant();
    case Qt::ToolTipRole:
    case HealthTextRole:
        full = details(index.row());
        if (role == HealthTextRole)
            return full ? healthText(full->health) : digestText(t.health);
        return tr("%1 (%2) in %3\n%4")
            .arg(tensorName(), op ? fromStd(op->type) : QString(),
                 op ? fromStd(snap.graphs().graph(op->graph).name) : QString(),
                 full ? healthText(full->health) : digestText(t.health));
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }

    switch (index.column()) {
    case IndexColumn:
        return static_cast<qulonglong>(row);
    case TensorColumn:
        return tensorName();
    case OpTypeColumn:
        return op ? fromStd(op->type) : QString();
    case GraphColumn:
        return op ? fromStd(snap.graphs().graph(op->graph).name) : QString();
    case HostColumn: {
        const auto& sets = snap.layout().fileSets;
        return t.fileIndex < sets.size() ? fromStd(sets[t.fileIndex].hostName) : QString();
    }
    case DeviceColumn:
        full = details(index.row());
        return full ? fromStd(full->deviceName) : QString();
    case DTypeColumn:
        full = details(index.row());
        return full ? dtypeText(full->fullTensor ? full->fullTensor->dtype : full->health.dtype)
                    : QString();
    case ShapeColumn:
        full = details(index.row());
        return full ? sizeValue(*full) : QVariant(QString());
    case HealthColumn:
        return role == SortRole ? QVariant(t.health.bits) : QVariant(digestText(t.health));
    }
    return {};
}

QVariant GraphExecutionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {
        QT_TR_NOOP("#"),     QT_TR_NOOP("Tensor"), QT_TR_NOOP("Op type"),
        QT_TR_NOOP("Graph"), QT_TR_NOOP("Host"),   QT_TR_NOOP("Device"),
        QT_TR_NOOP("DType"), QT_TR_NOOP("Size"),   QT_TR_NOOP("Health")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
