// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/findbar.hpp"

#include "nanscope/widgets/plainlabel.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

namespace nanscope::widgets {

FindBar::FindBar(QWidget* parent) : QWidget(parent)
{
    m_edit = new QLineEdit(this);
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(tr("Find"));
    m_edit->installEventFilter(this);
    m_status = plainLabel({}, this);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_status->hide();
    m_previous = new QToolButton(this);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setAutoRaise(true);
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setAutoRaise(true);
    m_next->setToolTip(tr("Next match (Enter)"));
    m_close = new QToolButton(this);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close (Escape)"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_close);

    connect(m_next, &QToolButton::clicked, this, [this] { Q_EMIT findNext(text()); });
    connect(m_previous, &QToolButton::clicked, this, [this] { Q_EMIT findPrevious(text()); });
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });
    connect(m_edit, &QLineEdit::textEdited, this, &FindBar::textEdited);
}

QString FindBar::text() const
{
    return m_edit->text();
}

void FindBar::setText(const QString& text)
{
    m_edit->setText(text);
}

void FindBar::setPlaceholderText(const QString& text)
{
    m_edit->setPlaceholderText(text);
}

void FindBar::setStatus(const QString& status)
{
    m_status->setText(status);
    m_status->setVisible(!status.isEmpty());
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::setMatch(quint64 ordinal, quint64 total)
{
    setStatus(total == 0 ? tr("No match") : tr("%L1 of %L2").arg(ordinal).arg(total));
}

void FindBar::activate()
{
    show();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_F3) {
        event->accept(); // delivered as a key press below, not to a window's F3 action
        return true;
    }
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter ||
            key->key() == Qt::Key_F3) {
            if (key->modifiers() & Qt::ShiftModifier)
                Q_EMIT findPrevious(text());
            else
                Q_EMIT findNext(text());
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            Q_EMIT closed();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace nanscope::widgets
