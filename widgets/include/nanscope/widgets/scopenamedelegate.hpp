// SPDX-License-Identifier: GPL-3.0-or-later
// Scoped names ("model/encoder/layer_3/attention/MatMul:0") in a narrow column: the last scope
// segment stays whole and the middle goes ("model/…/MatMul:0"), so that the op is always
// readable and its outer scope too where there is room. The tooltip holds the whole name.
#pragma once

#include "nanscope/widgets/plaintextdelegate.hpp"

class QFontMetrics;

namespace nanscope::widgets {

// `name` as it fits `width` pixels: whole; else its outer scopes elided in the middle before
// the last segment; else the last segment elided at its start.
QString elideScopeName(const QString& name, const QFontMetrics& metrics, int width);

class ScopeNameDelegate : public PlainTextDelegate
{
    Q_OBJECT

public:
    using PlainTextDelegate::PlainTextDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace nanscope::widgets
