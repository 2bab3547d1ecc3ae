// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthstyle.hpp"

#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"

#include <QCoreApplication>

namespace nanscope::views::healthstyle {

QList<widgets::HealthBarDelegate::Segment> countSegments(int negInfRole)
{
    // Both models keep the roles in this order; the asserts hold them to it.
    using E = items::ExecutionModel;
    using G = items::GraphExecutionModel;
    static_assert(E::PositiveCountRole - E::NegInfCountRole == 5);
    static_assert(G::PositiveCountRole - G::NegInfCountRole == 5);
    return {
        {negInfRole, negativeInfinity(), QStringLiteral("−∞")},
        {negInfRole + 1, positiveInfinity(), QStringLiteral("+∞")},
        {negInfRole + 2, nan(), QStringLiteral("NaN")},
        {negInfRole + 3, negative(), QStringLiteral("neg")},
        {negInfRole + 4, zero(), QStringLiteral("zero")},
        {negInfRole + 5, positive(), QStringLiteral("pos")},
    };
}

} // namespace nanscope::views::healthstyle
