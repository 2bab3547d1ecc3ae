// SPDX-License-Identifier: GPL-3.0-or-later
// Syntax highlighting for the source view: a lexer chosen by file extension, recoloured to the
// window's palette (QScintilla's lexers assume dark text on white).
#pragma once

#include <QString>

class QFont;
class QObject;
class QPalette;
class QsciLexer;

namespace nanscope::views {

// Python or C/C++ by extension; nullptr for anything else (shown as plain text).
QsciLexer* lexerForPath(const QString& path, QObject* parent);

// One font for every style, the palette's base as paper, and text colours that stay readable on
// a dark base.
void adaptLexer(QsciLexer* lexer, const QPalette& palette, const QFont& font);

} // namespace nanscope::views
