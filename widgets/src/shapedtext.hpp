// SPDX-License-Identifier: GPL-3.0-or-later
// Text shaped once and kept. Qt shapes a string with HarfBuzz each time it measures or draws it,
// and QStyledItemDelegate does both two or three times a cell: shaping was a quarter of the GUI
// thread's time while a table scrolled or jumped. Tables repaint the same names, numbers and
// counts again and again, so each (font, string) keeps its laid-out glyphs (QStaticText) and its
// advance. Each thread keeps caches of its own (painting happens on the GUI thread).
#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QString>

namespace nanscope::widgets {

class ShapedText
{
public:
    // `text` laid out in `font` as plain text, on one line. It must hold no line break.
    static const QStaticText& layout(const QFont& font, const QString& text);
    // What QFontMetrics(font).horizontalAdvance(text) gives, measured once.
    static int advance(const QFont& font, const QString& text);

private:
    struct Entry
    {
        QStaticText layout;
        int advance = -1;
        bool laidOut = false;
    };
    // The entries of one font, in two generations: a full young one becomes the old one and
    // the oldest are dropped together, so that memory stays bounded without a per-entry list.
    struct FontCache
    {
        QFont font;
        QHash<QString, Entry> young;
        QHash<QString, Entry> old;
    };

    static Entry& entry(const QFont& font, const QString& text);
    static FontCache& cacheOf(const QFont& font);
};

} // namespace nanscope::widgets
