// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers in a table column: right-aligned, whole when they fit, shortened ("1.2M") when the
// column is narrow, never elided mid-digit; the tooltip then gives the exact value.
#pragma once

#include "nanscope/widgets/plaintextdelegate.hpp"

namespace nanscope::widgets {

class NumberDelegate : public PlainTextDelegate
{
    Q_OBJECT

public:
    using PlainTextDelegate::PlainTextDelegate;

    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace nanscope::widgets
