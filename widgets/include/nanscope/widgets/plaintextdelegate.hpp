// SPDX-License-Identifier: GPL-3.0-or-later
// An item delegate whose tooltips show the model's text literally: item views render their
// cells as plain text, but QToolTip would take a tooltip such as "<b>x</b>" for markup.
//
// It paints a cell of one line of text, with no icon or check box, itself, with the text shaped
// once and kept (shapedtext.hpp): the same pixels as QStyledItemDelegate under the Fusion and
// Windows styles, without shaping each string two or three times a paint. Other cells, and other
// styles, are painted by QStyledItemDelegate.
#pragma once

#include <QStyledItemDelegate>
#include <optional>

namespace nanscope::widgets {

class PlainTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    // Elides this column's text as given, whatever the view does for the others (a name
    // that keeps its tail, next to columns that keep their start).
    PlainTextDelegate(Qt::TextElideMode elideMode, QObject* parent);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;

    // The pixels the style keeps beside a cell's text, left and right together: a column as wide
    // as a text plus this shows it whole (less a pixel or two of kerning and fractional layout).
    static int textMargins(const QWidget* widget);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
    // The pixels a cell has for its text: its width less the style's text margins.
    static int textWidth(const QStyleOptionViewItem& option);
    // Paints `text` in `rect` as the style paints an item's text: aligned, elided with the
    // option's mode when too wide, in the option's text colour for its state.
    static void paintText(QPainter* painter, const QStyleOptionViewItem& option, const QRect& rect,
                          const QString& text);
    // Whether paint() may draw a cell of `option` itself.
    static bool paintsPlainly(const QStyleOptionViewItem& option);

private:
    std::optional<Qt::TextElideMode> m_elideMode;
};

} // namespace nanscope::widgets
