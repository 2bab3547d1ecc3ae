// SPDX-License-Identifier: GPL-3.0-or-later
// Paints a breakdown of counts as a proportional bar followed by the non-zero counts: "how much
// of this is what", readable at a glance in a table cell.
#pragma once

#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

class QFontMetrics;

namespace nanscope::widgets {

class HealthBarDelegate : public PlainTextDelegate
{
    Q_OBJECT

public:
    struct Segment
    {
        int role; // the model answers a number for it, or an invalid QVariant
        QColor color;
        QString label; // short, shown after the count ("NaN", "−∞", "0" …)
    };

    explicit HealthBarDelegate(QList<Segment> segments, QObject* parent = nullptr);

    const QList<Segment>& segments() const { return m_segments; }
    // The counts of `index`, one per segment (0 where the model gives none); empty when the
    // model gives no count at all, and the cell falls back to its display text.
    QList<double> counts(const QModelIndex& index) const;
    // The text painted after the bar: the non-zero counts with their labels.
    QString countsText(const QList<double>& counts) const;
    // As much of it as fits `width` in `font`, in whole parts, with "…" when some are left out.
    QString fittingCountsText(const QList<double>& counts, const QFont& font, int width) const;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    QStringList countParts(const QList<double>& counts) const;

    QList<Segment> m_segments;
};

} // namespace nanscope::widgets
