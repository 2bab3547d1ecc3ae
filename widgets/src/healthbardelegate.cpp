// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/healthbardelegate.hpp"

#include "nanscope/widgets/numberformat.hpp"
#include "shapedtext.hpp"

#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <cmath>

namespace nanscope::widgets {
namespace {

constexpr int kBarWidth = 48; // narrow enough that the counts beside it fit a 1280 px window
constexpr int kBarHeight = 8;
constexpr int kGap = 6;
// A single NaN among a million values must still show: every non-zero count gets this much.
constexpr double kMinSegment = 2.0;

} // namespace

HealthBarDelegate::HealthBarDelegate(QList<Segment> segments, QObject* parent)
    : PlainTextDelegate(parent), m_segments(std::move(segments))
{}

QList<double> HealthBarDelegate::counts(const QModelIndex& index) const
{
    QList<double> counts;
    bool any = false;
    counts.reserve(m_segments.size());
    for (const auto& segment : m_segments) {
        const QVariant value = index.data(segment.role);
        any = any || value.isValid();
        counts.append(value.isValid() ? std::max(0.0, value.toDouble()) : 0.0);
    }
    if (!any)
        counts.clear();
    return counts;
}

QStringList HealthBarDelegate::countParts(const QList<double>& counts) const
{
    QStringList parts;
    for (qsizetype i = 0; i < counts.size() && i < m_segments.size(); ++i)
        if (counts[i] > 0)
            parts << compactCount(counts[i]) + QChar(0x202f) + m_segments[i].label;
    return parts;
}

QString HealthBarDelegate::countsText(const QList<double>& counts) const
{
    return countParts(counts).join(QStringLiteral("  "));
}

// Whole parts only ("3 NaN  899 zero …"): a count is never cut in the middle.
QString HealthBarDelegate::fittingCountsText(const QList<double>& counts, const QFont& font,
                                             int width) const
{
    const QStringList parts = countParts(counts);
    QString all = parts.join(QStringLiteral("  "));
    if (ShapedText::advance(font, all) <= width)
        return all;
    const QString more = QStringLiteral("  …");
    QString shown;
    for (const QString& part : parts) {
        const QString next = shown.isEmpty() ? part : shown + QStringLiteral("  ") + part;
        if (ShapedText::advance(font, next + more) > width)
            break;
        shown = next;
    }
    return shown.isEmpty() ? QStringLiteral("…") : shown + more;
}

void HealthBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    const QList<double> values = counts(index);
    if (values.isEmpty()) {
        PlainTextDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect content = opt.rect.adjusted(4, 0, -4, 0);
    const int barWidth = std::min(kBarWidth, std::max(0, content.width() / 2));
    const QRectF bar(content.left(), content.center().y() - kBarHeight / 2.0 + 0.5, barWidth,
                     kBarHeight);
    double total = 0;
    int nonZero = 0;
    for (const double v : values) {
        total += v;
        nonZero += v > 0 ? 1 : 0;
    }

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath clip;
    clip.addRoundedRect(bar, kBarHeight / 2.0, kBarHeight / 2.0);
    QColor track = opt.palette.color(QPalette::Text);
    track.setAlphaF(0.12f);
    painter->fillPath(clip, track);
    if (total > 0 && barWidth > 0) {
        painter->setClipPath(clip);
        // Share out the width: small counts get a minimum, the rest is proportional.
        const double reserved = kMinSegment * nonZero;
        const double scalable = std::max(0.0, barWidth - reserved);
        double x = bar.left();
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (values[i] <= 0)
                continue;
            const double w = kMinSegment + scalable * values[i] / total;
            painter->fillRect(QRectF(x, bar.top(), w, bar.height()), m_segments[i].color);
            x += w;
        }
        painter->setClipping(false);
    }
    painter->restore();

    const QRect textRect = content.adjusted(barWidth + kGap, 0, 0, 0);
    opt.textElideMode = Qt::ElideNone; // whole parts only, fitted above
    opt.displayAlignment = Qt::AlignLeft | Qt::AlignVCenter;
    paintText(painter, opt, textRect, fittingCountsText(values, opt.font, textRect.width()));
}

QSize HealthBarDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const
{
    const QList<double> values = counts(index);
    if (values.isEmpty())
        return PlainTextDelegate::sizeHint(option, index);
    // The style's height for a line of text, without shaping the cell's display text for it.
    QStyleOptionViewItem line = option;
    line.text = QStringLiteral("0");
    line.features = QStyleOptionViewItem::HasDisplay;
    const QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    QSize size = style->sizeFromContents(QStyle::CT_ItemViewItem, &line, QSize(), option.widget);
    size.setWidth(kBarWidth + kGap + 8 + ShapedText::advance(option.font, countsText(values)));
    return size;
}

} // namespace nanscope::widgets
