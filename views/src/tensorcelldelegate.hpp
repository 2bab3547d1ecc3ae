// SPDX-License-Identifier: GPL-3.0-or-later
// Colours a tensor's cells by what they hold (TensorSliceModel::KindRole): NaN, −∞ and +∞ in the
// health bars' colours, zeros grey; with the heat map on, finite values shaded by their magnitude
// (HeatRole), negative and positive in the health bars' hues.
#pragma once

#include "nanscope/widgets/plaintextdelegate.hpp"

namespace nanscope::views {

class TensorCellDelegate : public widgets::PlainTextDelegate
{
    Q_OBJECT

public:
    using widgets::PlainTextDelegate::PlainTextDelegate;

    void setHeatMap(bool on) { m_heatMap = on; }
    bool heatMap() const { return m_heatMap; }

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    bool m_heatMap = true;
};

} // namespace nanscope::views
