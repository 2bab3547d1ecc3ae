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
    : m_propagation(std::move(withoutHops)), m_traceEvents(traces.events),
      m_executionEvents(executions.events), m_traces{traces, {}}, m_executions{executions, {}},
      m_owner(std::move(owner))
{}

KnownPropagation::KnownPropagation(Propagation whole)
    : m_propagation(std::move(whole)), m_traceEvents(m_propagation.traceHops.size()),
      m_executionEvents(m_propagation.executionHops.size()), m_whole(true)
{}

KnownPropagation::KnownPropagation(std::shared_ptr<const KnownPropagation> before,
                                   const Propagation& counted)
    : m_propagation(withoutHops(counted)),
      m_traceEvents(before->m_traceEvents + counted.traceHops.size()),
      m_executionEvents(before->m_executionEvents + counted.executionHops.size())
{
    std::lock_guard lock(before->m_mutex);
    m_traces =
        extended(before, before->m_propagation.traceHops, before->m_traces, counted.traceHops);
    m_executions = extended(before, before->m_propagation.executionHops, before->m_executions,
                            counted.executionHops);
    if (!before->m_whole)
        m_owner = before->m_owner;
}

KnownPropagation::Parts
KnownPropagation::extended(const std::shared_ptr<const KnownPropagation>& before, const Hops& hops,
                           const Parts& parts, const Hops& tail)
{
    Parts out;
    if (before->m_whole) {
        // Its hop counts never change again: shared as they are, `before` kept alive with them.
        out.tails.push_back(std::shared_ptr<const Hops>(before, &hops));
    } else {
        out = parts;
    }
    if (!tail.empty())
        out.tails.push_back(std::make_shared<const Hops>(tail));
    return out;
}

KnownPropagation::Hops KnownPropagation::decoded(const Parts& parts, std::uint64_t events)
{
    Hops hops = indexfile::decodeHops(parts.encoded, static_cast<std::size_t>(events));
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
    if (m_whole.load(std::memory_order_acquire))
        return m_propagation;
    std::lock_guard lock(m_mutex);
    if (!m_whole.load(std::memory_order_relaxed)) {
        m_propagation.traceHops = decoded(m_traces, m_traceEvents);
        m_propagation.executionHops = decoded(m_executions, m_executionEvents);
        m_traces = {};
        m_executions = {};
        m_owner.reset();
        m_whole.store(true, std::memory_order_release);
    }
    return m_propagation;
}

} // namespace nanscope::core
