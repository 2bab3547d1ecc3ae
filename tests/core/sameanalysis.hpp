// SPDX-License-Identifier: GPL-3.0-or-later
// Two origin analyses of one snapshot must agree on everything: the origin, its inputs and hint,
// every hop count, the counts, and what was set aside.
#pragma once

#include "originanalysis.hpp"

#include <catch2/catch.hpp>

namespace nanscope::test {

inline void requireSameAnalysis(const core::NonFiniteAnalysis& a, const core::NonFiniteAnalysis& b)
{
    REQUIRE(a.origin.has_value() == b.origin.has_value());
    if (a.origin) {
        CHECK(a.origin->event == b.origin->event);
        CHECK(a.origin->opType == b.origin->opType);
        REQUIRE(a.origin->inputs.size() == b.origin->inputs.size());
        for (std::size_t k = 0; k < a.origin->inputs.size(); ++k) {
            CHECK(a.origin->inputs[k].event == b.origin->inputs[k].event);
            CHECK(a.origin->inputs[k].healthText == b.origin->inputs[k].healthText);
        }
        CHECK(a.origin->hint.rule == b.origin->hint.rule);
    }
    const core::Propagation& p = a.result();
    const core::Propagation& q = b.result();
    CHECK(p.traceHops == q.traceHops);
    CHECK(p.executionHops == q.executionHops);
    CHECK(p.producers == q.producers);
    CHECK(p.entries == q.entries);
    CHECK(p.propagators == q.propagators);
    CHECK(p.intendedEvents == q.intendedEvents);
    CHECK(p.uninitialisedEvents == q.uninitialisedEvents);
    CHECK(p.countedAlerts == q.countedAlerts);
    CHECK(p.intendedAlerts == q.intendedAlerts);
    REQUIRE(p.setAside.size() == q.setAside.size());
    for (std::size_t k = 0; k < p.setAside.size(); ++k) {
        const core::SetAside& s = p.setAside[k];
        const core::SetAside& t = q.setAside[k];
        CHECK(s.intent == t.intent);
        CHECK(s.first == t.first);
        CHECK(s.opType == t.opType);
        CHECK(s.opName == t.opName);
        CHECK(s.modulePath == t.modulePath);
        CHECK(s.pattern == t.pattern);
        CHECK(s.kinds == t.kinds);
        CHECK(s.producers == t.producers);
        CHECK(s.carriers == t.carriers);
        CHECK(s.absorbedBy == t.absorbedBy);
    }
}

} // namespace nanscope::test
