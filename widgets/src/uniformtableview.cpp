// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/uniformtableview.hpp"

#include <QHeaderView>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionHeader>
#include <algorithm>
#include <climits>

namespace nanscope::widgets {
namespace {

qint64 floorDiv(qint64 a, qint64 b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

} // namespace

// Paints the row numbers of the rows on screen as a vertical QHeaderView's sections look.
class UniformTableView::RowHeader : public QWidget
{
public:
    explicit RowHeader(UniformTableView* view) : QWidget(view), m_view(view) {}

protected:
    void paintEvent(QPaintEvent* event) override
    {
        QPainter painter(this);
        painter.fillRect(event->rect(), palette().window());
        QAbstractItemModel* model = m_view->model();
        if (!model)
            return;
        const int height = m_view->rowHeight();
        const int current = m_view->currentIndex().row();
        QFont bold = font();
        bold.setBold(true);
        const int first = m_view->rowAt(std::max(event->rect().top(), 0));
        for (int row = first; row >= 0 && row < m_view->rowCount(); ++row) {
            const int y = m_view->rowViewportPosition(row);
            if (y > event->rect().bottom())
                break;
            QStyleOptionHeader option;
            option.initFrom(this);
            option.rect = QRect(0, y, width(), height);
            option.orientation = Qt::Vertical;
            option.section = row;
            option.position = QStyleOptionHeader::Middle;
            option.textAlignment = Qt::AlignRight | Qt::AlignVCenter;
            option.text = model->headerData(row, Qt::Vertical, Qt::DisplayRole).toString();
            painter.setFont(row == current ? bold : font());
            style()->drawControl(QStyle::CE_Header, &option, &painter, this);
        }
    }

private:
    UniformTableView* m_view;
};

UniformTableView::UniformTableView(QWidget* parent)
    : QAbstractItemView(parent), m_header(new QHeaderView(Qt::Horizontal, this)),
      m_rowHeight(fontMetrics().height() + 8)
{
    m_header->setSectionsClickable(true);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    verticalScrollBar()->setSingleStep(1);
    // The header follows horizontal scrolling; its changes reshape the table.
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, m_header, &QHeaderView::setOffset);
    const auto relayout = [this] {
        updateGeometries();
        viewport()->update();
    };
    connect(m_header, &QHeaderView::sectionResized, this, relayout);
    connect(m_header, &QHeaderView::sectionMoved, this, relayout);
    connect(m_header, &QHeaderView::sectionCountChanged, this, relayout);
    connect(m_header, &QHeaderView::geometriesChanged, this, relayout);
}

UniformTableView::~UniformTableView()
{
    // QWidget's destructor deletes the header after this part of the object is gone; its last
    // signals must not reach relayout() then.
    disconnect(m_header, nullptr, this, nullptr);
}

void UniformTableView::setModel(QAbstractItemModel* model)
{
    for (const auto& c : std::as_const(m_modelConnections))
        disconnect(c);
    m_modelConnections.clear();
    QAbstractItemView::setModel(model);
    m_header->setModel(model);
    if (model) {
        // Removals, resets and sorts change the rows; insertions come through rowsInserted().
        m_modelConnections << connect(model, &QAbstractItemModel::rowsRemoved, this,
                                      &UniformTableView::rowsChanged);
        m_modelConnections << connect(model, &QAbstractItemModel::modelReset, this,
                                      &UniformTableView::rowsChanged);
        m_modelConnections << connect(model, &QAbstractItemModel::layoutChanged, this,
                                      &UniformTableView::rowsChanged);
    }
    rowsChanged();
}

void UniformTableView::setRowHeaderVisible(bool visible)
{
    if (visible == isRowHeaderVisible())
        return;
    if (visible) {
        m_rowHeader = new RowHeader(this);
        m_rowHeader->show();
    } else {
        delete m_rowHeader;
        m_rowHeader = nullptr;
    }
    updateGeometries();
}

bool UniformTableView::isRowHeaderVisible() const
{
    return m_rowHeader != nullptr;
}

int UniformTableView::rowHeaderWidth() const
{
    if (!m_rowHeader)
        return 0;
    const int rows = rowCount();
    const QString widest =
        rows > 0 && model() ? model()->headerData(rows - 1, Qt::Vertical).toString() : QString();
    QFont bold = font();
    bold.setBold(true);
    return QFontMetrics(bold).horizontalAdvance(widest) +
           2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this) + 8;
}

void UniformTableView::setRowHeight(int pixels)
{
    m_rowHeight = std::max(1, pixels);
    updateGeometries();
    viewport()->update();
}

int UniformTableView::rowCount() const
{
    return model() ? model()->rowCount(rootIndex()) : 0;
}

int UniformTableView::firstVisibleRow() const
{
    return verticalScrollBar()->value();
}

int UniformTableView::fullyVisibleRows() const
{
    return std::max(1, viewport()->height() / m_rowHeight);
}

qint64 UniformTableView::unclampedRowAt(int y) const
{
    return firstVisibleRow() + floorDiv(y, m_rowHeight);
}

int UniformTableView::rowAt(int y) const
{
    const qint64 row = unclampedRowAt(y);
    return row >= 0 && row < rowCount() ? static_cast<int>(row) : -1;
}

int UniformTableView::rowViewportPosition(int row) const
{
    const qint64 y = (static_cast<qint64>(row) - firstVisibleRow()) * m_rowHeight;
    return static_cast<int>(std::clamp<qint64>(y, INT_MIN / 2, INT_MAX / 2));
}

int UniformTableView::columnAt(int x) const
{
    return m_header->logicalIndexAt(x);
}

int UniformTableView::columnViewportPosition(int column) const
{
    return m_header->sectionViewportPosition(column);
}

int UniformTableView::columnWidth(int column) const
{
    return m_header->sectionSize(column);
}

void UniformTableView::setColumnWidth(int column, int width)
{
    m_header->resizeSection(column, width);
}

bool UniformTableView::isColumnHidden(int column) const
{
    return m_header->isSectionHidden(column);
}

void UniformTableView::setColumnHidden(int column, bool hide)
{
    m_header->setSectionHidden(column, hide);
}

void UniformTableView::sortByColumn(int column, Qt::SortOrder order)
{
    m_header->setSortIndicator(column, order);
}

void UniformTableView::selectRow(int row)
{
    if (!model() || !selectionModel() || row < 0 || row >= rowCount())
        return;
    const QModelIndex index = model()->index(row, 0, rootIndex());
    selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                 QItemSelectionModel::Rows);
}

QRect UniformTableView::visualRect(const QModelIndex& index) const
{
    if (!index.isValid() || index.parent() != rootIndex() || isIndexHidden(index))
        return {};
    return {columnViewportPosition(index.column()), rowViewportPosition(index.row()),
            columnWidth(index.column()), m_rowHeight};
}

void UniformTableView::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    if (!index.isValid() || index.parent() != rootIndex())
        return;
    const int row = index.row();
    const int visible = fullyVisibleRows();
    int top = firstVisibleRow();
    switch (hint) {
    case EnsureVisible:
        if (row < top)
            top = row;
        else if (row >= top + visible)
            top = row - visible + 1;
        break;
    case PositionAtTop:
        top = row;
        break;
    case PositionAtBottom:
        top = row - visible + 1;
        break;
    case PositionAtCenter:
        top = row - visible / 2;
        break;
    }
    verticalScrollBar()->setValue(top); // the bar clamps it to its range

    if (isIndexHidden(index))
        return;
    // Horizontally, in content pixels: the whole cell when it fits, else its left edge.
    const int left = m_header->sectionPosition(index.column());
    const int right = left + columnWidth(index.column());
    QScrollBar* bar = horizontalScrollBar();
    const int width = viewport()->width();
    if (left < bar->value())
        bar->setValue(left);
    else if (right > bar->value() + width)
        bar->setValue(std::min(left, right - width));
}

QModelIndex UniformTableView::indexAt(const QPoint& point) const
{
    const int row = rowAt(point.y());
    const int column = columnAt(point.x());
    if (row < 0 || column < 0)
        return {};
    return model()->index(row, column, rootIndex());
}

QModelIndex UniformTableView::moveCursor(CursorAction action, Qt::KeyboardModifiers)
{
    const int rows = rowCount();
    if (!model() || rows == 0 || m_header->count() == 0)
        return {};
    const QModelIndex current = currentIndex();
    if (!current.isValid()) {
        const int firstColumn = m_header->logicalIndexAt(0);
        return model()->index(0, std::max(firstColumn, 0), rootIndex());
    }
    int row = current.row();
    int column = current.column();
    const auto nextVisibleColumn = [this, column](int step) {
        for (int visual = m_header->visualIndex(column) + step;
             visual >= 0 && visual < m_header->count(); visual += step) {
            const int logical = m_header->logicalIndex(visual);
            if (!m_header->isSectionHidden(logical))
                return logical;
        }
        return column;
    };
    switch (action) {
    case MoveUp:
    case MovePrevious:
        --row;
        break;
    case MoveDown:
    case MoveNext:
        ++row;
        break;
    case MovePageUp:
        row -= fullyVisibleRows();
        break;
    case MovePageDown:
        row += fullyVisibleRows();
        break;
    // A list of rows: Home and End go to its ends, as in a list view.
    case MoveHome:
        row = 0;
        break;
    case MoveEnd:
        row = rows - 1;
        break;
    case MoveLeft:
        column = nextVisibleColumn(-1);
        break;
    case MoveRight:
        column = nextVisibleColumn(+1);
        break;
    }
    return model()->index(std::clamp(row, 0, rows - 1), column, rootIndex());
}

int UniformTableView::horizontalOffset() const
{
    return horizontalScrollBar()->value();
}

int UniformTableView::verticalOffset() const
{
    // In pixels, for QAbstractItemView's press positions; past INT_MAX (85 M rows of 25 px) a
    // drag selection across that far is approximate.
    return static_cast<int>(
        std::min<qint64>(static_cast<qint64>(firstVisibleRow()) * m_rowHeight, INT_MAX));
}

bool UniformTableView::isIndexHidden(const QModelIndex& index) const
{
    return m_header->isSectionHidden(index.column());
}

void UniformTableView::setSelection(const QRect& rect, QItemSelectionModel::SelectionFlags command)
{
    const int rows = rowCount();
    if (!selectionModel() || rows == 0 || m_header->count() == 0)
        return;
    const QRect r = rect.normalized();
    const auto clampRow = [rows](qint64 row) {
        return static_cast<int>(std::clamp<qint64>(row, 0, rows - 1));
    };
    const int top = clampRow(unclampedRowAt(r.top()));
    const int bottom = clampRow(unclampedRowAt(r.bottom()));
    int left = 0;
    int right = model()->columnCount(rootIndex()) - 1;
    if (selectionBehavior() != SelectRows) {
        const int first = columnAt(r.left());
        const int last = columnAt(r.right());
        left = first < 0 ? 0 : first;
        right = last < 0 ? right : last;
        if (left > right)
            std::swap(left, right);
    }
    const QItemSelection selection(model()->index(top, left, rootIndex()),
                                   model()->index(bottom, right, rootIndex()));
    selectionModel()->select(selection, command);
}

QRegion UniformTableView::visualRegionForSelection(const QItemSelection& selection) const
{
    // Only what is on screen: a selection of millions of rows is a handful of ranges.
    const int first = firstVisibleRow();
    const int last = first + fullyVisibleRows();
    QRegion region;
    for (const QItemSelectionRange& range : selection) {
        if (range.parent() != rootIndex() || range.bottom() < first || range.top() > last)
            continue;
        const int top = rowViewportPosition(std::max(range.top(), first));
        const int bottom = rowViewportPosition(std::min(range.bottom(), last) + 1);
        region += QRect(0, top, viewport()->width(), bottom - top);
    }
    return region;
}

void UniformTableView::updateGeometries()
{
    const int headerHeight = m_header->isHidden() ? 0 : m_header->sizeHint().height();
    const int rowHeader = rowHeaderWidth();
    setViewportMargins(rowHeader, headerHeight, 0, 0);
    const QRect area = viewport()->geometry();
    m_header->setGeometry(area.left(), area.top() - headerHeight, area.width(), headerHeight);
    if (m_rowHeader) {
        m_rowHeader->setGeometry(area.left() - rowHeader, area.top(), rowHeader, area.height());
        m_rowHeader->update();
    }

    const int rows = rowCount();
    const int visible = fullyVisibleRows();
    QScrollBar* vertical = verticalScrollBar();
    vertical->setPageStep(visible);
    vertical->setRange(0, std::max(0, rows - visible));

    QScrollBar* horizontal = horizontalScrollBar();
    horizontal->setPageStep(area.width());
    horizontal->setSingleStep(std::max(1, m_rowHeight));
    horizontal->setRange(0, std::max(0, m_header->length() - area.width()));
    m_header->setOffset(horizontal->value());
    QAbstractItemView::updateGeometries();
}

void UniformTableView::scrollContentsBy(int dx, int dy)
{
    if (dx != 0)
        m_header->setOffset(horizontalScrollBar()->value());
    if (dx != 0 || dy != 0)
        viewport()->update(); // rows move by whole rows: repainting is simpler than scrolling
    if (dy != 0 && m_rowHeader)
        m_rowHeader->update();
}

void UniformTableView::rowsInserted(const QModelIndex& parent, int start, int end)
{
    QAbstractItemView::rowsInserted(parent, start, end);
    if (parent != rootIndex())
        return;
    updateGeometries();
    // Rows appended below the viewport's last row are not drawn yet: no repaint.
    if (start <= firstVisibleRow() + fullyVisibleRows())
        viewport()->update();
}

void UniformTableView::dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                   const QList<int>&)
{
    // Not QAbstractItemView's: it unites the visual rects of every changed cell, and models here
    // say "all ten million rows may read differently now" after each batch.
    if (!topLeft.isValid() || !bottomRight.isValid() || topLeft.parent() != rootIndex())
        return;
    const int first = std::max(topLeft.row(), firstVisibleRow());
    const int last = std::min(bottomRight.row(), firstVisibleRow() + fullyVisibleRows());
    if (first > last)
        return;
    const int top = rowViewportPosition(first);
    viewport()->update(0, top, viewport()->width(), rowViewportPosition(last + 1) - top);
}

void UniformTableView::currentChanged(const QModelIndex& current, const QModelIndex& previous)
{
    QAbstractItemView::currentChanged(current, previous);
    if (m_rowHeader) // the current row's number is bold
        m_rowHeader->update();
}

void UniformTableView::rowsChanged()
{
    updateGeometries();
    viewport()->update();
}

void UniformTableView::paintEvent(QPaintEvent* event)
{
    if (!model() || m_header->count() == 0)
        return;
    QPainter painter(viewport());
    QStyleOptionViewItem base;
    initViewItemOption(&base);
    base.showDecorationSelected = true;
    const QStyle::State baseState = base.state & ~QStyle::State_HasFocus;
    const QModelIndex current = currentIndex();
    const bool focused = hasFocus();
    const QRect area = event->rect();

    const int rows = rowCount();
    const qint64 firstRow = std::max<qint64>(unclampedRowAt(area.top()), 0);
    const qint64 lastRow = std::min<qint64>(unclampedRowAt(area.bottom()), rows - 1);
    int firstVisual = m_header->visualIndexAt(area.left());
    int lastVisual = m_header->visualIndexAt(area.right());
    if (firstVisual < 0)
        firstVisual = 0;
    if (lastVisual < 0)
        lastVisual = m_header->count() - 1;
    // The first and last shown columns, for styles that round a selected row's ends.
    int firstShown = -1;
    int lastShown = -1;
    for (int visual = 0; visual < m_header->count(); ++visual) {
        if (m_header->isSectionHidden(m_header->logicalIndex(visual)))
            continue;
        firstShown = firstShown < 0 ? visual : firstShown;
        lastShown = visual;
    }

    for (qint64 row = firstRow; row <= lastRow; ++row) {
        const int r = static_cast<int>(row);
        const int y = rowViewportPosition(r);
        for (int visual = firstVisual; visual <= lastVisual; ++visual) {
            const int column = m_header->logicalIndex(visual);
            if (m_header->isSectionHidden(column))
                continue;
            const QModelIndex index = model()->index(r, column, rootIndex());
            QStyleOptionViewItem option = base;
            option.rect = QRect(m_header->sectionViewportPosition(column), y,
                                m_header->sectionSize(column), m_rowHeight);
            option.state = baseState;
            if (selectionModel() && selectionModel()->isSelected(index))
                option.state |= QStyle::State_Selected;
            if (focused && index == current)
                option.state |= QStyle::State_HasFocus;
            if (alternatingRowColors() && (r & 1))
                option.features |= QStyleOptionViewItem::Alternate;
            option.viewItemPosition = firstShown == lastShown ? QStyleOptionViewItem::OnlyOne
                                      : visual == firstShown  ? QStyleOptionViewItem::Beginning
                                      : visual == lastShown   ? QStyleOptionViewItem::End
                                                              : QStyleOptionViewItem::Middle;
            itemDelegateForIndex(index)->paint(&painter, option, index);
        }
    }
}

} // namespace nanscope::widgets
