// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel over values the program made on purpose (core/intent.hpp): an attention
// mask's −∞ is set aside (hidden behind the "Intended" toggle, dimmed when shown, not counted,
// skipped by F3), the origin is the log of the zeros softmax made of it, the origin box names
// what was set aside, and "Treat as Expected" offers the log's own pattern.
#include "maskedlogdir.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/alertmodel.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/navigator.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "screenshot.hpp"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace nanscope;
using Masked = test::MaskedExecution;

namespace {

constexpr int kWait = 15000;

items::SnapshotPtr read(const QString& path, std::vector<core::ExpectedPattern> expected = {})
{
    core::ReaderOptions options;
    options.expected = std::move(expected);
    core::LogdirReader reader(path.toStdString(), options);
    return reader.update();
}

// The Alerts panel, shown, over the masked-attention logdir.
struct Setup
{
    QTemporaryDir dir;
    views::Navigator navigator;
    views::AlertsPanel panel{&navigator};

    Setup()
    {
        test::writeMaskedAttentionLogdir(dir.path().toStdString());
        panel.resize(900, 600);
        panel.show();
        navigator.setSnapshot(read(dir.path()));
    }
    // The op type of row `row` of the list as shown.
    QString shownType(int row) const
    {
        return panel.proxy()->index(row, items::AlertModel::OpTypeColumn).data().toString();
    }
    std::optional<std::uint64_t> focusedExecution() const
    {
        const auto& event = navigator.focus().event;
        if (!event || event->source != core::EventSource::Eager)
            return std::nullopt;
        return event->index;
    }
};

} // namespace

class TestSetAside : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void intendedAlertsAreHiddenAndNotCounted();
    void theToggleListsThemDimmed();
    void stepsSkipWhatIsHidden();
    void treatAsExpectedOffersTheOpsPattern();
    void expectedValuesLeaveNoOrigin();
};

void TestSetAside::intendedAlertsAreHiddenAndNotCounted()
{
    Setup s;
    QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
    QAbstractItemModelTester listTester(s.panel.proxy(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester modelTester(s.panel.model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.panel.model()->rowCount(), 3);
    QCOMPARE(s.panel.setAsideAlertCount(), 1u);
    // The list: the log and the mean; the mask waits behind the toggle.
    QCOMPARE(s.panel.proxy()->rowCount(), 2);
    QCOMPARE(s.shownType(0), QStringLiteral("log"));
    QCOMPARE(s.shownType(1), QStringLiteral("mean"));
    QVERIFY(!s.panel.showsSetAside());
    QVERIFY(s.panel.setAsideToggle()->isVisible());
    QCOMPARE(s.panel.setAsideToggle()->text(), QStringLiteral("Intended (1)"));
    QVERIFY(s.panel.view()->isColumnHidden(items::AlertModel::StatusColumn));
    // The badges count only what counts.
    const QStringList counts = s.panel.countTexts();
    QVERIFY2(counts.contains(QStringLiteral("NaN/∞  2")), qPrintable(counts.join(u'|')));
    QVERIFY2(counts.contains(QStringLiteral("−∞  2")), qPrintable(counts.join(u'|')));
    QVERIFY2(counts.contains(QStringLiteral("NaN  0")), qPrintable(counts.join(u'|')));
    QCOMPARE(s.panel.windowTitle(), QStringLiteral("Alerts (2)"));
    // The origin is the log, and the box says what was set aside, as plain lines.
    QVERIFY(s.panel.hasOrigin());
    const QString origin = s.panel.originText();
    QVERIFY2(origin.startsWith(QStringLiteral("Origin: aten::log")), qPrintable(origin));
    QVERIFY2(origin.contains(QStringLiteral("Set aside as intended: −∞ from aten::masked_fill")),
             qPrintable(origin));
    // TensorBoard blames the mask, which comes first: not "a later op".
    QVERIFY2(origin.contains(QStringLiteral("TensorBoard's first alert is aten::masked_fill "
                                            "(eager execution #0), whose values were set aside")),
             qPrintable(origin));
    // Double-clicking the first alert (the window's jump) lands on the log.
    s.panel.activateRow(0);
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::Log));
}

void TestSetAside::theToggleListsThemDimmed()
{
    Setup s;
    QAbstractItemModelTester listTester(s.panel.proxy(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 2, kWait);
    QTest::mouseClick(s.panel.setAsideToggle(), Qt::LeftButton);
    QVERIFY(s.panel.showsSetAside());
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 3, kWait);
    QCOMPARE(s.shownType(0), QStringLiteral("masked_fill"));
    const QModelIndex mask = s.panel.proxy()->index(0, items::AlertModel::OpTypeColumn);
    QVERIFY(mask.data(Qt::ForegroundRole).isValid()); // dimmed
    QVERIFY(!s.panel.proxy()->index(1, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(!s.panel.view()->isColumnHidden(items::AlertModel::StatusColumn));
    QCOMPARE(s.panel.proxy()->index(0, items::AlertModel::StatusColumn).data().toString(),
             QStringLiteral("intended −∞"));
    // Still not counted.
    QVERIFY(s.panel.countTexts().contains(QStringLiteral("NaN/∞  2")));
    QVERIFY(test::saveScreenshot(&s.panel, QStringLiteral("alerts-set-aside-shown")));
    // Sorted by status: the set-aside alert first, the others (no status) after it.
    s.panel.view()->sortByColumn(items::AlertModel::StatusColumn, Qt::DescendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QCOMPARE(s.shownType(0), QStringLiteral("masked_fill"));
    s.panel.view()->sortByColumn(items::AlertModel::IndexColumn, Qt::AscendingOrder);

    s.panel.setShowSetAside(false);
    QVERIFY(!s.panel.setAsideToggle()->isChecked());
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 2, kWait);
    QVERIFY(s.panel.view()->isColumnHidden(items::AlertModel::StatusColumn));
}

void TestSetAside::stepsSkipWhatIsHidden()
{
    Setup s;
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 2, kWait);
    // F3 from nothing: the first alert in execution order that is listed, the log.
    s.panel.nextAlert();
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::Log));
    s.panel.nextAlert();
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::Mean));
    s.panel.nextAlert(); // wraps around past the mask
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::Log));
    s.panel.previousAlert(); // Shift+F3 wraps back to the mean, never the mask
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::Mean));
    // Shown, the mask is a step like any other.
    s.panel.setShowSetAside(true);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 3, kWait);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    s.panel.nextAlert();
    QCOMPARE(s.focusedExecution(), std::optional<std::uint64_t>(Masked::MaskedFill));
}

void TestSetAside::treatAsExpectedOffersTheOpsPattern()
{
    Setup s;
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QTRY_COMPARE_WITH_TIMEOUT(s.panel.proxy()->rowCount(), 2, kWait);
    QCOMPARE(s.panel.expectedPatternForRow(0), QStringLiteral("aten::log:-inf"));
    QCOMPARE(s.panel.expectedPatternForRow(1), QStringLiteral("aten::mean:-inf"));
    QVERIFY(s.panel.expectedPatternForRow(2).isEmpty()); // no such row
    QSignalSpy asked(&s.panel, &views::AlertsPanel::treatAsExpectedRequested);
    s.panel.treatRowAsExpected(0);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().first().toString(), QStringLiteral("aten::log:-inf"));
    // The list offers it on a right click.
    QCOMPARE(s.panel.view()->contextMenuPolicy(), Qt::CustomContextMenu);
}

void TestSetAside::expectedValuesLeaveNoOrigin()
{
    Setup s;
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QVERIFY(s.panel.hasOrigin());
    QSignalSpy origin(&s.panel, &views::AlertsPanel::originChanged);
    // The same logdir read again with the log's −∞ expected: the mean only carries it on.
    s.navigator.setSnapshot(
        read(s.dir.path(), {*core::ExpectedPattern::parse("aten::log:-inf", nullptr)}));
    QTRY_VERIFY_WITH_TIMEOUT(!origin.isEmpty(), kWait);
    QTRY_VERIFY_WITH_TIMEOUT(!s.panel.isBusy(), kWait);
    QVERIFY(!s.panel.hasOrigin());
    QVERIFY(!s.panel.goToOrigin());
    QCOMPARE(s.panel.proxy()->rowCount(), 0);
    QCOMPARE(s.panel.setAsideAlertCount(), 3u);
    QVERIFY(s.panel.countTexts().contains(QStringLiteral("NaN/∞  0")));
    // Not "no NaN in this logdir": there were some, all set aside.
    const QString text = s.panel.originText();
    QVERIFY2(text.startsWith(QStringLiteral("No unintended NaN or ∞: ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Set aside as expected (aten::log:-inf)")),
             qPrintable(text));
}

QTEST_MAIN(TestSetAside)
#include "tst_setaside.moc"
