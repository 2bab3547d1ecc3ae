// SPDX-License-Identifier: GPL-3.0-or-later
// Labels that always show their text literally.
#pragma once

#include <QString>

class QLabel;
class QWidget;

namespace nanscope::widgets {

// QLabel guesses rich text from the text itself, so a name such as "<b>" from a file would be
// rendered as markup. These labels show `text` as plain text.
QLabel* plainLabel(const QString& text, QWidget* parent);
// A plain label whose text the user can select with the mouse (and copy).
QLabel* selectableLabel(const QString& text, QWidget* parent);

} // namespace nanscope::widgets
