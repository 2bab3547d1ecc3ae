// SPDX-License-Identifier: GPL-3.0-or-later
// Tooltips that always show their text literally.
#pragma once

#include <QString>

namespace nanscope::widgets {

// QToolTip guesses rich text from the text itself, so a name such as "<b>" from a file would be
// rendered as markup. The result of this function shows `text` character for character.
QString plainToolTip(const QString& text);

} // namespace nanscope::widgets
