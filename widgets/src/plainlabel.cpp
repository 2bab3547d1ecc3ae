// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plainlabel.hpp"

#include <QLabel>

namespace nanscope::widgets {

QLabel* plainLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QLabel* selectableLabel(const QString& text, QWidget* parent)
{
    QLabel* label = plainLabel(text, parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace nanscope::widgets
