// SPDX-License-Identifier: GPL-3.0-or-later
#include "sourcelexer.hpp"

#include "qsci.hpp"

#include <QFileInfo>
#include <QPalette>

namespace nanscope::views {
namespace {

constexpr int kMaxStyles = 128;

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

// Mirrors a colour's lightness, keeping its hue: dark blue keywords become light blue.
QColor forDarkBase(const QColor& color)
{
    float h = 0, s = 0, l = 0, a = 1;
    color.getHslF(&h, &s, &l, &a);
    const float mirrored = 1.0f - l;
    return QColor::fromHslF(h, std::min(s, 0.75f),
                            std::clamp(mirrored * 0.85f + 0.15f, 0.55f, 0.9f), a);
}

} // namespace

QsciLexer* lexerForPath(const QString& path, QObject* parent)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    static const QStringList python{QStringLiteral("py"), QStringLiteral("pyw"),
                                    QStringLiteral("pyi")};
    static const QStringList cpp{
        QStringLiteral("c"),   QStringLiteral("cc"), QStringLiteral("cpp"), QStringLiteral("cxx"),
        QStringLiteral("h"),   QStringLiteral("hh"), QStringLiteral("hpp"), QStringLiteral("hxx"),
        QStringLiteral("inl"), QStringLiteral("cu"), QStringLiteral("cuh"), QStringLiteral("ipp")};
    if (python.contains(suffix))
        return new QsciLexerPython(parent);
    if (cpp.contains(suffix))
        return new QsciLexerCPP(parent);
    return nullptr;
}

void adaptLexer(QsciLexer* lexer, const QPalette& palette, const QFont& font)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = isDark(palette);
    lexer->setDefaultFont(font);
    lexer->setDefaultPaper(base);
    lexer->setDefaultColor(text);
    for (int style = 0; style < kMaxStyles; ++style) {
        if (lexer->description(style).isEmpty())
            continue;
        lexer->setPaper(base, style);
        QFont styleFont = font;
        styleFont.setBold(lexer->font(style).bold());
        styleFont.setItalic(lexer->font(style).italic());
        lexer->setFont(styleFont, style);
        if (dark)
            lexer->setColor(style == 0 ? text : forDarkBase(lexer->color(style)), style);
    }
}

} // namespace nanscope::views
