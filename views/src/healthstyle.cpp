// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthstyle.hpp"

#include "nanscope/items/executionmodel.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"

#include <QCoreApplication>

namespace nanscope::views::healthstyle {

QList<widgets::HealthBarDelegate::Segment> graphExecutionSegments()
{
    using M = items::GraphExecutionModel;
    return {
        {M::NegInfCountRole, negativeInfinity(), QStringLiteral("−∞")},
        {M::PosInfCountRole, positiveInfinity(), QStringLiteral("+∞")},
        {M::NanCountRole, nan(), QStringLiteral("NaN")},
        {M::NegativeCountRole, negative(), QStringLiteral("neg")},
        {M::ZeroCountRole, zero(), QStringLiteral("zero")},
        {M::PositiveCountRole, positive(), QStringLiteral("pos")},
    };
}

QList<widgets::HealthBarDelegate::Segment> executionSegments()
{
    using M = items::ExecutionModel;
    return {
        {M::NegInfCountRole, negativeInfinity(), QStringLiteral("−∞")},
        {M::PosInfCountRole, positiveInfinity(), QStringLiteral("+∞")},
        {M::NanCountRole, nan(), QStringLiteral("NaN")},
        {M::NegativeCountRole, negative(), QStringLiteral("neg")},
        {M::ZeroCountRole, zero(), QStringLiteral("zero")},
        {M::PositiveCountRole, positive(), QStringLiteral("pos")},
    };
}

} // namespace nanscope::views::healthstyle
