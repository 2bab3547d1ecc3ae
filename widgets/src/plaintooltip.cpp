// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plaintooltip.hpp"

namespace nanscope::widgets {

QString plainToolTip(const QString& text)
{
    if (text.isEmpty())
        return text;
    // Escaped, inside a paragraph that keeps line breaks and spaces: the literal text.
    return QStringLiteral("<p style='white-space:pre'>") + text.toHtmlEscaped() +
           QStringLiteral("</p>");
}

} // namespace nanscope::widgets
