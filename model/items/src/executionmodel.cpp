// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/executionmodel.hpp"

#include "nanscope/items/executionquery.hpp"
#include "nanscope/items/firstexecution.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/healthroles.hpp"
#include "nanscope/items/optypetext.hpp"

#include <QFutureWatcher>
#include <QStringList>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <set>

namespace nanscope::items {
namespace {

// Records read per trip to the pool: a screenful, with room for a fast scroll.
constexpr std::size_t kReadBatch = 256;

ExecutionModel::Details summarise(const core::ExecutionDetails& record)
{
    using D = core::TensorHealth::Detail;
    ExecutionModel::Details d;
    std::set<QString> dtypes;
    QStringList dtypeList;
    QStringList lines;
    double elements = 0;
    bool sized = !record.outputHealth.empty();
    // The counts of every output together, as far as the least detailed output tells them.
    D least = record.outputHealth.empty() ? D::None : D::Full;
    std::array<double, 6> sum{};
    for (std::size_t i = 0; i < record.outputHealth.size(); ++i) {
        const core::TensorHealth& h = record.outputHealth[i];
        const QString dtype = dtypeText(h.dtype);
        if (!dtype.isEmpty() && dtypes.insert(dtype).second)
            dtypeList << dtype;
        const QString text = healthText(h);
        lines << (record.outputHealth.size() > 1 ? QStringLiteral("output %1: ").arg(i) + text
                                                 : text);
        if (!h.invalid.empty() || h.detail == D::Flag || h.detail == D::None) {
            least = D::None;
            sized = false;
            continue;
        }
        least = std::min(least, h.detail);
        elements += h.size;
        const double values[] = {
            h.negativeInfinity, h.positiveInfinity, h.nan, h.negativeFinite, h.zero,
            h.positiveFinite};
        for (std::size_t k = 0; k < sum.size(); ++k)
            sum[k] += values[k];
    }
    d.dtypes = dtypeList.join(QStringLiteral(", "));
    d.healthText = lines.join(QLatin1Char('\n'));
    if (sized)
        if (const auto exact = core::exactCount(elements))
            d.elements = static_cast<qulonglong>(*exact);
    if (least == D::Full || least == D::Counts)
        for (std::size_t k = 0; k < sum.size(); ++k)
            if (k < 3 || least == D::Full) // the finite classes only in full health
                d.counts[k] = sum[k];
    return d;
}

} // namespace

quint64 ExecutionModel::rowsIn(const core::Snapshot& snapshot) const
{
    return snapshot.executionCount();
}

int ExecutionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void ExecutionModel::snapshotChanged()
{
    // Records never change once written: a newer snapshot of the same logdir keeps what was
    // read. Another logdir starts over.
    const SnapshotPtr& now = snapshot();
    if (!now || !m_detailsOf || !sameLogdir(now, m_detailsOf)) {
        m_details.clear();
        m_requested.clear();
        m_queue.clear();
        m_unreadable.clear();
    }
    m_detailsOf = now;
    m_firstWallTime = now ? firstExecutionWallTime(*now) : 0;
}

const ExecutionModel::Details* ExecutionModel::details(int row) const
{
    if (const Details* cached = m_details.object(row))
        return cached;
    if (m_requested.contains(row) || m_unreadable.contains(row))
        return nullptr;
    m_requested.insert(row);
    m_queue.push_back(row);
    if (!m_readScheduled) {
        m_readScheduled = true;
        // data() is const; the cache and the queue are not.
        auto* self = const_cast<ExecutionModel*>(this);
        QTimer::singleShot(0, self, [self] { self->readQueued(); });
    }
    return nullptr;
}

void ExecutionModel::readQueued()
{
    m_readScheduled = false;
    const SnapshotPtr readFrom = snapshot();
    if (m_queue.empty() || !readFrom)
        return;
    // The newest requests first: they are the rows on screen after a scroll.
    std::vector<int> rows;
    while (!m_queue.empty() && rows.size() < kReadBatch) {
        rows.push_back(m_queue.back());
        m_queue.pop_back();
    }
    if (!m_queue.empty()) {
        m_readScheduled = true;
        QTimer::singleShot(0, this, [this] { readQueued(); });
    }
    using Read = std::vector<std::pair<int, Details>>;
    auto* watcher = new QFutureWatcher<Read>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, readFrom, rows] {
        watcher->deleteLater();
        deliver(readFrom, watcher->result(), rows);
    });
    watcher->setFuture(QtConcurrent::run([readFrom, rows] {
        Read read;
        for (const int row : rows)
            if (auto record = readFrom->readExecution(static_cast<std::uint64_t>(row)))
                read.emplace_back(row, summarise(*record));
        return read;
    }));
}

void ExecutionModel::deliver(const SnapshotPtr& readFrom,
                             std::vector<std::pair<int, Details>>&& read,
                             const std::vector<int>& asked)
{
    if (!snapshot() || !sameLogdir(readFrom, snapshot()))
        return; // another logdir now; its rows ask again
    for (const int row : asked) {
        m_requested.remove(row);
        m_unreadable.insert(row); // unless read below
    }
    int first = rowCount();
    int last = -1;
    for (auto& [row, d] : read) {
        m_unreadable.remove(row);
        m_details.insert(row, new Details(std::move(d)));
        first = std::min(first, row);
        last = std::max(last, row);
    }
    if (last >= 0 && last < rowCount())
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

QVariant ExecutionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const core::Snapshot& snap = *snapshot();
    const auto row = static_cast<quint64>(index.row());
    const core::ExecutionDigest e = snap.execution(row);
    const Details* full = nullptr;

    if (std::optional<QVariant> shared = digestRoleData(e.health, role))
        return *shared;
    if (isHealthCountRole(role, NegInfCountRole)) {
        full = details(index.row());
        return healthCountData(full ? &full->counts : nullptr, role, NegInfCountRole);
    }
    switch (role) {
    case FullOpTypeRole:
        return fromStd(e.opType);
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn || index.column() == TimeColumn ||
                       index.column() == OutputsColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::ToolTipRole: {
        full = details(index.row());
        const QString health =
            full && !full->healthText.isEmpty() ? full->healthText : digestText(e.health);
        // One arg() call: a module path holding "%1" stays as written.
        return e.modulePath.empty()
                   ? tr("%1\n%2").arg(fromStd(e.opType), health)
                   : tr("%1 in %2\n%3").arg(fromStd(e.opType), fromStd(e.modulePath), health);
    }
    case HealthTextRole:
        full = details(index.row());
        return full ? full->healthText : digestText(e.health);
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }

    switch (index.column()) {
    case IndexColumn:
        return static_cast<qulonglong>(row);
    case OpTypeColumn:
        return role == SortRole ? fromStd(e.opType) : opTypeText(e.opType);
    case ModuleColumn:
        return fromStd(e.modulePath);
    case HealthColumn:
        return role == SortRole ? QVariant(healthSortKey(e.health))
                                : QVariant(digestText(e.health));
    case OutputsColumn:
        return e.numOutputIds;
    case DTypeColumn:
        full = details(index.row());
        return full ? full->dtypes : QString();
    case ElementsColumn:
        full = details(index.row());
        return full ? full->elements : QVariant();
    case TimeColumn: {
        const double seconds = e.wallTime - m_firstWallTime;
        if (role == SortRole)
            return e.wallTime;
        // A record may hold any double: only times a run can take read as times.
        return std::isfinite(seconds) && std::abs(seconds) < 1e9 ? QString::number(seconds, 'f', 3)
                                                                 : QString::number(e.wallTime);
    }
    }
    return {};
}

QVariant ExecutionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {QT_TR_NOOP("#"),        QT_TR_NOOP("Op type"),
                                             QT_TR_NOOP("Module"),   QT_TR_NOOP("Health"),
                                             QT_TR_NOOP("Outputs"),  QT_TR_NOOP("DType"),
                                             QT_TR_NOOP("Elements"), QT_TR_NOOP("Time (s)")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
