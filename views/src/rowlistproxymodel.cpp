// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/rowlistproxymodel.hpp"

#include <QGuiApplication>
#include <QPalette>
#include <QTimer>
#include <algorithm>

namespace nanscope::views {
namespace {

bool darkPalette()
{
    return QGuiApplication::palette().color(QPalette::Base).lightnessF() < 0.5;
}

} // namespace

// Debugger V2's input yellow, and a dark amber that keeps light text readable in dark palettes.
QColor RowListProxyModel::inputBackground()
{
    return darkPalette() ? QColor(0x8a, 0x6d, 0x10, 150) : QColor(0xff, 0xf0, 0x99);
}

// A pale blue, away from the yellow and from the health colours (pink NaN, orange ∞).
QColor RowListProxyModel::readerBackground()
{
    return darkPalette() ? QColor(0x1f, 0x4e, 0x79, 150) : QColor(0xd4, 0xe8, 0xff);
}

RowListProxyModel::RowListProxyModel(QObject* parent)
    : QAbstractProxyModel(parent), m_revealTimer(new QTimer(this))
{
    // A timer, not a posted call: the event loop paints and takes input between two batches.
    m_revealTimer->setSingleShot(true);
    m_revealTimer->setInterval(0);
    connect(m_revealTimer, &QTimer::timeout, this, [this] { revealMore(true); });
}

void RowListProxyModel::setSourceModel(QAbstractItemModel* source)
{
    beginResetModel();
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    QAbstractProxyModel::setSourceModel(source);
    m_rows.reset();
    m_positions.clear();
    m_highlighted.clear();
    m_readers.clear();
    if (source) {
        m_connections << connect(source, &QAbstractItemModel::modelAboutToBeReset, this,
                                 [this] { beginResetModel(); });
        m_connections << connect(source, &QAbstractItemModel::modelReset, this, [this] {
            const bool filtered = isFiltered();
            if (filtered)
                m_rows = std::vector<int>();
            m_positions.clear();
            m_highlighted.clear();
            m_readers.clear();
            resetShown();
            endResetModel();
            revealMore(true);
            if (filtered)
                Q_EMIT sourceReset();
        });
        m_connections << connect(source, &QAbstractItemModel::rowsInserted, this,
                                 [this](const QModelIndex&, int first, int last) {
                                     if (!isFiltered())
                                         revealMore(false);
                                     else
                                         Q_EMIT sourceRowsAppended(first, last);
                                 });
        // The snapshot models only append; anything else is taken as a reset.
        m_connections << connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                                 [this] { beginResetModel(); });
        m_connections << connect(source, &QAbstractItemModel::rowsRemoved, this, [this] {
            if (isFiltered())
                m_rows = std::vector<int>();
            m_positions.clear();
            resetShown();
            endResetModel();
            revealMore(true);
        });
        m_connections << connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this,
                                 [this] { beginResetModel(); });
        m_connections << connect(source, &QAbstractItemModel::layoutChanged, this, [this] {
            resetShown();
            endResetModel();
            revealMore(true);
        });
        m_connections << connect(source, &QAbstractItemModel::dataChanged, this,
                                 &RowListProxyModel::onSourceDataChanged);
        m_connections << connect(source, &QAbstractItemModel::headerDataChanged, this,
                                 &QAbstractItemModel::headerDataChanged);
    }
    resetShown();
    endResetModel();
    revealMore(true);
}

int RowListProxyModel::totalRows() const
{
    if (!sourceModel())
        return 0;
    return m_rows ? static_cast<int>(m_rows->size()) : sourceModel()->rowCount();
}

void RowListProxyModel::resetShown()
{
    m_shown = 0;
}

void RowListProxyModel::revealMore(bool now)
{
    const int total = totalRows();
    if (m_shown < total && (now || total - m_shown <= kSyncReveal)) {
        const int count = std::min(kRevealBatch, total - m_shown);
        beginInsertRows({}, m_shown, m_shown + count - 1);
        m_shown += count;
        endInsertRows();
    }
    if (m_shown < total && !m_revealTimer->isActive())
        m_revealTimer->start();
}

void RowListProxyModel::setRows(std::optional<std::vector<int>> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_positions.clear();
    resetShown();
    endResetModel();
    revealMore(true);
}

void RowListProxyModel::setOrderedRows(std::vector<int> rows, std::vector<int> positions)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_positions = std::move(positions);
    resetShown();
    endResetModel();
    revealMore(true);
}

std::vector<int> RowListProxyModel::positionsOf(const std::vector<int>& rows, int sourceRows)
{
    std::vector<int> positions(static_cast<std::size_t>(std::max(sourceRows, 0)), -1);
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i] >= 0 && rows[i] < sourceRows)
            positions[static_cast<std::size_t>(rows[i])] = static_cast<int>(i);
    return positions;
}

void RowListProxyModel::appendRows(const std::vector<int>& rows)
{
    if (!m_rows || rows.empty() || !m_positions.empty())
        return;
    m_rows->insert(m_rows->end(), rows.begin(), rows.end());
    revealMore(false);
}

void RowListProxyModel::setHighlightedRows(const QSet<int>& sourceRows, const QSet<int>& readerRows)
{
    QSet<int> changed = m_highlighted;
    changed.unite(sourceRows);
    changed.unite(readerRows);
    m_highlighted = sourceRows + readerRows;
    m_readers = readerRows - sourceRows;
    const int columns = columnCount();
    for (const int source : std::as_const(changed)) {
        const int row = proxyRow(source);
        if (row >= 0 && columns > 0)
            Q_EMIT dataChanged(index(row, 0), index(row, columns - 1), {Qt::BackgroundRole});
    }
}

int RowListProxyModel::proxyRow(int sourceRow) const
{
    if (!sourceModel() || sourceRow < 0)
        return -1;
    if (!m_rows)
        return sourceRow < m_shown ? sourceRow : -1;
    if (!m_positions.empty()) {
        const int position = static_cast<std::size_t>(sourceRow) < m_positions.size()
                                 ? m_positions[static_cast<std::size_t>(sourceRow)]
                                 : -1;
        return position < m_shown ? position : -1;
    }
    const auto it = std::lower_bound(m_rows->begin(), m_rows->begin() + m_shown, sourceRow);
    if (it == m_rows->begin() + m_shown || *it != sourceRow)
        return -1;
    return static_cast<int>(it - m_rows->begin());
}

QModelIndex RowListProxyModel::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex RowListProxyModel::parent(const QModelIndex&) const
{
    return {};
}

int RowListProxyModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return m_shown;
}

int RowListProxyModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return sourceModel()->columnCount();
}

QModelIndex RowListProxyModel::mapToSource(const QModelIndex& proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.model() != this)
        return {};
    const int row =
        m_rows ? (*m_rows)[static_cast<std::size_t>(proxyIndex.row())] : proxyIndex.row();
    return sourceModel()->index(row, proxyIndex.column());
}

QModelIndex RowListProxyModel::mapFromSource(const QModelIndex& sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel())
        return {};
    const int row = proxyRow(sourceIndex.row());
    return row < 0 ? QModelIndex() : index(row, sourceIndex.column());
}

QVariant RowListProxyModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::BackgroundRole && index.isValid() && !m_highlighted.isEmpty()) {
        const int source = m_rows ? (*m_rows)[static_cast<std::size_t>(index.row())] : index.row();
        if (m_highlighted.contains(source))
            return m_readers.contains(source) ? readerBackground() : inputBackground();
    }
    QVariant value = QAbstractProxyModel::data(index, role);
    // An invalid colour is "no background" to the model, but a delegate paints it black.
    if (role == Qt::BackgroundRole && value.userType() == QMetaType::QColor &&
        !value.value<QColor>().isValid())
        return {};
    return value;
}

void RowListProxyModel::onSourceDataChanged(const QModelIndex& topLeft,
                                            const QModelIndex& bottomRight, const QList<int>& roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    int first = topLeft.row();
    int last = bottomRight.row();
    if (!m_positions.empty()) { // the changed rows are anywhere in the list
        first = 0;
        last = m_shown - 1;
    } else if (m_rows) {
        first = static_cast<int>(std::lower_bound(m_rows->begin(), m_rows->end(), first) -
                                 m_rows->begin());
        last = static_cast<int>(std::upper_bound(m_rows->begin(), m_rows->end(), last) -
                                m_rows->begin()) -
               1;
    }
    last = std::min(last, rowCount() - 1);
    if (first > last)
        return;
    Q_EMIT dataChanged(index(first, topLeft.column()), index(last, bottomRight.column()), roles);
}

} // namespace nanscope::views
