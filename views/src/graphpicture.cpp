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
    QFont font = base;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.88);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(8, font.pixelSize() * 7 / 8));
    return font;
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
