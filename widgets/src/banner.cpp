// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/banner.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace nanscope::widgets {
namespace {

QColor accent(Banner::Kind kind)
{
    switch (kind) {
    case Banner::Kind::Info:
        return QColor(0x1e, 0x88, 0xe5);
    case Banner::Kind::Warning:
        return QColor(0xf5, 0x9e, 0x0b);
    case Banner::Kind::Error:
        return QColor(0xe5, 0x39, 0x35);
    }
    return {};
}

// The accent faded into the window colour: a tint that reads in light and dark palettes.
QColor tint(const QColor& accent, const QColor& window, double amount)
{
    return QColor::fromRgbF(
        static_cast<float>(window.redF() + (accent.redF() - window.redF()) * amount),
        static_cast<float>(window.greenF() + (accent.greenF() - window.greenF()) * amount),
        static_cast<float>(window.blueF() + (accent.blueF() - window.blueF()) * amount));
}

} // namespace

Banner::Banner(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("banner"));
    m_icon = new QLabel(this);
    m_title = new QLabel(this);
    m_text = new QLabel(this);
    for (QLabel* label : {m_title, m_text}) {
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text->setWordWrap(true);
    m_action = new QPushButton(this);
    m_action->hide();
    m_close = new QToolButton(this);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));

    auto* texts = new QVBoxLayout;
    texts->setSpacing(2);
    texts->addWidget(m_title);
    texts->addWidget(m_text);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 6, 8);
    layout->setSpacing(10);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addLayout(texts, 1);
    layout->addWidget(m_action, 0, Qt::AlignVCenter);
    layout->addWidget(m_close, 0, Qt::AlignTop);

    connect(m_action, &QPushButton::clicked, this, &Banner::actionTriggered);
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT dismissed();
    });
    updateIcon();
    hide();
}

void Banner::showMessage(Kind kind, const QString& title, const QString& text,
                         const QString& actionText)
{
    m_kind = kind;
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
    m_action->setText(actionText);
    m_action->setVisible(!actionText.isEmpty());
    updateIcon();
    update();
    show();
}

void Banner::clear()
{
    hide();
}

QString Banner::title() const
{
    return m_title->text();
}

QString Banner::text() const
{
    return m_text->text();
}

void Banner::updateIcon()
{
    const QStyle::StandardPixmap pixmap = m_kind == Kind::Error ? QStyle::SP_MessageBoxCritical
                                          : m_kind == Kind::Warning
                                              ? QStyle::SP_MessageBoxWarning
                                              : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + 4;
    m_icon->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
}

void Banner::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QColor window = palette().color(QPalette::Window);
    const QColor a = accent(m_kind);
    painter.fillRect(rect(), tint(a, window, 0.16));
    painter.fillRect(QRect(0, 0, 4, height()), a);
    QColor line = a;
    line.setAlphaF(0.35f);
    painter.fillRect(QRect(0, height() - 1, width(), 1), line);
}

void Banner::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::StyleChange || event->type() == QEvent::PaletteChange)
        updateIcon();
    QFrame::changeEvent(event);
}

} // namespace nanscope::widgets
