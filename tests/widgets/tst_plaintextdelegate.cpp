// SPDX-License-Identifier: GPL-3.0-or-later
// PlainTextDelegate paints one-line cells itself, with text shaped once and kept: its pixels must
// be QStyledItemDelegate's, cell for cell (alignments, elision, selection, colours, fonts, right to
// left), and the same again when the kept layouts are reused.
#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QStyleFactory>
#include <QTableView>
#include <QTest>

using nanscope::widgets::PlainTextDelegate;

namespace {

// The delegate with its protected parts in reach.
class OpenDelegate : public PlainTextDelegate
{
public:
    using PlainTextDelegate::initStyleOption;
    using PlainTextDelegate::paintsPlainly;
    using PlainTextDelegate::PlainTextDelegate;
};

struct Cell
{
    QString text;
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter;
    Qt::TextElideMode elide = Qt::ElideRight;
    int width = 160;
    bool selected = false;
    bool enabled = true;
    bool bold = false;
    QColor foreground;
    Qt::LayoutDirection direction = Qt::LeftToRight;
};

QImage paintCell(const QStyledItemDelegate& delegate, QTableView& view, const QModelIndex& index,
                 const Cell& cell)
{
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(3, 2, cell.width, 22); // not at the origin: offsets must carry
    option.textElideMode = cell.elide;
    option.direction = cell.direction;
    option.state |= QStyle::State_Active;
    if (cell.selected)
        option.state |= QStyle::State_Selected;
    if (!cell.enabled)
        option.state &= ~QStyle::State_Enabled;
    if (cell.bold) {
        option.font.setBold(true);
        option.fontMetrics = QFontMetrics(option.font);
    }
    QImage image(cell.width + 6, 26, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    delegate.paint(&painter, option, index);
    return image;
}

} // namespace

Q_DECLARE_METATYPE(Cell)

class TestPlainTextDelegate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void paintsAsTheStyledDelegate_data();
    void paintsAsTheStyledDelegate();
    void leavesOtherCellsToTheStyle();
    void forgetsOldLayoutsAndMakesThemAgain();
};

void TestPlainTextDelegate::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("fusion")));
}

void TestPlainTextDelegate::paintsAsTheStyledDelegate_data()
{
    QTest::addColumn<Cell>("cell");
    const QString name = QStringLiteral("gradient_tape/model/dense_1/MatMul_1");
    QTest::newRow("left") << Cell{QStringLiteral("MatMul")};
    QTest::newRow("right") << Cell{QStringLiteral("1,234,567"), Qt::AlignRight | Qt::AlignVCenter};
    QTest::newRow("top") << Cell{QStringLiteral("Log"), Qt::AlignLeft | Qt::AlignTop};
    QTest::newRow("elided right") << Cell{name, Qt::AlignLeft | Qt::AlignVCenter, Qt::ElideRight,
                                          90};
    QTest::newRow("elided left") << Cell{name, Qt::AlignLeft | Qt::AlignVCenter, Qt::ElideLeft, 90};
    QTest::newRow("elided middle")
        << Cell{name, Qt::AlignLeft | Qt::AlignVCenter, Qt::ElideMiddle, 90};
    QTest::newRow("cut, not elided")
        << Cell{name, Qt::AlignLeft | Qt::AlignVCenter, Qt::ElideNone, 90};
    Cell selected{QStringLiteral("Softmax")};
    selected.selected = true;
    QTest::newRow("selected") << selected;
    Cell disabled{QStringLiteral("Softmax")};
    disabled.enabled = false;
    QTest::newRow("disabled") << disabled;
    Cell bold{QStringLiteral("origin: Log")};
    bold.bold = true;
    QTest::newRow("bold") << bold;
    Cell coloured{QStringLiteral("NaN")};
    coloured.foreground = QColor(0xe5, 0x25, 0x92);
    QTest::newRow("foreground") << coloured;
    Cell rightToLeft{QStringLiteral("MatMul"), Qt::AlignLeft | Qt::AlignVCenter};
    rightToLeft.direction = Qt::RightToLeft;
    QTest::newRow("right to left") << rightToLeft;
    QTest::newRow("markup stays text") << Cell{QStringLiteral("<b>x</b> &amp;")};
    QTest::newRow("empty") << Cell{QString()};
}

void TestPlainTextDelegate::paintsAsTheStyledDelegate()
{
    QFETCH(Cell, cell);
    QStandardItemModel model(1, 1);
    model.setData(model.index(0, 0), cell.text);
    model.setData(model.index(0, 0), QVariant::fromValue(cell.alignment), Qt::TextAlignmentRole);
    if (cell.foreground.isValid())
        model.setData(model.index(0, 0), cell.foreground, Qt::ForegroundRole);
    QTableView view;
    view.setModel(&model);
    const QModelIndex index = model.index(0, 0);

    OpenDelegate own;
    const QStyledItemDelegate styled;
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    own.initStyleOption(&option, index);
    QVERIFY(OpenDelegate::paintsPlainly(option)); // the comparison is of the delegate's own path

    const QImage expected = paintCell(styled, view, index, cell);
    const QImage first = paintCell(own, view, index, cell);
    const QImage again = paintCell(own, view, index, cell); // from the kept layout
    if (!cell.text.isEmpty()) {
        QImage blank(expected.size(), expected.format());
        blank.fill(Qt::white);
        QVERIFY(expected != blank); // the text is there to compare
    }
    QCOMPARE(first, expected);
    QCOMPARE(again, expected);
}

void TestPlainTextDelegate::leavesOtherCellsToTheStyle()
{
    QStandardItemModel model(1, 1);
    auto* item = new QStandardItem(QStringLiteral("two\nlines"));
    model.setItem(0, 0, item);
    QTableView view;
    view.setModel(&model);
    OpenDelegate own;
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    own.initStyleOption(&option, model.index(0, 0));
    QVERIFY(!OpenDelegate::paintsPlainly(option));

    model.setData(model.index(0, 0), QVariant::fromValue(Qt::Alignment(Qt::AlignCenter)),
                  Qt::TextAlignmentRole);
    item->setText(QStringLiteral("centred"));
    option = QStyleOptionViewItem();
    option.initFrom(&view);
    option.widget = &view;
    own.initStyleOption(&option, model.index(0, 0));
    QVERIFY(!OpenDelegate::paintsPlainly(option));

    item->setText(QStringLiteral("checked"));
    item->setCheckable(true);
    option = QStyleOptionViewItem();
    option.initFrom(&view);
    option.widget = &view;
    own.initStyleOption(&option, model.index(0, 0));
    QVERIFY(!OpenDelegate::paintsPlainly(option));

    // Whatever paints them, they paint as the styled delegate does.
    const QStyledItemDelegate styled;
    const Cell cell{QStringLiteral("checked")};
    QCOMPARE(paintCell(own, view, model.index(0, 0), cell),
             paintCell(styled, view, model.index(0, 0), cell));
}

void TestPlainTextDelegate::forgetsOldLayoutsAndMakesThemAgain()
{
    // More strings than the kept layouts hold: the first ones are dropped on the way, and painted
    // the same when they come back.
    QStandardItemModel model(1, 1);
    QTableView view;
    view.setModel(&model);
    const QModelIndex index = model.index(0, 0);
    OpenDelegate own;
    const QStyledItemDelegate styled;
    const auto cellOf = [&](int i) {
        Cell cell{QStringLiteral("trace #%1").arg(i)};
        model.setData(index, cell.text);
        return cell;
    };
    const Cell first = cellOf(0);
    const QImage expected = paintCell(styled, view, index, first);
    QCOMPARE(paintCell(own, view, index, first), expected);
    for (int i = 1; i < 10'000; ++i)
        paintCell(own, view, index, cellOf(i));
    QCOMPARE(paintCell(own, view, index, cellOf(0)), expected);
}

QTEST_MAIN(TestPlainTextDelegate)
#include "tst_plaintextdelegate.moc"
