// SPDX-License-Identifier: GPL-3.0-or-later
// LayoutBoundary: its content fills it and its hints are the content's; widgets shown inside the
// content lay out the content at once and the layouts above once, later, however many were shown.
#include "nanscope/widgets/layoutboundary.hpp"

#include <QLabel>
#include <QTest>
#include <QVBoxLayout>
#include <memory>

using nanscope::widgets::LayoutBoundary;

namespace {

// A layout that counts the passes that place its widgets.
class CountingLayout : public QVBoxLayout
{
public:
    using QVBoxLayout::QVBoxLayout;

    void setGeometry(const QRect& rect) override
    {
        ++passes;
        QVBoxLayout::setGeometry(rect);
    }

    int passes = 0;
};

// A window whose layout (counted) holds `holder`; the content has three hidden labels.
struct Window
{
    explicit Window(bool bounded)
    {
        content = new QWidget;
        auto* layout = new QVBoxLayout(content);
        for (int i = 0; i < 3; ++i) {
            auto* label = new QLabel(QStringLiteral("label %1").arg(i), content);
            label->setMinimumHeight(40);
            label->hide();
            layout->addWidget(label);
            labels.push_back(label);
        }
        layout->addStretch();
        QWidget* holder = bounded ? new LayoutBoundary(content) : content;
        outer = new CountingLayout(&window);
        outer->setContentsMargins(0, 0, 0, 0);
        outer->addWidget(holder);
        window.resize(300, 300); // room for the labels: the window need not grow
        window.show();
    }

    // Whether the window is on screen with nothing left to lay out.
    bool settled()
    {
        if (!QTest::qWaitForWindowExposed(&window))
            return false;
        QCoreApplication::processEvents();
        return true;
    }

    // Shows the three labels one after another, counting the window's layout passes from here.
    void showLabels()
    {
        outer->passes = 0;
        for (QLabel* label : labels)
            label->show();
    }

    QWidget window;
    QWidget* content = nullptr;
    CountingLayout* outer = nullptr;
    QList<QLabel*> labels;
};

} // namespace

class TestLayoutBoundary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theContentFillsItAndLendsItsHints();
    void showingsInsideLayTheWindowOutOnceLater();
    void withoutItEachShowingLaysTheWindowOutAtOnce();
    void theLayoutsAboveLearnTheContentsNewMinimum();
};

void TestLayoutBoundary::theContentFillsItAndLendsItsHints()
{
    auto* content = new QLabel(QStringLiteral("content"));
    content->setMinimumSize(50, 20);
    content->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    content->setMaximumHeight(400);
    LayoutBoundary boundary(content);
    QCOMPARE(boundary.content(), content);
    QCOMPARE(content->parentWidget(), &boundary);
    QCOMPARE(boundary.sizeHint(), content->sizeHint());
    QCOMPARE(boundary.minimumSizeHint(), QSize(50, 20));
    QCOMPARE(boundary.sizePolicy(), content->sizePolicy());
    QCOMPARE(boundary.maximumHeight(), 400);
    QCOMPARE(boundary.focusProxy(), content);
    boundary.resize(180, 90);
    boundary.show();
    QVERIFY(QTest::qWaitForWindowExposed(&boundary));
    QCOMPARE(content->geometry(), QRect(0, 0, 180, 90));
    boundary.resize(120, 60);
    QCOMPARE(content->geometry(), QRect(0, 0, 120, 60));
}

// Three labels shown one after another: the content is laid out there and then (each label has
// its place at once), the window's layout not at all until the event loop runs, and then once.
void TestLayoutBoundary::showingsInsideLayTheWindowOutOnceLater()
{
    Window w(true);
    QVERIFY(w.settled());
    w.showLabels();
    QCOMPARE(w.outer->passes, 0);
    for (QLabel* label : w.labels)
        QVERIFY(label->geometry().height() >= 40);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCOMPARE(w.outer->passes, 1);
}

// The behaviour the boundary is for, shown without it: Qt lays the window out for each showing.
void TestLayoutBoundary::withoutItEachShowingLaysTheWindowOutAtOnce()
{
    Window w(false);
    QVERIFY(w.settled());
    w.showLabels();
    QVERIFY(w.outer->passes >= 3);
}

// The labels need 3 × 40 pixels: once the posted requests are handled, the window's layout gives
// the boundary (and so the content) at least that, and the window's minimum grows to it.
void TestLayoutBoundary::theLayoutsAboveLearnTheContentsNewMinimum()
{
    Window w(true);
    QVERIFY(w.settled());
    const int before = w.window.minimumSizeHint().height();
    w.showLabels();
    QTRY_VERIFY(w.window.minimumSizeHint().height() >= 120);
    QVERIFY(w.window.minimumSizeHint().height() > before);
    QTRY_VERIFY(w.content->height() >= 120);
}

QTEST_MAIN(TestLayoutBoundary)
#include "tst_layoutboundary.moc"
