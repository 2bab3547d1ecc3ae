// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the panels share. Text from the core becomes a QString with items::fromStd, and
// labels for it come from widgets::plainLabel.
#pragma once

#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QToolButton>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::views {

// A flat tool button for a panel's header row.
inline QToolButton* toolButton(const QString& text, const QString& toolTip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    return button;
}

// The greyed line a panel shows instead of its table when the logdir holds nothing for it.
inline QLabel* emptyStateLabel(const QString& text, QWidget* parent)
{
    QLabel* label = widgets::plainLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setWordWrap(true);
    label->hide();
    return label;
}

// A table panel's tool row status ("6 of 21 rows"): greyed plain text.
inline QLabel* toolStatusLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// A table panel's "Go to #" field: digits (with separators) only, about 14 digits wide.
inline QLineEdit* goToField(const QString& toolTip, QWidget* parent)
{
    auto* field = new QLineEdit(parent);
    field->setPlaceholderText(QCoreApplication::translate("GoToField", "Go to #"));
    field->setToolTip(toolTip);
    field->setClearButtonEnabled(true);
    field->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9,. ]*")), field));
    field->setMaximumWidth(field->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
    return field;
}

// The source row of a table's current index (-1 when none): the index of its trace or execution.
inline qint64 currentSourceRow(const QAbstractItemView* view, const RowListProxyModel* proxy)
{
    const QModelIndex current = view->currentIndex();
    return current.isValid() ? proxy->mapToSource(current).row() : -1;
}

// The rows `proxy` highlights (inputs, producers, consumers), as source rows in ascending order.
inline QList<quint64> sortedHighlightedRows(const RowListProxyModel& proxy)
{
    QList<quint64> rows;
    for (const int row : proxy.highlightedRows())
        rows << static_cast<quint64>(row);
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace nanscope::views
