// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/tensorslicemodel.hpp"

#include <QStringList>
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

namespace nanscope::items {
namespace {

QString nonFiniteText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    return value < 0 ? QStringLiteral("-inf") : QStringLiteral("+inf");
}

// Types narrower than float64 print as floats: 0.1 in float32 reads "0.1", not the double
// 0.100000001490116.
bool narrowFloat(DType dtype)
{
    return dtype != DType::Float64;
}

QString integerText(const core::TensorData& tensor, std::uint64_t index)
{
    if (tensor.dtype() == DType::Bool)
        return tensor.integer(index) != 0 ? QStringLiteral("true") : QStringLiteral("false");
    if (tensor.dtype() == DType::UInt64)
        return QString::number(tensor.unsignedInteger(index));
    return QString::number(tensor.integer(index));
}

QString coordinatesText(const std::vector<std::int64_t>& coordinates)
{
    QStringList parts;
    for (const std::int64_t c : coordinates)
        parts << QString::number(c);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

QString shortValueText(const core::TensorData& tensor, std::uint64_t index)
{
    if (tensor.isIntegral())
        return integerText(tensor, index);
    const double value = tensor.value(index);
    if (!std::isfinite(value))
        return nonFiniteText(value);
    return QString::number(value, 'g', 6);
}

QString exactValueText(const core::TensorData& tensor, std::uint64_t index)
{
    if (tensor.isIntegral())
        return integerText(tensor, index);
    const double value = tensor.value(index);
    if (!std::isfinite(value))
        return nonFiniteText(value);
    char text[32];
    const auto written = narrowFloat(tensor.dtype())
                             ? std::to_chars(text, text + sizeof text, static_cast<float>(value))
                             : std::to_chars(text, text + sizeof text, value);
    return QString::fromLatin1(text, static_cast<qsizetype>(written.ptr - text));
}

TensorSliceModel::TensorSliceModel(QObject* parent) : QAbstractTableModel(parent) {}

int TensorSliceModel::rank() const
{
    return m_tensor ? static_cast<int>(m_tensor->shape().size()) : 0;
}

std::int64_t TensorSliceModel::dimensionSize(int dimension) const
{
    return dimension < 0 ? 1 : m_tensor->shape()[static_cast<std::size_t>(dimension)];
}

void TensorSliceModel::setTensor(TensorPtr tensor)
{
    beginResetModel();
    m_tensor = std::move(tensor);
    const int r = rank();
    m_fixed.assign(static_cast<std::size_t>(r), 0);
    m_strides.assign(static_cast<std::size_t>(r), 1);
    for (int d = r - 2; d >= 0; --d)
        m_strides[static_cast<std::size_t>(d)] =
            m_strides[static_cast<std::size_t>(d) + 1] *
            static_cast<std::uint64_t>(std::max<std::int64_t>(dimensionSize(d + 1), 1));
    m_rowDim = r >= 1 ? std::max(r - 2, 0) : -1;
    m_columnDim = r >= 2 ? r - 1 : -1;
    if (r >= 2 && dimensionSize(m_columnDim) > kMaxColumns &&
        dimensionSize(m_rowDim) < dimensionSize(m_columnDim))
        std::swap(m_rowDim, m_columnDim);
    updateBase();
    endResetModel();
    Q_EMIT sliceChanged();
}

bool TensorSliceModel::setDimensions(int rows, int columns)
{
    const int r = rank();
    if (r < 2 || rows == columns || rows < 0 || columns < 0 || rows >= r || columns >= r)
        return false;
    if (rows == m_rowDim && columns == m_columnDim)
        return true;
    beginResetModel();
    m_rowDim = rows;
    m_columnDim = columns;
    updateBase();
    endResetModel();
    Q_EMIT sliceChanged();
    return true;
}

void TensorSliceModel::setFixedIndex(int dimension, std::int64_t position)
{
    if (dimension < 0 || dimension >= rank() || dimension == m_rowDim || dimension == m_columnDim)
        return;
    const std::int64_t clamped = std::clamp<std::int64_t>(
        position, 0, std::max<std::int64_t>(dimensionSize(dimension) - 1, 0));
    if (m_fixed[static_cast<std::size_t>(dimension)] == clamped)
        return;
    m_fixed[static_cast<std::size_t>(dimension)] = clamped;
    updateBase();
    // The table keeps its shape: views keep their scroll position and repaint what they show.
    if (rowCount() > 0 && columnCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    Q_EMIT sliceChanged();
}

void TensorSliceModel::updateBase()
{
    m_base = 0;
    for (int d = 0; d < rank(); ++d)
        if (d != m_rowDim && d != m_columnDim)
            m_base += static_cast<std::uint64_t>(m_fixed[static_cast<std::size_t>(d)]) *
                      m_strides[static_cast<std::size_t>(d)];
}

bool TensorSliceModel::columnsCapped() const
{
    return m_tensor && m_columnDim >= 0 && dimensionSize(m_columnDim) > kMaxColumns;
}

int TensorSliceModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_tensor || m_tensor->elementCount() == 0)
        return 0;
    return static_cast<int>(std::min<std::int64_t>(dimensionSize(m_rowDim), INT_MAX));
}

int TensorSliceModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_tensor || m_tensor->elementCount() == 0)
        return 0;
    return static_cast<int>(std::min<std::int64_t>(dimensionSize(m_columnDim), kMaxColumns));
}

std::uint64_t TensorSliceModel::flatIndex(const QModelIndex& index) const
{
    std::uint64_t flat = m_base;
    if (m_rowDim >= 0)
        flat +=
            static_cast<std::uint64_t>(index.row()) * m_strides[static_cast<std::size_t>(m_rowDim)];
    if (m_columnDim >= 0)
        flat += static_cast<std::uint64_t>(index.column()) *
                m_strides[static_cast<std::size_t>(m_columnDim)];
    return flat;
}

QModelIndex TensorSliceModel::indexOfElement(std::uint64_t flat) const
{
    if (!m_tensor || flat >= m_tensor->elementCount())
        return {};
    const std::vector<std::int64_t> at = m_tensor->coordinates(flat);
    for (int d = 0; d < rank(); ++d)
        if (d != m_rowDim && d != m_columnDim &&
            at[static_cast<std::size_t>(d)] != m_fixed[static_cast<std::size_t>(d)])
            return {};
    const std::int64_t row = m_rowDim >= 0 ? at[static_cast<std::size_t>(m_rowDim)] : 0;
    const std::int64_t column = m_columnDim >= 0 ? at[static_cast<std::size_t>(m_columnDim)] : 0;
    if (row >= rowCount() || column >= columnCount())
        return {};
    return index(static_cast<int>(row), static_cast<int>(column));
}

QModelIndex TensorSliceModel::revealElement(std::uint64_t flat)
{
    if (!m_tensor || flat >= m_tensor->elementCount())
        return {};
    std::vector<std::int64_t> at = m_tensor->coordinates(flat);
    const bool swap = m_columnDim >= 0 && at[static_cast<std::size_t>(m_columnDim)] >= kMaxColumns;
    if (swap) {
        beginResetModel();
        std::swap(m_rowDim, m_columnDim);
        m_fixed = std::move(at);
        updateBase();
        endResetModel();
        Q_EMIT sliceChanged();
    } else if (!indexOfElement(flat).isValid()) {
        // One change of the slice, not one per dimension (the entries of the row and column
        // dimensions are unused).
        m_fixed = std::move(at);
        updateBase();
        if (rowCount() > 0 && columnCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        Q_EMIT sliceChanged();
    }
    return indexOfElement(flat);
}

QVariant TensorSliceModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::uint64_t flat = flatIndex(index);
    switch (role) {
    case Qt::DisplayRole:
        return shortValueText(*m_tensor, flat);
    case ExactTextRole:
        return exactValueText(*m_tensor, flat);
    case Qt::ToolTipRole:
        return QString(coordinatesText(m_tensor->coordinates(flat)) + QStringLiteral(" = ") +
                       exactValueText(*m_tensor, flat));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case KindRole:
        return static_cast<int>(core::elementKind(m_tensor->value(flat)));
    case HeatRole: {
        const double value = m_tensor->value(flat);
        const double scale = m_tensor->stats().maxMagnitude;
        if (!std::isfinite(value) || scale <= 0)
            return {};
        return std::fabs(value) / scale;
    }
    case ValueRole:
        return m_tensor->value(flat);
    case FlatIndexRole:
        return QVariant::fromValue<qulonglong>(flat);
    default:
        return {};
    }
}

QVariant TensorSliceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const int dimension = orientation == Qt::Horizontal ? m_columnDim : m_rowDim;
    if (role == Qt::DisplayRole) {
        if (dimension < 0) // a 0-D tensor's one row, a 1-D tensor's one column
            return orientation == Qt::Horizontal ? tr("value") : QString();
        return QString::number(section);
    }
    if (role == Qt::ToolTipRole && dimension >= 0)
        return tr("Index %1 of dimension %2").arg(section).arg(dimension);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace nanscope::items
