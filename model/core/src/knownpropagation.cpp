// SPDX-License-Identifier: GPL-3.0-or-later
#include "knownpropagation.hpp"

#include "indexcacheformat.hpp"

namespace nanscope::core {
namespace {

Propagation withoutHops(const Propagation& p)
{
    Propagation copy;
    copy.producers = p.producers;
    copy.entries = p.entries;
    copy.propagators = p.propagators;
    copy.intendedEvents = p.intendedEvents;
    copy.uninitialisedEvents = p.uninitialisedEvents;
    copy.countedAlerts = p.countedAlerts;
    copy.intendedAlerts = p.intendedAlerts;
    copy.uninitialisedAlerts = p.uninitialisedAlerts;
    copy.setAside = p.setAside;
    copy.expectedPatterns = p.expectedPatterns;
    return copy;
}

} // namespace

KnownPropagation::KnownPropagation(Propagation withoutHops, EncodedHops traces,
                                   EncodedHops executions, std::shared_ptr<const void> owner)
    : m_propagation(std::move(withoutHops)), m_traces{traces, {}, traces.events},
      m_executions{executions, {}, executions.events}, m_owner(std::move(owner))
{}

KnownPropagation::KnownPropagation(Propagation complete)
    : m_propagation(std::move(complete)), m_complete(true)
{
    m_traces.events = m_propagation.traceHops.size();
    m_executions.events = m_propagation.executionHops.size();
}

KnownPropagation::KnownPropagation(std::shared_ptr<const KnownPropagation> before,
                                   const Propagation& counted)
    : m_propagation(withoutHops(counted)),
      m_traces(
          extended(before, before->m_traces, before->m_propagation.traceHops, counted.traceHops)),
      m_executions(extended(before, before->m_executions, before->m_propagation.executionHops,
                            counted.executionHops)),
      m_owner(before->m_owner)
{}

KnownPropagation::Parts
KnownPropagation::extended(const std::shared_ptr<const KnownPropagation>& before,
                           const Parts& parts, const Hops& hops, const Hops& tail)
{
    Parts out;
    if (before->m_complete) {
        // Its hop counts never change: shared as they are, `before` kept alive with them.
        out.tails.push_back(std::shared_ptr<const Hops>(before, &hops));
    } else {
        // Its own decoded copy may not exist yet: the parts it decodes from are shared instead.
        out.encoded = parts.encoded;
        out.tails = parts.tails;
    }
    if (!tail.empty())
        out.tails.push_back(std::make_shared<const Hops>(tail));
    out.events = parts.events + tail.size();
    return out;
}

KnownPropagation::Hops KnownPropagation::decoded(const Parts& parts)
{
    Hops hops = indexfile::decodeHops(parts.encoded);
    hops.reserve(parts.events);
    for (const auto& tail : parts.tails)
        hops.insert(hops.end(), tail->begin(), tail->end());
    return hops;
}

Propagation KnownPropagation::counts() const
{
    return withoutHops(m_propagation);
}

const Propagation& KnownPropagation::get() const
{
    if (m_complete)
        return m_propagation;
    std::call_once(m_decoded, [this] {
        m_propagation.traceHops = decoded(m_traces);
        m_propagation.executionHops = decoded(m_executions);
    });
    return m_propagation;
}

} // namespace nanscope::core
