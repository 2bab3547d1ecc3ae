// SPDX-License-Identifier: GPL-3.0-or-later
// A panel's tool row puts its trailing part (the filters) on a line of its own when the panel is
// too narrow for both parts, and back beside the leading part when it is wide enough.
#include "nanscope/widgets/toolrow.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <QVBoxLayout>
#include <cstdlib>

using nanscope::widgets::ToolRow;

class TestToolRow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wrapsOnlyWhenBothPartsDoNotFit();
    void aHiddenTrailingPartNeverWraps();
};

namespace {

struct Row
{
    QWidget window; // lays the row out at its width, as a panel does
    ToolRow* row = new ToolRow;
    QLabel* badges = new QLabel(QStringLiteral("NaN/inf 300   NaN 250   -inf 50"));
    QLineEdit* filter = new QLineEdit;

    Row()
    {
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(row);
        layout->addStretch();
        row->leading()->addWidget(badges);
        filter->setPlaceholderText(QStringLiteral("Filter by op"));
        filter->setFixedWidth(150);
        row->trailing()->addWidget(filter);
        window.show();
    }
    int oneLine() const { return row->sizeHint().width(); }
    void resizeTo(int width)
    {
        window.resize(width, 200);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
    int top(const QWidget* w) const { return w->mapTo(&window, QPoint()).y(); }
};

} // namespace

void TestToolRow::wrapsOnlyWhenBothPartsDoNotFit()
{
    Row r;
    QVERIFY(QTest::qWaitForWindowExposed(&r.window));
    // It asks for both parts on one line.
    QVERIFY(r.oneLine() >= r.badges->sizeHint().width() + 150);

    r.resizeTo(r.oneLine() + 20);
    QVERIFY(!r.row->isWrapped());
    QCOMPARE(r.filter->width(), 150); // never squeezed
    QVERIFY(std::abs(r.top(r.filter) - r.top(r.badges)) < r.filter->height());

    r.resizeTo(r.oneLine() - 40);
    QVERIFY(r.row->isWrapped());
    QCOMPARE(r.filter->width(), 150);
    QVERIFY(r.top(r.filter) > r.top(r.badges) + r.badges->height() - 1);
    QVERIFY(r.row->height() >= r.badges->height() + r.filter->height()); // room for both lines

    r.resizeTo(r.oneLine() + 100);
    QVERIFY(!r.row->isWrapped());
    // On one line the filter keeps to the right edge.
    QCOMPARE(r.filter->mapTo(r.row, QPoint()).x() + r.filter->width(), r.row->width());
}

void TestToolRow::aHiddenTrailingPartNeverWraps()
{
    Row r;
    r.filter->hide();
    QVERIFY(QTest::qWaitForWindowExposed(&r.window));
    r.resizeTo(r.badges->sizeHint().width() / 2);
    QVERIFY(!r.row->isWrapped());
    r.filter->show(); // the layout request it makes wraps the row now
    QTRY_VERIFY(r.row->isWrapped());
}

QTEST_MAIN(TestToolRow)
#include "tst_toolrow.moc"
