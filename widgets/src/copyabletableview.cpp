// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/copyabletableview.hpp"

#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <algorithm>

namespace nanscope::widgets {
namespace {

constexpr qsizetype kMaxCopiedRows = 100000;

} // namespace

CopyableTableView::CopyableTableView(QWidget* parent) : UniformTableView(parent)
{
    setItemDelegate(new PlainTextDelegate(this));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(false);
    setTextElideMode(Qt::ElideMiddle);
    setRowHeight(fontMetrics().height() + 8);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionsMovable(true);
}

void CopyableTableView::setColumnsMenuEnabled(bool enabled)
{
    QHeaderView* header = horizontalHeader();
    header->setContextMenuPolicy(enabled ? Qt::CustomContextMenu : Qt::DefaultContextMenu);
    disconnect(header, &QHeaderView::customContextMenuRequested, this, nullptr);
    if (enabled)
        connect(header, &QHeaderView::customContextMenuRequested, this,
                &CopyableTableView::showColumnsMenu);
}

void CopyableTableView::showColumnsMenu(const QPoint& position)
{
    if (!model())
        return;
    QMenu menu(this);
    QHeaderView* header = horizontalHeader();
    const int columns = model()->columnCount();
    int shown = 0;
    for (int c = 0; c < columns; ++c)
        shown += header->isSectionHidden(c) ? 0 : 1;
    for (int c = 0; c < columns; ++c) {
        QAction* action =
            menu.addAction(model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        action->setCheckable(true);
        action->setChecked(!header->isSectionHidden(c));
        action->setEnabled(shown > 1 || header->isSectionHidden(c)); // keep one column
        connect(action, &QAction::toggled, this,
                [header, c](bool on) { header->setSectionHidden(c, !on); });
    }
    menu.exec(header->mapToGlobal(position));
}

QString CopyableTableView::selectionText() const
{
    if (!model() || !selectionModel())
        return {};
    // Ranges, not selectedRows(): a select-all on millions of rows must not list them all.
    QList<int> rows;
    for (const QItemSelectionRange& range : selectionModel()->selection()) {
        for (int row = range.top(); row <= range.bottom() && rows.size() < kMaxCopiedRows; ++row)
            rows << row;
    }
    if (rows.isEmpty() && currentIndex().isValid())
        rows << currentIndex().row();
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QList<int> columns;
    const QHeaderView* header = horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical))
            columns << logical;
    }
    QStringList lines;
    for (const int row : rows) {
        QStringList cells;
        for (const int column : columns)
            cells << model()->index(row, column).data(Qt::DisplayRole).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void CopyableTableView::copy()
{
    const QString text = selectionText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

bool CopyableTableView::event(QEvent* event)
{
    // Take Ctrl+C before a window-wide shortcut does.
    if (event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        event->accept();
        return true;
    }
    return UniformTableView::event(event);
}

void CopyableTableView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copy();
        event->accept();
        return;
    }
    UniformTableView::keyPressEvent(event);
}

} // namespace nanscope::widgets
