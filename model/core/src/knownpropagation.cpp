// SPDX-License-Identifier: GPL-3.0-or-later
#include "knownpropagation.hpp"

#include "indexcacheformat.hpp"

namespace nanscope::core {

KnownPropagation::KnownPropagation(Propagation withoutHops, EncodedHops traces,
                                   EncodedHops executions, std::shared_ptr<const void> owner)
    : m_propagation(std::move(withoutHops)), m_traces(traces), m_executions(executions),
      m_owner(std::move(owner))
{}

const Propagation& KnownPropagation::get() const
{
    std::call_once(m_decoded, [this] {
        m_propagation.traceHops = indexfile::decodeHops(m_traces);
        m_propagation.executionHops = indexfile::decodeHops(m_executions);
    });
    return m_propagation;
}

} // namespace nanscope::core
