// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/startpage.hpp"

#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintooltip.hpp"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace nanscope::widgets {
namespace {

constexpr int kLogoSize = 96;
constexpr int kColumnWidth = 560;

QLabel* centredLabel(QWidget* parent)
{
    QLabel* label = plainLabel({}, parent);
    label->setAlignment(Qt::AlignHCenter);
    return label;
}

} // namespace

StartPage::StartPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("startPage"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);

    buildHeading();
    QHBoxLayout* buttons = buildButtons();
    buildBusyIndicator();
    buildRecentList();
    m_hint = centredLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    layOutColumn(buttons);

    connect(m_open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_demo, &QPushButton::clicked, this, &StartPage::demoRequested);
    auto activate = [this](QListWidgetItem* item) {
        if (item)
            Q_EMIT recentActivated(item->data(Qt::UserRole).toString());
    };
    connect(m_recent, &QListWidget::itemClicked, this, activate);
    connect(m_recent, &QListWidget::itemActivated, this, activate);
    setRecent({});
}

// The logo, the title in large type and the tagline under it, greyed.
void StartPage::buildHeading()
{
    m_logo = new QLabel(this);
    m_logo->setAlignment(Qt::AlignHCenter);
    m_title = centredLabel(this);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setWeight(QFont::DemiBold);
    m_title->setFont(titleFont);
    m_tagline = centredLabel(this);
    m_tagline->setForegroundRole(QPalette::PlaceholderText);
    m_tagline->setWordWrap(true);
}

// Open and Open the Demo, side by side in the middle of their row.
QHBoxLayout* StartPage::buildButtons()
{
    m_open = new QPushButton(tr("Open Logdir…"), this);
    m_open->setDefault(true);
    m_demo = new QPushButton(tr("Open the Demo"), this);
    for (QPushButton* button : {m_open, m_demo})
        button->setMinimumWidth(160);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_open);
    buttons->addSpacing(8);
    buttons->addWidget(m_demo);
    buttons->addStretch();
    return buttons;
}

// Hidden until setBusy gives it a message.
void StartPage::buildBusyIndicator()
{
    m_busyText = centredLabel(this);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(6);
    m_busyText->hide();
    m_busy->hide();
}

void StartPage::buildRecentList()
{
    m_recentTitle = plainLabel(tr("Recent"), this);
    QFont bold = m_recentTitle->font();
    bold.setBold(true);
    m_recentTitle->setFont(bold);
    m_recent = new QListWidget(this);
    m_recent->setFrameShape(QFrame::NoFrame);
    m_recent->setTextElideMode(Qt::ElideMiddle);
    m_recent->setUniformItemSizes(true);
    m_recent->setMaximumHeight(m_recent->fontMetrics().height() * 14);
    m_recent->setCursor(Qt::PointingHandCursor);
}

// One column at most kColumnWidth wide, centred across the page and a little above its middle.
void StartPage::layOutColumn(QHBoxLayout* buttons)
{
    auto* column = new QWidget(this);
    column->setMaximumWidth(kColumnWidth);
    auto* inner = new QVBoxLayout(column);
    inner->setSpacing(10);
    inner->addWidget(m_logo);
    inner->addWidget(m_title);
    inner->addWidget(m_tagline);
    inner->addSpacing(12);
    inner->addLayout(buttons);
    inner->addWidget(m_busyText);
    inner->addWidget(m_busy);
    inner->addSpacing(16);
    inner->addWidget(m_recentTitle);
    inner->addWidget(m_recent);
    inner->addSpacing(8);
    inner->addWidget(m_hint);

    auto* outer = new QHBoxLayout(this);
    outer->addStretch();
    auto* middle = new QVBoxLayout;
    middle->addStretch(2);
    middle->addWidget(column);
    middle->addStretch(3);
    outer->addLayout(middle, 1);
    outer->addStretch();
    column->setMinimumWidth(std::min(kColumnWidth, 420));
}

void StartPage::setLogo(const QIcon& icon)
{
    m_logo->setPixmap(icon.pixmap(kLogoSize, kLogoSize));
}

void StartPage::setTitle(const QString& title)
{
    m_title->setText(title);
}

void StartPage::setTagline(const QString& tagline)
{
    m_tagline->setText(tagline);
}

void StartPage::setHint(const QString& hint)
{
    m_hint->setText(hint);
}

void StartPage::setOpenText(const QString& text)
{
    m_open->setText(text);
}

void StartPage::setDemoText(const QString& text)
{
    m_demo->setText(text);
}

void StartPage::setRecent(const QStringList& paths)
{
    m_recent->clear();
    for (const QString& path : paths) {
        const QString native = QDir::toNativeSeparators(path);
        auto* item = new QListWidgetItem(native, m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(plainToolTip(native));
    }
    m_recentTitle->setVisible(!paths.isEmpty());
    m_recent->setVisible(!paths.isEmpty());
}

QStringList StartPage::recent() const
{
    QStringList paths;
    for (int i = 0; i < m_recent->count(); ++i)
        paths << m_recent->item(i)->data(Qt::UserRole).toString();
    return paths;
}

void StartPage::setBusy(const QString& message)
{
    const bool busy = !message.isEmpty();
    m_busyText->setText(message);
    m_busyText->setVisible(busy);
    m_busy->setVisible(busy);
    m_demo->setEnabled(!busy);
}

} // namespace nanscope::widgets
