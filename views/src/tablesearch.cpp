// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablesearch.hpp"

#include "nanscope/widgets/findbar.hpp"
#include "viewhelpers.hpp"

#include <QLineEdit>
#include <QRegularExpression>

namespace nanscope::views {

TableSearch::TableSearch(const QString& findPlaceholder, const QString& goToToolTip,
                         QWidget* parent)
    : QObject(parent), m_findBar(new widgets::FindBar(parent)),
      m_goTo(views::goToField(goToToolTip, parent))
{
    m_findBar->setPlaceholderText(findPlaceholder);
    m_findBar->hide();
}

void TableSearch::connectTo(QWidget* table, const Find& find, GoTo goTo)
{
    connect(m_goTo, &QLineEdit::returnPressed, this, [this, table, goTo = std::move(goTo)] {
        QString digits = m_goTo->text();
        digits.remove(QRegularExpression(QStringLiteral("[^0-9]")));
        bool ok = false;
        const quint64 index = digits.toULongLong(&ok);
        if (ok && goTo(index))
            table->setFocus();
    });
    connect(m_findBar, &widgets::FindBar::findNext, this,
            [find](const QString& text) { find(text, false); });
    connect(m_findBar, &widgets::FindBar::findPrevious, this,
            [find](const QString& text) { find(text, true); });
    connect(m_findBar, &widgets::FindBar::textEdited, this, [this] { m_findBar->setStatus({}); });
    connect(m_findBar, &widgets::FindBar::closed, table, [table] { table->setFocus(); });
}

void TableSearch::activateFind()
{
    m_findBar->activate();
}

void TableSearch::activateGoTo()
{
    m_goTo->setFocus(Qt::ShortcutFocusReason);
    m_goTo->selectAll();
}

void TableSearch::forget()
{
    m_findBar->setStatus({});
    m_goTo->clear();
}

} // namespace nanscope::views
