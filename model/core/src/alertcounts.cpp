// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/alertcounts.hpp"

namespace nanscope::core {

bool alertSetAside(const Snapshot& snapshot, const Propagation& propagation, std::uint64_t alert)
{
    const EventRef event = snapshot.alert(alert).event;
    return propagation.intended(event) || propagation.uninitialised(event);
}

AlertKindCounts countAlertKinds(const Snapshot& snapshot, const Propagation& propagation)
{
    AlertKindCounts counts;
    for (std::uint64_t k = 0; k < snapshot.alertCount(); ++k) {
        if (alertSetAside(snapshot, propagation, k)) {
            ++counts.setAside;
            continue;
        }
        ++counts.counted;
        const EventRef event = snapshot.alert(k).event;
        const HealthDigest digest = event.source == EventSource::Graph
                                        ? snapshot.trace(event.index).health
                                        : snapshot.execution(event.index).health;
        counts.nan += digest.has(health::NaN) ? 1 : 0;
        counts.negInf += digest.has(health::NegInf) ? 1 : 0;
        counts.posInf += digest.has(health::PosInf) ? 1 : 0;
        counts.kindsKnown =
            counts.kindsKnown || digest.has(health::NaN | health::NegInf | health::PosInf);
    }
    return counts;
}

} // namespace nanscope::core
