// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectedpattern.hpp"

#include "nanscope/core/intent.hpp"
#include "nanscope/items/fromstd.hpp"

#include <QMenu>

namespace nanscope::views {

QString expectedPatternFor(const core::Snapshot& snapshot, core::EventRef event)
{
    std::string type;
    core::HealthDigest health;
    if (event.source == core::EventSource::Graph) {
        if (event.index >= snapshot.traceCount())
            return {};
        const auto trace = snapshot.trace(event.index);
        health = trace.health;
        if (trace.op < snapshot.graphs().ops().size())
            type = snapshot.graphs().op(trace.op).type;
    } else {
        if (event.index >= snapshot.executionCount())
            return {};
        const auto execution = snapshot.execution(event.index);
        health = execution.health;
        type = execution.opType;
    }
    if (type.empty() || !health.nonFinite())
        return {};
    namespace h = core::health;
    namespace nf = core::nonfinite;
    const std::uint8_t kinds = (health.has(h::NegInf) ? nf::NegInf : 0) |
                               (health.has(h::PosInf) ? nf::PosInf : 0) |
                               (health.has(h::NaN) ? nf::NaN : 0);
    // Without counts the record tells no kind: any of them.
    std::string pattern = type;
    if (kinds != 0)
        pattern += ':' + core::nonFiniteKindsText(kinds);
    if (!core::ExpectedPattern::parse(pattern, nullptr))
        return {};
    return items::fromStd(pattern);
}

QAction* addTreatAsExpectedAction(QMenu& menu, const QString& pattern)
{
    QAction* action = menu.addAction(QMenu::tr("Treat as Expected: %1").arg(pattern));
    action->setToolTip(QMenu::tr("Set aside values like these from now on (this logdir): they "
                                 "no longer count, and the origin is looked for elsewhere"));
    return action;
}

} // namespace nanscope::views
