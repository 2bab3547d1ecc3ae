// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorcelldelegate.hpp"

#include "healthstyle.hpp"
#include "nanscope/core/tensordata.hpp"
#include "nanscope/items/tensorslicemodel.hpp"

namespace nanscope::views {
namespace {

// Translucent, so that the text stays readable on light and dark palettes alike.
QColor tinted(QColor colour, int alpha)
{
    colour.setAlpha(alpha);
    return colour;
}

} // namespace

void TensorCellDelegate::initStyleOption(QStyleOptionViewItem* option,
                                         const QModelIndex& index) const
{
    widgets::PlainTextDelegate::initStyleOption(option, index);
    using Model = items::TensorSliceModel;
    using core::ElementKind;
    QColor fill;
    switch (static_cast<ElementKind>(index.data(Model::KindRole).toInt())) {
    case ElementKind::NaN:
        fill = tinted(healthstyle::nan(), 120);
        break;
    case ElementKind::NegativeInfinity:
        fill = tinted(healthstyle::negativeInfinity(), 120);
        break;
    case ElementKind::PositiveInfinity:
        fill = tinted(healthstyle::positiveInfinity(), 120);
        break;
    case ElementKind::Zero:
        fill = tinted(healthstyle::zero(), 70);
        break;
    case ElementKind::Finite:
        if (m_heatMap) {
            const double heat = index.data(Model::HeatRole).toDouble();
            const bool negative = index.data(Model::ValueRole).toDouble() < 0;
            fill = tinted(negative ? healthstyle::negative() : healthstyle::positive(),
                          static_cast<int>(10 + heat * 110));
        }
        break;
    }
    if (fill.isValid())
        option->backgroundBrush = fill;
}

} // namespace nanscope::views
