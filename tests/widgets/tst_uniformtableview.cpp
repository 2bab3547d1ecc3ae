// SPDX-License-Identifier: GPL-3.0-or-later
// The table for millions of rows: geometry by arithmetic, scrolling by rows (10^8 rows too),
// keyboard and mouse selection, hidden and moved columns, appended rows, row numbers, and painting
// that touches the rows on screen only.
#include "nanscope/widgets/uniformtableview.hpp"

#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyledItemDelegate>
#include <QTest>
#include <algorithm>
#include <climits>

using namespace nanscope::widgets;

namespace {

// A model of `rows` × 3 computed cells ("r12c1"), that can grow at its end.
class CountingModel : public QAbstractTableModel
{
public:
    explicit CountingModel(int rows) : m_rows(rows) {}
    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : m_rows;
    }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : 3;
    }
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::DisplayRole || !index.isValid())
            return {};
        return QStringLiteral("r%1c%2").arg(index.row()).arg(index.column());
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
            return QStringLiteral("Column %1").arg(section);
        if (orientation == Qt::Vertical && role == Qt::DisplayRole) {
            numbered << section;
            return QString::number(section);
        }
        return {};
    }
    void append(int count)
    {
        beginInsertRows({}, m_rows, m_rows + count - 1);
        m_rows += count;
        endInsertRows();
    }

    mutable QList<int> numbered; // the rows whose vertical header was asked for

private:
    int m_rows;
};

// Counts the cells painted, and which rows.
class CountingDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        ++painted;
        lowest = std::min(lowest, index.row());
        highest = std::max(highest, index.row());
        if (option.state & QStyle::State_Selected)
            selectedRows.insert(index.row());
        QStyledItemDelegate::paint(painter, option, index);
    }
    void reset()
    {
        painted = 0;
        lowest = INT_MAX;
        highest = -1;
        selectedRows.clear();
    }
    mutable int painted = 0;
    mutable int lowest = INT_MAX;
    mutable int highest = -1;
    mutable QSet<int> selectedRows;
};

struct Fixture
{
    explicit Fixture(int rows) : model(rows)
    {
        view.setModel(&model);
        view.setItemDelegate(&delegate);
        view.setSelectionBehavior(QAbstractItemView::SelectRows);
        view.setSelectionMode(QAbstractItemView::ExtendedSelection);
        view.resize(400, 300);
        view.show();
    }
    CountingModel model;
    CountingDelegate delegate;
    UniformTableView view;
};

} // namespace

class TestUniformTableView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void geometryIsArithmetic();
    void scrollsToAnyOfAHundredMillionRows();
    void paintsOnlyTheRowsOnScreen();
    void keyboardWalksRows();
    void mouseSelectsRowsAndRanges();
    void hiddenAndMovedColumns();
    void appendedRowsExtendTheScrollRange();
    void sortIndicatorReachesTheHeader();
    void changedRowsRepaintWhatIsOnScreen();
    void rowHeaderNumbersTheRowsOnScreen();
};

void TestUniformTableView::geometryIsArithmetic()
{
    Fixture f(1000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const int h = f.view.rowHeight();
    QVERIFY(h > 0);
    QCOMPARE(f.view.rowAt(0), 0);
    QCOMPARE(f.view.rowAt(h), 1);
    QCOMPARE(f.view.rowViewportPosition(3), 3 * h);
    const QModelIndex cell = f.model.index(2, 1);
    const QRect rect = f.view.visualRect(cell);
    QCOMPARE(rect.top(), 2 * h);
    QCOMPARE(rect.height(), h);
    QCOMPARE(rect.left(), f.view.columnViewportPosition(1));
    QCOMPARE(rect.width(), f.view.columnWidth(1));
    QCOMPARE(f.view.indexAt(rect.center()), cell);
    // The header sits above the rows, outside the viewport.
    QVERIFY(f.view.horizontalHeader()->isVisible());
    QVERIFY(f.view.horizontalHeader()->geometry().bottom() < f.view.viewport()->geometry().top());
    // Past the last row: nothing.
    Fixture small(2);
    QCOMPARE(small.view.indexAt(QPoint(5, 5 * small.view.rowHeight())), QModelIndex());
    QCOMPARE(small.view.rowAt(-1), -1);
}

void TestUniformTableView::scrollsToAnyOfAHundredMillionRows()
{
    Fixture f(100'000'000); // 2.5 G pixels of rows: a pixel offset would overflow an int
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const int visible = f.view.fullyVisibleRows();
    QCOMPARE(f.view.verticalScrollBar()->maximum(), 100'000'000 - visible);
    for (const int row : {99'999'999, 50'000'000, 12'345, 0}) {
        const QModelIndex index = f.model.index(row, 0);
        f.view.scrollTo(index, QAbstractItemView::PositionAtCenter);
        const QRect rect = f.view.visualRect(index);
        QVERIFY2(f.view.viewport()->rect().contains(rect), qPrintable(QString::number(row)));
        QCOMPARE(f.view.indexAt(rect.center()), index);
    }
    f.view.scrollTo(f.model.index(99'999'999, 0)); // EnsureVisible: the last row at the bottom
    QCOMPARE(f.view.firstVisibleRow(), 100'000'000 - visible);
}

void TestUniformTableView::paintsOnlyTheRowsOnScreen()
{
    Fixture f(10'000'000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.scrollTo(f.model.index(7'000'000, 0), QAbstractItemView::PositionAtTop);
    f.delegate.reset();
    f.view.viewport()->repaint();
    QCOMPARE(f.delegate.lowest, 7'000'000);
    // The rows wholly on screen and the one cut at the bottom, three columns each.
    QVERIFY(f.delegate.highest <= 7'000'000 + f.view.fullyVisibleRows());
    QVERIFY(f.delegate.painted <= 3 * (f.view.fullyVisibleRows() + 1));
    QVERIFY(f.delegate.painted >= 3 * f.view.fullyVisibleRows());
}

void TestUniformTableView::rowHeaderNumbersTheRowsOnScreen()
{
    Fixture f(10'000'000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const int left = f.view.viewport()->geometry().left();
    f.view.setRowHeaderVisible(true);
    QVERIFY(f.view.isRowHeaderVisible());
    // The rows and their header move right by the numbers' width (of the last row's number).
    const QRect viewport = f.view.viewport()->geometry();
    QVERIFY(viewport.left() >=
            left + f.view.fontMetrics().horizontalAdvance(QStringLiteral("9999999")));
    QCOMPARE(f.view.horizontalHeader()->geometry().left(), viewport.left());
    f.view.scrollTo(f.model.index(7'000'000, 0), QAbstractItemView::PositionAtTop);
    f.model.numbered.clear();
    (void)f.view.grab();
    QVERIFY(!f.model.numbered.isEmpty());
    for (const int row : std::as_const(f.model.numbered))
        QVERIFY2(row == 9'999'999 ||
                     (row >= 7'000'000 && row <= 7'000'000 + f.view.fullyVisibleRows() + 1),
                 qPrintable(QString::number(row)));
    f.view.setRowHeaderVisible(false);
    QCOMPARE(f.view.viewport()->geometry().left(), left);
}

void TestUniformTableView::keyboardWalksRows()
{
    Fixture f(10'000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.setFocus();
    f.view.setCurrentIndex(f.model.index(5, 0));
    QTest::keyClick(&f.view, Qt::Key_Down);
    QCOMPARE(f.view.currentIndex().row(), 6);
    QTest::keyClick(&f.view, Qt::Key_PageDown);
    QCOMPARE(f.view.currentIndex().row(), 6 + f.view.fullyVisibleRows());
    QTest::keyClick(&f.view, Qt::Key_End);
    QCOMPARE(f.view.currentIndex().row(), 9'999);
    QVERIFY(f.view.viewport()->rect().contains(f.view.visualRect(f.view.currentIndex())));
    QTest::keyClick(&f.view, Qt::Key_Home);
    QCOMPARE(f.view.currentIndex().row(), 0);
    QCOMPARE(f.view.firstVisibleRow(), 0);
    QTest::keyClick(&f.view, Qt::Key_Up); // stays at the first row
    QCOMPARE(f.view.currentIndex().row(), 0);
    QTest::keyClick(&f.view, Qt::Key_Right);
    QCOMPARE(f.view.currentIndex().column(), 1);
    // The selection follows the current row, whole rows.
    QVERIFY(f.view.selectionModel()->isRowSelected(0, {}));
}

void TestUniformTableView::mouseSelectsRowsAndRanges()
{
    Fixture f(1'000'000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const auto centreOf = [&](int row) {
        return f.view.visualRect(f.model.index(row, 1)).center();
    };
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, centreOf(2));
    QCOMPARE(f.view.currentIndex().row(), 2);
    QVERIFY(f.view.selectionModel()->isRowSelected(2, {}));
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, Qt::ShiftModifier, centreOf(5));
    for (int row = 2; row <= 5; ++row)
        QVERIFY(f.view.selectionModel()->isRowSelected(row, {}));
    QVERIFY(!f.view.selectionModel()->isRowSelected(6, {}));
    // What is selected is painted so.
    f.delegate.reset();
    f.view.viewport()->repaint();
    QCOMPARE(f.delegate.selectedRows, (QSet<int>{2, 3, 4, 5}));
    // Select all of a million rows: one range, not a million.
    f.view.selectAll();
    QCOMPARE(f.view.selectionModel()->selection().size(), 1);
    QVERIFY(f.view.selectionModel()->isRowSelected(999'999, {}));
    // A double-click reports its cell (QTest's double-click needs the click before it).
    QSignalSpy activated(&f.view, &QAbstractItemView::doubleClicked);
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, centreOf(3));
    QTest::mouseDClick(f.view.viewport(), Qt::LeftButton, {}, centreOf(3));
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().value<QModelIndex>(), f.model.index(3, 1));
}

void TestUniformTableView::hiddenAndMovedColumns()
{
    Fixture f(100);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.setColumnWidth(0, 80);
    f.view.setColumnWidth(1, 90);
    QCOMPARE(f.view.columnWidth(0), 80);
    f.view.hideColumn(0);
    QVERIFY(f.view.isColumnHidden(0));
    QVERIFY(f.view.visualRect(f.model.index(0, 0)).isEmpty());
    QCOMPARE(f.view.columnViewportPosition(1), 0); // column 1 now comes first
    QCOMPARE(f.view.indexAt(QPoint(5, 2)).column(), 1);
    f.delegate.reset();
    f.view.viewport()->repaint();
    QVERIFY(f.delegate.painted > 0);
    f.view.showColumn(0);
    f.view.horizontalHeader()->moveSection(2, 0); // column 2 first
    QCOMPARE(f.view.columnViewportPosition(2), 0);
    QCOMPARE(f.view.indexAt(QPoint(5, 2)).column(), 2);
}

void TestUniformTableView::appendedRowsExtendTheScrollRange()
{
    Fixture f(1000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.scrollTo(f.model.index(500, 0), QAbstractItemView::PositionAtTop);
    f.view.setCurrentIndex(f.model.index(500, 0));
    f.model.append(9'000'000);
    QCOMPARE(f.view.verticalScrollBar()->maximum(), 9'001'000 - f.view.fullyVisibleRows());
    QCOMPARE(f.view.firstVisibleRow(), 500); // where the user was
    QCOMPARE(f.view.currentIndex().row(), 500);
    f.view.scrollTo(f.model.index(9'000'999, 0));
    QVERIFY(f.view.viewport()->rect().contains(f.view.visualRect(f.model.index(9'000'999, 0))));
}

void TestUniformTableView::sortIndicatorReachesTheHeader()
{
    Fixture f(10);
    QSignalSpy changed(f.view.horizontalHeader(), &QHeaderView::sortIndicatorChanged);
    f.view.horizontalHeader()->setSortIndicatorShown(true);
    f.view.sortByColumn(2, Qt::DescendingOrder);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(f.view.horizontalHeader()->sortIndicatorSection(), 2);
    QCOMPARE(f.view.horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
}

void TestUniformTableView::changedRowsRepaintWhatIsOnScreen()
{
    Fixture f(10'000'000);
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.scrollTo(f.model.index(100, 0), QAbstractItemView::PositionAtTop);
    QApplication::processEvents();
    // Every row changed (what the item models say after each batch of a load): the rows on
    // screen are painted again, and only they.
    f.delegate.reset();
    Q_EMIT f.model.dataChanged(f.model.index(0, 0), f.model.index(9'999'999, 2));
    QApplication::processEvents();
    QCOMPARE(f.delegate.lowest, 100);
    QVERIFY(f.delegate.painted <= 3 * (f.view.fullyVisibleRows() + 1));
    // Rows off screen changed: nothing to paint.
    f.delegate.reset();
    Q_EMIT f.model.dataChanged(f.model.index(5'000'000, 0), f.model.index(5'000'010, 2));
    QApplication::processEvents();
    QCOMPARE(f.delegate.painted, 0);
}

QTEST_MAIN(TestUniformTableView)
#include "tst_uniformtableview.moc"
