// SPDX-License-Identifier: GPL-3.0-or-later
#include "shapedtext.hpp"

#include <QFontMetrics>
#include <QTransform>
#include <memory>
#include <vector>

namespace nanscope::widgets {
namespace {

// Entries a generation holds: a few screens of cells of a dozen tables, times two.
constexpr qsizetype kGenerationSize = 4096;
// Fonts kept at once: the views paint with two or three (plain, bold, fixed).
constexpr std::size_t kFonts = 8;

} // namespace

ShapedText::FontCache& ShapedText::cacheOf(const QFont& font)
{
    // Per thread: fonts and laid-out text belong to the thread that made them.
    static thread_local std::vector<std::unique_ptr<FontCache>> caches;
    for (const auto& cache : caches)
        if (cache->font == font)
            return *cache;
    if (caches.size() >= kFonts)
        caches.erase(caches.begin());
    caches.push_back(std::make_unique<FontCache>());
    caches.back()->font = font;
    return *caches.back();
}

ShapedText::Entry& ShapedText::entry(const QFont& font, const QString& text)
{
    FontCache& cache = cacheOf(font);
    if (auto it = cache.young.find(text); it != cache.young.end())
        return *it;
    if (cache.young.size() >= kGenerationSize) {
        cache.old = std::move(cache.young);
        cache.young = {};
    }
    Entry kept;
    if (auto it = cache.old.find(text); it != cache.old.end()) {
        kept = std::move(*it);
        cache.old.erase(it);
    }
    return *cache.young.emplace(text, std::move(kept));
}

const QStaticText& ShapedText::layout(const QFont& font, const QString& text)
{
    Entry& e = entry(font, text);
    if (!e.laidOut) {
        e.layout = QStaticText(text);
        e.layout.setTextFormat(Qt::PlainText); // a logdir's strings are never markup
        e.layout.prepare(QTransform(), font);
        e.laidOut = true;
    }
    return e.layout;
}

int ShapedText::advance(const QFont& font, const QString& text)
{
    Entry& e = entry(font, text);
    if (e.advance < 0)
        e.advance = QFontMetrics(font).horizontalAdvance(text);
    return e.advance;
}

} // namespace nanscope::widgets
