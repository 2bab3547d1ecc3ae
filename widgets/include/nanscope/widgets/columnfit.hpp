// SPDX-License-Identifier: GPL-3.0-or-later
// Measures for fitting a table's columns to what they show: the widths a panel's own fitting
// rules combine (which columns give way to which is the panel's business).
#pragma once

#include <QtGlobal>

namespace nanscope::widgets {

class UniformTableView;

// The rows of `view` on screen, as [first, end); all rows when the viewport shows them all.
struct RowSpan
{
    int first = 0;
    int end = 0;
};
RowSpan rowsOnScreen(const UniformTableView* view);

// The width a column of row numbers needs for any number up to `largest`, written in the
// locale's grouping: every digit measured as the font's widest, plus the delegate's margins and
// two pixels for kerning and fractional layout (a column fitted to "1,999" elided "1,797").
int rowNumberWidth(const UniformTableView* view, qint64 largest, int textMargins);

// The width `column` needs to show the rows in `rows` whole (and its header, unless
// `withHeader` is false), by its delegates' size hints. Only rows on screen are meant: they
// are read for painting anyway.
int contentWidth(const UniformTableView* view, int column, RowSpan rows, bool withHeader = true);

} // namespace nanscope::widgets
