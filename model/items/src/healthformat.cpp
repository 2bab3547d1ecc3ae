// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/healthformat.hpp"

#include "nanscope/core/tracesaround.hpp"
#include "nanscope/items/fromstd.hpp"

#include <QStringList>

namespace nanscope::items {

QString dtypeText(DType dtype)
{
    if (dtype == DType::Invalid)
        return {};
    const std::string_view name = knownDtypeName(dtype);
    if (name.empty())
        return QStringLiteral("dtype %1").arg(static_cast<int>(dtype));
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

QString digestText(core::HealthDigest digest)
{
    if (!digest.known())
        return QStringLiteral("unknown");
    if (!digest.nonFinite())
        return QStringLiteral("finite");
    return nonFiniteKinds(digest);
}

QString nonFiniteKinds(core::HealthDigest digest)
{
    namespace h = core::health;
    if (!digest.nonFinite())
        return {};
    QStringList kinds;
    if (digest.has(h::NaN))
        kinds << QStringLiteral("NaN");
    if (digest.has(h::NegInf))
        kinds << QStringLiteral("-inf");
    if (digest.has(h::PosInf))
        kinds << QStringLiteral("+inf");
    return kinds.isEmpty() ? QStringLiteral("NaN or ±inf") : kinds.join(QStringLiteral(", "));
}

QString healthText(const core::TensorHealth& health)
{
    return fromStd(health.describe());
}

QColor nonFiniteBackground(core::HealthDigest digest)
{
    if (!digest.nonFinite())
        return {};
    // NaN reads as the more serious state; infinities as a warning. Which of the two a digest
    // is (a CURT_HEALTH flag without kinds counts as NaN) is the core's rule, as in the graph
    // and the timeline strips.
    return core::nodeHealth(digest) == core::NodeHealth::Infinite ? QColor(0xfb, 0x8c, 0x00, 70)
                                                                  : QColor(0xe5, 0x39, 0x35, 70);
}

} // namespace nanscope::items
