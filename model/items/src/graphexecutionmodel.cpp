// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/graphexecutionmodel.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"

#include <QStringList>

namespace nanscope::items {
namespace {

QString shapeText(const core::TraceDetails& d)
{
    if (d.fullTensor) {
        QStringList dims;
        for (const auto dim : d.fullTensor->shape)
            dims << QString::number(dim);
        return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    if (!d.health.invalid.empty())
        return QObject::tr("invalid summary");
    if (d.health.known() && d.health.detail != core::TensorHealth::Detail::Flag) {
        if (const auto size = core::exactCount(d.health.size))
            return QObject::tr("%1 elements").arg(static_cast<qulonglong>(*size));
        return QObject::tr("invalid size (%1)").arg(d.health.size);
    }
    return {};
}

QString dtypeText(int dtype)
{
    static const char* names[] = {"",         "float32", "float64", "int32",      "uint8",
                                  "int16",    "int8",    "string",  "complex64",  "int64",
                                  "bool",     "qint8",   "quint8",  "qint32",     "bfloat16",
                                  "qint16",   "quint16", "uint16",  "complex128", "float16",
                                  "resource", "variant", "uint32",  "uint64"};
    if (dtype <= 0 || dtype >= static_cast<int>(std::size(names)))
        return {};
    return QString::fromLatin1(names[dtype]);
}

QVariant countOrNothing(const core::TensorHealth& h, double value, bool fullOnly)
{
    using D = core::TensorHealth::Detail;
    if (!h.invalid.empty())
        return {}; // not counts: the health text says why
    if (h.detail == D::Full || (!fullOnly && h.detail == D::Counts))
        return value;
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
    auto read = snapshot()->readTrace(static_cast<quint64>(row));
    if (!read)
        return nullptr;
    auto* d = new core::TraceDetails(std::move(*read.value));
    m_details.insert(row, d);
    return d;
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

    switch (role) {
    case OpIdRole:
        return t.op;
    case HealthBitsRole:
        return t.health.bits;
    case NonFiniteRole:
        return t.health.nonFinite();
    case Qt::BackgroundRole:
        return t.health.nonFinite() ? QVariant(nonFiniteBackground(t.health)) : QVariant();
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
    case NegInfCountRole:
    case PosInfCountRole:
    case NanCountRole:
    case NegativeCountRole:
    case ZeroCountRole:
    case PositiveCountRole: {
        full = details(index.row());
        if (!full)
            return {};
        const auto& h = full->health;
        switch (role) {
        case NegInfCountRole:
            return countOrNothing(h, h.negativeInfinity, false);
        case PosInfCountRole:
            return countOrNothing(h, h.positiveInfinity, false);
        case NanCountRole:
            return countOrNothing(h, h.nan, false);
        case NegativeCountRole:
            return countOrNothing(h, h.negativeFinite, true);
        case ZeroCountRole:
            return countOrNothing(h, h.zero, true);
        default:
            return countOrNothing(h, h.positiveFinite, true);
        }
    }
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
    case DTypeColumn:
        full = details(index.row());
        return full ? dtypeText(full->fullTensor ? full->fullTensor->dtype : full->health.dtype)
                    : QString();
    case ShapeColumn:
        full = details(index.row());
        return full ? shapeText(*full) : QString();
    case HealthColumn:
        return role == SortRole ? QVariant(t.health.bits) : QVariant(digestText(t.health));
    }
    return {};
}

QVariant GraphExecutionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static constexpr const char* titles[] = {
        QT_TR_NOOP("#"),     QT_TR_NOOP("Tensor"), QT_TR_NOOP("Op type"), QT_TR_NOOP("Graph"),
        QT_TR_NOOP("DType"), QT_TR_NOOP("Size"),   QT_TR_NOOP("Health")};
    static_assert(std::size(titles) == ColumnCount);
    const QVariant title =
        columnTitle(metaObject()->className(), titles, section, orientation, role);
    return title.isValid() ? title : QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
