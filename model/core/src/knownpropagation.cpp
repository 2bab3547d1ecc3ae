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

std::vector<std::uint16_t> joined(const std::vector<std::uint16_t>& a,
                                  const std::vector<std::uint16_t>& b)
{
    std::vector<std::uint16_t> out;
    out.reserve(a.size() + b.size());
    out.insert(out.end(), a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

} // namespace

KnownPropagation::KnownPropagation(Propagation withoutHops, EncodedHops traces,
                                   EncodedHops executions, std::shared_ptr<const void> owner)
    : m_propagation(std::move(withoutHops)), m_traces(traces), m_executions(executions),
      m_owner(std::move(owner))
{}

KnownPropagation::KnownPropagation(const KnownPropagation& before, const Propagation& counted)
    : m_propagation(withoutHops(counted)), m_traces(before.m_traces),
      m_executions(before.m_executions), m_traceTail(joined(before.m_traceTail, counted.traceHops)),
      m_executionTail(joined(before.m_executionTail, counted.executionHops)),
      m_owner(before.m_owner)
{}

Propagation KnownPropagation::counts() const
{
    return withoutHops(m_propagation);
}

const Propagation& KnownPropagation::get() const
{
    std::call_once(m_decoded, [this] {
        m_propagation.traceHops = indexfile::decodeHops(m_traces);
        m_propagation.traceHops.insert(m_propagation.traceHops.end(), m_traceTail.begin(),
                                       m_traceTail.end());
        m_propagation.executionHops = indexfile::decodeHops(m_executions);
        m_propagation.executionHops.insert(m_propagation.executionHops.end(),
                                           m_executionTail.begin(), m_executionTail.end());
    });
    return m_propagation;
}

} // namespace nanscope::core
