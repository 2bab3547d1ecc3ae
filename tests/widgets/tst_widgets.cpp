// SPDX-License-Identifier: GPL-3.0-or-later
// The domain-free widgets: the health bar delegate (a single NaN among a million values still
// shows), the find bar's keys, the banner, the elided label, the start page and copying rows.
#include "nanscope/widgets/banner.hpp"
#include "nanscope/widgets/chiplabel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "nanscope/widgets/healthbardelegate.hpp"
#include "nanscope/widgets/numberdelegate.hpp"
#include "nanscope/widgets/numberformat.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/scopenamedelegate.hpp"
#include "nanscope/widgets/startpage.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace nanscope::widgets;

namespace {

constexpr int kNanRole = Qt::UserRole + 1;
constexpr int kPositiveRole = Qt::UserRole + 2;
const QColor kNan(0xe5, 0x25, 0x92);
const QColor kPositive(0x4d, 0xb6, 0xac);

} // namespace

class TestWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void healthBarShowsTinyCounts();
    void healthBarFallsBackToText();
    void findBarKeys();
    void bannerIsPlainAndDismissable();
    void elidedLabelKeepsTheWholeTextInItsTooltip();
    void wrappedPlainLabelsMeasureWhatTheyShow();
    void startPageListsRecentItems();
    void tableCopiesSelectedRows();
    void numbersAreShortenedNeverCut();
    void scopeNamesKeepTheirLastSegment();
    void healthTextDropsWholeParts();
    void checkableChipToggles();
};

void TestWidgets::wrappedPlainLabelsMeasureWhatTheyShow()
{
    // The plain labels remember their heights per width: each answer must still be the one a
    // fresh QLabel gives for what the label shows now.
    const QString words = QStringLiteral("No source shown. Double-click an alert or click a stack "
                                         "frame to show the line that created an op.");
    QWidget parent;
    for (const bool selectable : {false, true}) {
        QLabel* label = selectable ? selectableLabel(words, &parent) : plainLabel(words, &parent);
        label->setWordWrap(true);
        const auto fresh = [&](int width) {
            QLabel reference(label->text());
            reference.setTextFormat(Qt::PlainText);
            reference.setTextInteractionFlags(label->textInteractionFlags());
            reference.setWordWrap(label->wordWrap());
            reference.setFont(label->font());
            reference.setMargin(label->margin());
            return reference.heightForWidth(width);
        };
        for (const int width : {80, 200, 80, 600})
            QCOMPARE(label->heightForWidth(width), fresh(width));
        const int narrow = label->heightForWidth(120);
        label->setText(words + QLatin1Char(' ') + words);
        QVERIFY(label->heightForWidth(120) > narrow);
        QCOMPARE(label->heightForWidth(120), fresh(120));
        QFont large = label->font();
        large.setPointSizeF(large.pointSizeF() * 2);
        const int before = label->heightForWidth(300);
        label->setFont(large);
        QVERIFY(label->heightForWidth(300) > before);
        QCOMPARE(label->heightForWidth(300), fresh(300));
        label->setMargin(20);
        QCOMPARE(label->heightForWidth(300), fresh(300));
    }
}

void TestWidgets::healthBarShowsTinyCounts()
{
    QStandardItemModel model(1, 1);
    model.setData(model.index(0, 0), 1.0, kNanRole);
    model.setData(model.index(0, 0), 999999.0, kPositiveRole);
    HealthBarDelegate delegate({{kNanRole, kNan, QStringLiteral("NaN")},
                                {kPositiveRole, kPositive, QStringLiteral("pos")}});
    const QModelIndex index = model.index(0, 0);
    QCOMPARE(delegate.counts(index), (QList<double>{1.0, 999999.0}));
    const QString text = delegate.countsText(delegate.counts(index));
    QVERIFY2(text.startsWith(QStringLiteral("1")) && text.contains(QStringLiteral("NaN")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("1.0M")), qPrintable(text)); // large counts are compact

    QImage image(300, 24, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    QStyleOptionViewItem option;
    option.rect = image.rect();
    option.palette = QApplication::palette();
    option.fontMetrics = QFontMetrics(QApplication::font());
    delegate.paint(&painter, option, index);
    painter.end();
    int nanPixels = 0;
    for (int x = 0; x < 100; ++x)
        nanPixels += image.pixelColor(x, 12) == kNan ? 1 : 0;
    QVERIFY2(nanPixels >= 1, "one NaN in a million must still be visible");
}

void TestWidgets::healthBarFallsBackToText()
{
    QStandardItemModel model(1, 1);
    model.setData(model.index(0, 0), QStringLiteral("finite"), Qt::DisplayRole);
    HealthBarDelegate delegate({{kNanRole, kNan, QStringLiteral("NaN")}});
    QVERIFY(delegate.counts(model.index(0, 0)).isEmpty());
}

void TestWidgets::findBarKeys()
{
    FindBar bar;
    bar.show();
    QSignalSpy next(&bar, &FindBar::findNext);
    QSignalSpy previous(&bar, &FindBar::findPrevious);
    QSignalSpy closed(&bar, &FindBar::closed);
    bar.activate();
    QTest::keyClicks(bar.lineEdit(), QStringLiteral("Log"));
    QTest::keyClick(bar.lineEdit(), Qt::Key_Return);
    QCOMPARE(next.count(), 1);
    QCOMPARE(next.first().first().toString(), QStringLiteral("Log"));
    QTest::keyClick(bar.lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(previous.count(), 1);
    bar.setStatus(QStringLiteral("No match"));
    QCOMPARE(bar.status(), QStringLiteral("No match"));
    QTest::keyClick(bar.lineEdit(), Qt::Key_Escape);
    QCOMPARE(closed.count(), 1);
    QVERIFY(bar.isHidden());
}

void TestWidgets::bannerIsPlainAndDismissable()
{
    Banner banner;
    QVERIFY(banner.isHidden());
    QSignalSpy action(&banner, &Banner::actionTriggered);
    QSignalSpy dismissed(&banner, &Banner::dismissed);
    banner.showMessage(Banner::Kind::Error, QStringLiteral("<b>x</b>"),
                       QStringLiteral("a <i>record</i>"), QStringLiteral("Details…"));
    QVERIFY(!banner.isHidden());
    QCOMPARE(banner.kind(), Banner::Kind::Error);
    QCOMPARE(banner.title(), QStringLiteral("<b>x</b>"));
    for (const QLabel* label : banner.findChildren<QLabel*>())
        if (!label->text().isEmpty())
            QCOMPARE(label->textFormat(), Qt::PlainText);
    for (QAbstractButton* button : banner.findChildren<QAbstractButton*>())
        if (button->text() == QStringLiteral("Details…"))
            button->click();
    QCOMPARE(action.count(), 1);
    for (QAbstractButton* button : banner.findChildren<QAbstractButton*>())
        if (button->text().isEmpty())
            button->click(); // the close button
    QCOMPARE(dismissed.count(), 1);
    QVERIFY(banner.isHidden());
    QVERIFY(!banner.grab().isNull());
}

void TestWidgets::elidedLabelKeepsTheWholeTextInItsTooltip()
{
    ElidedLabel label(QStringLiteral("/a/very/long/path/to/some/<b>file</b>.py"));
    label.resize(80, 20);
    QVERIFY(label.elidedText().contains(QChar(0x2026)));
    QVERIFY(label.toolTip().contains(QStringLiteral("&lt;b&gt;")));
    label.resize(2000, 20);
    QCOMPARE(label.elidedText(), label.text());
}

void TestWidgets::startPageListsRecentItems()
{
    StartPage page;
    QSignalSpy open(&page, &StartPage::openRequested);
    QSignalSpy demo(&page, &StartPage::demoRequested);
    QSignalSpy recent(&page, &StartPage::recentActivated);
    page.setRecent({QStringLiteral("/logs/a"), QStringLiteral("/logs/b")});
    QCOMPARE(page.recent(), (QStringList{QStringLiteral("/logs/a"), QStringLiteral("/logs/b")}));
    page.openButton()->click();
    page.demoButton()->click();
    QCOMPARE(open.count(), 1);
    QCOMPARE(demo.count(), 1);
    Q_EMIT page.recentList()->itemClicked(page.recentList()->item(1));
    QCOMPARE(recent.first().first().toString(), QStringLiteral("/logs/b"));
    page.setBusy(QStringLiteral("Running the demo…"));
    QVERIFY(!page.demoButton()->isEnabled());
    page.setBusy({});
    QVERIFY(page.demoButton()->isEnabled());
}

void TestWidgets::tableCopiesSelectedRows()
{
    QStandardItemModel model(3, 2);
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 2; ++column)
            model.setData(model.index(row, column), QStringLiteral("r%1c%2").arg(row).arg(column));
    CopyableTableView view;
    view.setModel(&model);
    view.selectRow(0);
    view.selectionModel()->select(model.index(2, 0),
                                  QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(view.selectionText(), QStringLiteral("r0c0\tr0c1\nr2c0\tr2c1"));
    view.hideColumn(1);
    QCOMPARE(view.selectionText(), QStringLiteral("r0c0\nr2c0"));
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("r0c0\nr2c0"));
}

QTEST_MAIN(TestWidgets)
void TestWidgets::numbersAreShortenedNeverCut()
{
    const QLocale locale;
    QCOMPARE(compactCount(99999), locale.toString(99999));
    QCOMPARE(compactCount(123456), locale.toString(123.0, 'f', 0) + QLatin1Char('k'));
    QCOMPARE(compactCount(1234567), locale.toString(1.2, 'f', 1) + QLatin1Char('M'));
    QCOMPARE(compactCount(5e9), locale.toString(5.0, 'f', 1) + QLatin1Char('G'));
    QCOMPARE(compactCount(-2.5e6), QStringLiteral("-") + locale.toString(2.5, 'f', 1) + 'M');
    const QFontMetrics metrics(QApplication::font());
    const double millions = 5'123'456;
    const QString whole = locale.toString(qlonglong{5'123'456});
    QCOMPARE(countThatFits(millions, QApplication::font(), metrics.horizontalAdvance(whole)),
             whole);
    QCOMPARE(countThatFits(millions, QApplication::font(), metrics.horizontalAdvance(whole) - 1),
             compactCount(millions));

    // In a table: right-aligned, shortened when the column is narrow, exact in the tooltip.
    QStandardItemModel model(1, 1);
    model.setData(model.index(0, 0), QVariant::fromValue(qulonglong{5'123'456}));
    QTableView view;
    view.setModel(&model);
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.fontMetrics = metrics;
    option.rect = QRect(0, 0, 40, 20);
    QString shown;
    Qt::Alignment alignment;
    struct Probe : NumberDelegate
    {
        using NumberDelegate::initStyleOption;
    };
    Probe probe;
    probe.initStyleOption(&option, model.index(0, 0));
    shown = option.text;
    alignment = option.displayAlignment;
    QCOMPARE(shown, compactCount(millions));
    QVERIFY(alignment & Qt::AlignRight);
    option.rect = QRect(0, 0, 400, 20);
    probe.initStyleOption(&option, model.index(0, 0));
    QCOMPARE(option.text, whole);
}

void TestWidgets::scopeNamesKeepTheirLastSegment()
{
    const QFontMetrics metrics(QApplication::font());
    const QString name = QStringLiteral("model/encoder/layer_3/attention/MatMul:0");
    QCOMPARE(elideScopeName(name, metrics, metrics.horizontalAdvance(name)), name);
    for (const QString& keep : {QStringLiteral("/MatMul:0")}) {
        const int width = metrics.horizontalAdvance(QStringLiteral("model/enc…") + keep);
        const QString elided = elideScopeName(name, metrics, width);
        QVERIFY2(elided.endsWith(keep) && elided.startsWith(QStringLiteral("m")),
                 qPrintable(elided));
        QVERIFY2(elided.contains(QStringLiteral("…")), qPrintable(elided));
        QVERIFY(metrics.horizontalAdvance(elided) <= width);
    }
    // No room for the outer scopes: the op alone, marked as a part.
    const int tight = metrics.horizontalAdvance(QStringLiteral("…/MatMul:0"));
    QCOMPARE(elideScopeName(name, metrics, tight), QStringLiteral("…/MatMul:0"));
    // Not even for the op: its end.
    const QString end =
        elideScopeName(name, metrics, metrics.horizontalAdvance(QStringLiteral("…l:0")));
    QVERIFY2(end.endsWith(QStringLiteral(":0")), qPrintable(end));
    QCOMPARE(elideScopeName(QStringLiteral("Log:0"), metrics, 1000), QStringLiteral("Log:0"));
}

void TestWidgets::healthTextDropsWholeParts()
{
    HealthBarDelegate delegate({{kNanRole, kNan, QStringLiteral("NaN")},
                                {kPositiveRole, kPositive, QStringLiteral("zero")}});
    const QList<double> counts{3, 899};
    const QFont font = QApplication::font();
    const QFontMetrics metrics(font);
    const QString all = delegate.countsText(counts);
    QCOMPARE(delegate.fittingCountsText(counts, font, metrics.horizontalAdvance(all)), all);
    QCOMPARE(delegate.fittingCountsText(counts, font, metrics.horizontalAdvance(all) - 1),
             delegate.countsText({3, 0}) + QStringLiteral("  …"));
    const QString first = delegate.countsText({3, 0});
    const QString some = delegate.fittingCountsText(
        counts, font, metrics.horizontalAdvance(first + QStringLiteral("  …")));
    QCOMPARE(some, first + QStringLiteral("  …")); // "899 zer" never appears
    QCOMPARE(delegate.fittingCountsText(counts, font, 5), QStringLiteral("…"));
}

void TestWidgets::checkableChipToggles()
{
    ChipLabel chip;
    chip.setText(QStringLiteral("NaN 3"));
    QSignalSpy toggled(&chip, &ChipLabel::toggled);
    QTest::mouseClick(&chip, Qt::LeftButton); // not checkable: nothing
    QCOMPARE(toggled.count(), 0);
    chip.setCheckable(true);
    chip.show();
    QTest::mouseClick(&chip, Qt::LeftButton);
    QCOMPARE(toggled.count(), 1);
    QVERIFY(chip.isChecked());
    QTest::keyClick(&chip, Qt::Key_Space);
    QVERIFY(!chip.isChecked());
    chip.setChecked(true); // a program's change emits nothing
    QCOMPARE(toggled.count(), 2);
    // Checking never changes the chip's size, so the header never jumps.
    const QSize size = chip.sizeHint();
    chip.setChecked(false);
    QCOMPARE(chip.sizeHint(), size);
}

#include "tst_widgets.moc"
