// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/healthroles.hpp"

#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/snapshottablemodel.hpp"

namespace nanscope::items {

HealthCounts healthCounts(const core::TensorHealth& health)
{
    using D = core::TensorHealth::Detail;
    HealthCounts counts;
    if (!health.invalid.empty())
        return counts;
    const bool nonFinite = health.detail == D::Full || health.detail == D::Counts;
    const bool finite = health.detail == D::Full;
    const double values[] = {health.negativeInfinity,
                             health.positiveInfinity,
                             health.nan,
                             health.negativeFinite,
                             health.zero,
                             health.positiveFinite};
    for (std::size_t k = 0; k < counts.size(); ++k)
        if (k < 3 ? nonFinite : finite)
            counts[k] = values[k];
    return counts;
}

std::optional<QVariant> digestRoleData(core::HealthDigest digest, int role)
{
    switch (role) {
    case HealthBitsRole:
        return QVariant(digest.bits);
    case NonFiniteRole:
        return QVariant(digest.nonFinite());
    case Qt::BackgroundRole:
        return digest.nonFinite() ? QVariant(nonFiniteBackground(digest)) : QVariant();
    default:
        return std::nullopt;
    }
}

bool isHealthCountRole(int role, int firstCountRole)
{
    return role >= firstCountRole &&
           role < firstCountRole + static_cast<int>(HealthCounts().size());
}

QVariant healthCountData(const HealthCounts* counts, int role, int firstCountRole)
{
    if (!counts || !isHealthCountRole(role, firstCountRole))
        return {};
    return (*counts)[static_cast<std::size_t>(role - firstCountRole)];
}

} // namespace nanscope::items
