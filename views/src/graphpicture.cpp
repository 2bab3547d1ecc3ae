// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphpicture.hpp"

#include <algorithm>
#include <cmath>

namespace nanscope::views {
namespace {

constexpr qreal kPaddingX = 20;
constexpr qreal kPaddingY = 14;

} // namespace

QFont nodeNameFont(const QFont& base)
{
    QFont font = base;
    font.setBold(true);
    return font;
}

QFont nodeTypeFont(const QFont& base)
{
    // The UI font's size: no label in a graph is smaller than the rest of the window's text;
    // the type is told from the name by weight and colour.
    return base;
}

NodeSizer::NodeSizer(const QFont& font) : m_bold(nodeNameFont(font)), m_small(nodeTypeFont(font)) {}

QSizeF NodeSizer::size(const QString& name, const QString& type) const
{
    const qreal text = std::max(m_bold.horizontalAdvance(name), m_small.horizontalAdvance(type));
    const qreal width = std::clamp(text + kPaddingX, kMinWidth, kMaxWidth);
    return {std::round(width), std::round(m_bold.height() + m_small.height() + kPaddingY)};
}

QString displayType(const core::OpInfo& op)
{
    if (!op.declared || op.type.empty())
        return QStringLiteral("(not declared)");
    return QString::fromStdString(op.type);
}

} // namespace nanscope::views
